/**
 * GitBook's page frontmatter and a page's metadata: what `icon`, `cover` (`coverY`,
 * `coverHeight`) and `layout` say, the keys nobody models (kept as they are), and the
 * frontmatter a page's markdown is answered with. The one rule for markdown written through the
 * API, the CLI and Git.
 */
import { fenceFrontmatter, splitFrontmatter, yamlOf } from "@quire/markdown"
import type { ContentRef, FileNode, PageLayout, PageNode } from "./Revision.ts"

/** What a page's frontmatter says of it; `extra` holds the keys no field models. */
export interface PageFrontmatter {
  readonly description?: string | undefined
  readonly icon?: string | undefined
  readonly emoji?: string | undefined
  readonly cover?: string | undefined
  readonly coverY?: number | undefined
  readonly coverHeight?: number | undefined
  readonly hidden?: boolean | undefined
  readonly layout?: PageLayout | undefined
  readonly extra: Readonly<Record<string, unknown>>
}

/** The keys of frontmatter a page's fields hold (`title` is the page's title). */
export const modelledKeys: ReadonlySet<string> = new Set(["title", "description", "icon", "emoji", "cover", "coverY", "coverHeight", "hidden", "layout"])

/** The keys of `layout` shown or hidden with `{ visible }`. */
export const layoutVisibilityKeys = ["title", "description", "tableOfContents", "outline", "pagination", "metadata"] as const

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A frontmatter `layout` mapping as a page layout; each value that is not GitBook's is reported (naming it) and left out. */
export const layoutOfFrontmatter = (value: unknown, problems: Array<string>): PageLayout | undefined => {
  if (!isMapping(value)) {
    problems.push("`layout` is not a mapping; ignored")
    return undefined
  }
  const out: { -readonly [K in keyof PageLayout]: PageLayout[K] } = {}
  const width = value["width"]
  if (width === "default" || width === "wide") out.width = width
  else if (width !== undefined) problems.push(`layout.width ${JSON.stringify(width)} is not default or wide; ignored`)
  const visible = (key: string): boolean | undefined => {
    // A scalar where GitBook has a mapping (`cover: true`) says nothing; a `visible` that is not true or false is reported.
    const entry = value[key]
    if (!isMapping(entry) || entry["visible"] === undefined || entry["visible"] === null) return undefined
    if (typeof entry["visible"] === "boolean") return entry["visible"]
    problems.push(`layout.${key}.visible is not true or false; ignored`)
    return undefined
  }
  const cover = visible("cover")
  if (cover !== undefined) out.cover = cover
  const size = isMapping(value["cover"]) ? value["cover"]["size"] : undefined
  if (size === "hero" || size === "full" || size === "background") out.coverSize = size
  else if (size !== undefined) problems.push(`layout.cover.size ${JSON.stringify(size)} is not hero, full or background; ignored`)
  for (const key of layoutVisibilityKeys) {
    const v = visible(key)
    if (v !== undefined) out[key] = v
  }
  return out
}

/** The page metadata of a frontmatter mapping; values of the wrong type are reported (naming the key) and left out. */
export const pageFrontmatterOf = (data: Readonly<Record<string, unknown>>, problems: Array<string>): PageFrontmatter => {
  const out: { -readonly [K in keyof PageFrontmatter]: PageFrontmatter[K] } = { extra: {} }
  const given = (key: string) => data[key] !== undefined && data[key] !== null
  for (const key of ["description", "icon", "emoji", "cover"] as const) {
    if (typeof data[key] === "string") out[key] = data[key]
    else if (given(key)) problems.push(`\`${key}\` is not a string; ignored`)
  }
  for (const key of ["coverY", "coverHeight"] as const) {
    if (typeof data[key] === "number" && Number.isFinite(data[key])) out[key] = data[key]
    else if (given(key)) problems.push(`\`${key}\` is not a number; ignored`)
  }
  if (typeof data["hidden"] === "boolean") out.hidden = data["hidden"]
  else if (given("hidden")) problems.push("`hidden` is not true or false; ignored")
  if (given("layout")) {
    const layout = layoutOfFrontmatter(data["layout"], problems)
    if (layout !== undefined) out.layout = layout
  }
  out.extra = Object.fromEntries(Object.entries(data).filter(([key]) => !modelledKeys.has(key)))
  return out
}

/** The GitBook `layout` mapping of a page layout. */
export const frontmatterLayout = (layout: PageLayout): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  if (layout.width !== undefined) out["width"] = layout.width
  if (layout.cover !== undefined || layout.coverSize !== undefined) {
    out["cover"] = { ...(layout.cover === undefined ? {} : { visible: layout.cover }), ...(layout.coverSize === undefined ? {} : { size: layout.coverSize }) }
  }
  for (const key of layoutVisibilityKeys) if (layout[key] !== undefined) out[key] = { visible: layout[key] }
  return out
}

/** How markdown names a revision's file: `.gitbook/assets/<name>`, as GitBook writes it. */
export const fileAssetPath = (file: Pick<FileNode, "name">): string => `.gitbook/assets/${file.name}`

/**
 * Where a frontmatter `cover` points: the revision's file it names (by `.gitbook/assets/<name>`
 * or its name, as written or URL-encoded), else the URL as written.
 */
export const coverRefOf = (cover: string, files: ReadonlyArray<FileNode>): ContentRef => {
  const trimmed = cover.trim().replace(/^<(.*)>$/, "$1")
  let decoded = trimmed
  try {
    decoded = decodeURI(trimmed)
  } catch {
    // Kept as written.
  }
  const name = decoded.replace(/^(?:\.{1,2}\/)*(?:\/)?(?:\.gitbook\/assets\/)?/, "")
  const file = /^[a-z][a-z0-9+.-]*:/i.test(decoded) ? undefined : files.find((f) => f.name === name)
  return file === undefined ? { kind: "url", url: trimmed } : { kind: "file", file: file.id }
}

/**
 * The frontmatter GitBook writes for a page's `icon`, `cover` (with `coverY`, `coverHeight`),
 * `layout` and the keys no field models, in that order; `""` when it has none. A cover on a file
 * is written as the file's asset path.
 */
export const pageFrontmatterBlock = (page: PageNode, files: ReadonlyArray<FileNode>): string => {
  const values: Record<string, unknown> = {}
  if (page.icon !== undefined && page.icon !== "") values["icon"] = page.icon
  const ref = page.cover?.ref
  const cover = ref === undefined
    ? undefined
    : ref.kind === "url"
    ? ref.url
    : ref.kind === "file"
    ? (() => {
      const file = files.find((f) => f.id === ref.file)
      return file === undefined ? undefined : fileAssetPath(file)
    })()
    : undefined
  if (cover !== undefined) {
    values["cover"] = cover
    if (page.cover?.yPos !== undefined) values["coverY"] = page.cover.yPos
    if (page.cover?.height !== undefined) values["coverHeight"] = page.cover.height
  }
  const layout = page.layout === undefined ? {} : frontmatterLayout(page.layout)
  if (Object.keys(layout).length > 0) values["layout"] = layout
  for (const [key, value] of Object.entries(page.frontmatter ?? {})) if (!modelledKeys.has(key)) values[key] = value
  return Object.keys(values).length === 0 ? "" : fenceFrontmatter(yamlOf(values))
}

/**
 * A document page's markdown as the API answers it: its frontmatter (see `pageFrontmatterBlock`)
 * before the stored body, so that what was written comes back; a body that has its own is kept as is.
 */
export const markdownWithFrontmatter = (page: PageNode, files: ReadonlyArray<FileNode>, stored: string): string => {
  if (stored.startsWith("---") && splitFrontmatter(stored).yaml !== undefined) return stored
  const block = pageFrontmatterBlock(page, files)
  return block === "" ? stored : `${block}\n${stored}`
}
