/**
 * A page's options, pure: its icon (an emoji, or a GitBook icon name), its cover (a URL or an
 * uploaded file, with `coverHeight` and `coverY`) and its layout (width; title, description, table
 * of contents, outline and pagination shown or hidden), read from the API's `RevisionPage` and
 * written as the `updateChangeRequestContent` changes that carry them out.
 *
 * Icon and emoji are page fields of `update_page`. Cover and layout live in the page's frontmatter
 * (GitBook's `cover:`, `coverY:`, `coverHeight:`, `layout:`), which the server reads into the page's
 * fields when a write's markdown has them: so they are written as the page's markdown with those
 * keys of its frontmatter replaced, every other key and the body kept as they were.
 */
import * as Syntax from "@quire/document/syntax"
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"

/** The parts of a page that `layout` shows or hides (`true`, shown, unless the frontmatter hides it). */
export const visibilityKeys = ["title", "description", "tableOfContents", "outline", "pagination"] as const
export type VisibilityKey = typeof visibilityKeys[number]

export const visibilityLabels: Readonly<Record<VisibilityKey, string>> = {
  title: "Title",
  description: "Description",
  tableOfContents: "Table of contents",
  outline: "Outline (On this page)",
  pagination: "Previous and next links"
}

/** The API's page layout, every key optional (a page answers only those its frontmatter sets). */
type Layout = { readonly [K in keyof NonNullable<RevisionPage["layout"]>]?: NonNullable<RevisionPage["layout"]>[K] | undefined }

/** What the form edits. `cover` is a URL as typed; `coverFile` names the page's uploaded cover file, kept while `cover` is empty and not removed. */
export interface Options {
  readonly icon: string
  readonly cover: string
  readonly coverFile?: string | undefined
  readonly coverRemoved: boolean
  readonly coverHeight: string
  readonly coverY: string
  readonly width: "default" | "wide"
  readonly visible: Readonly<Record<VisibilityKey, boolean>>
}

/** The field a problem is about, for the message beside its control. */
export type Field = "icon" | "cover" | "coverHeight" | "coverY" | "upload" | "form"
export type Problems = Partial<Record<Field, string>>

export const optionsOf = (page: RevisionPage): Options => {
  const ref = page.cover?.ref
  const layout: Layout = page.layout ?? {}
  return {
    icon: page.emoji ?? page.icon ?? "",
    cover: ref?.kind === "url" ? ref.url : "",
    coverFile: ref?.kind === "file" ? ref.file : undefined,
    coverRemoved: false,
    coverHeight: page.cover?.height === undefined ? "" : String(page.cover.height),
    coverY: page.cover?.yPos === undefined ? "" : String(page.cover.yPos),
    width: layout.width ?? "default",
    visible: Object.fromEntries(visibilityKeys.map((key) => [key, layout[key] ?? true])) as Record<VisibilityKey, boolean>
  }
}

const iconName = /^[a-z][a-z0-9-]*$/
const whole = (text: string, min: number, max: number): number | undefined => {
  if (!/^-?\d+$/.test(text.trim())) return undefined
  const n = Number(text.trim())
  return n >= min && n <= max ? n : undefined
}

/** What is wrong with the form, in words, by field (empty: nothing). */
export const problemsOf = (options: Options): Problems => {
  const out: { -readonly [K in Field]?: string } = {}
  const icon = options.icon.trim()
  if (icon.length > 50) out.icon = "An icon has at most 50 characters."
  else if (icon !== "" && /^[ -~]+$/.test(icon) && !iconName.test(icon)) out.icon = "Write an emoji, or an icon name in lowercase letters, digits and dashes (such as book-open)."
  const cover = options.cover.trim()
  if (cover !== "") {
    let url: URL | undefined
    try {
      url = new URL(cover)
    } catch {
      url = undefined
    }
    if (url === undefined || (url.protocol !== "https:" && url.protocol !== "http:")) out.cover = "The cover must be a web address starting with https://"
  }
  if (options.coverHeight.trim() !== "" && whole(options.coverHeight, 40, 2000) === undefined) out.coverHeight = "The height is a whole number of pixels from 40 to 2000."
  if (options.coverY.trim() !== "" && whole(options.coverY, -2000, 2000) === undefined) out.coverY = "The position is a whole number of pixels from -2000 to 2000."
  return out
}

/** The icon as the API's fields: an icon name, else an emoji; the other one removed (empty removes both). */
export const iconFields = (icon: string): { readonly emoji: string; readonly icon: string } => {
  const value = icon.trim()
  if (value === "") return { emoji: "", icon: "" }
  return iconName.test(value) ? { emoji: "", icon: value } : { emoji: value, icon: "" }
}

/** The `layout` mapping GitBook writes, from the page's layout and the form (keys the form does not show are kept). */
export const layoutYaml = (before: Layout, options: Options): string => {
  const lines: Array<string> = []
  if (options.width !== "default") lines.push(`  width: ${options.width}`)
  // The API answers every key, defaults included (cover shown, `hero`, metadata shown): only the others are written.
  const hidden = before.cover === false
  const size = before.coverSize !== undefined && before.coverSize !== "hero" ? before.coverSize : undefined
  if (hidden || size !== undefined) {
    lines.push("  cover:")
    if (hidden) lines.push("    visible: false")
    if (size !== undefined) lines.push(`    size: ${size}`)
  }
  for (const key of visibilityKeys) if (!options.visible[key]) lines.push(`  ${key}:`, "    visible: false")
  if (before.metadata === false) lines.push("  metadata:", "    visible: false")
  return lines.length === 0 ? " {}" : `\n${lines.join("\n")}`
}

/** Splits `markdown` into its frontmatter's lines (undefined: none) and the rest. */
const splitFront = (markdown: string): { readonly yaml: Array<string> | undefined; readonly body: string } => {
  const lines = markdown.split("\n")
  const end = Syntax.frontmatterCloseLine(lines)
  if (end < 0) return { yaml: undefined, body: markdown }
  return { yaml: lines.slice(1, end), body: lines.slice(end + 1).join("\n").replace(/^(?:[ \t]*\r?\n)+/, "") }
}

/**
 * `markdown` with the top-level frontmatter keys of `values` replaced (a key's YAML after `key:`,
 * either ` scalar` or a newline and indented lines) or removed (null); other keys, and the body, as
 * they were. No frontmatter left: none written.
 */
export const withFrontmatterKeys = (markdown: string, values: Readonly<Record<string, string | null>>): string => {
  const { yaml, body } = splitFront(markdown)
  const kept: Array<string> = []
  let skipping = false
  for (const line of yaml ?? []) {
    const key = /^([A-Za-z_][\w-]*)[ \t]*:/.exec(line)?.[1]
    if (key !== undefined) skipping = key in values
    else if (!/^[ \t]|^$/.test(line)) skipping = false
    if (!skipping) kept.push(line)
  }
  for (const [key, value] of Object.entries(values)) if (value !== null) kept.push(`${key}:${value}`)
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === "") kept.pop()
  return kept.length === 0 ? body : `---\n${kept.join("\n")}\n---\n\n${body}`
}

/** A YAML double-quoted scalar (JSON's string syntax is YAML's). */
const quoted = (text: string) => ` ${JSON.stringify(text)}`

/**
 * The change that saves the form for `page`, whose markdown (with its frontmatter, as
 * `format=markdown` answers it) is `markdown`; `uploaded`: the asset path of a cover file inserted
 * earlier in the same batch. Null when nothing changed.
 */
export const optionsChange = (
  page: RevisionPage,
  markdown: string,
  options: Options,
  uploaded?: string | undefined
): ChangeRequestContentChange | null => {
  const was = optionsOf(page)
  const icon = options.icon.trim() === was.icon ? {} : iconFields(options.icon)
  const keys: Record<string, string | null> = {}
  const cover = uploaded ?? options.cover.trim()
  const coverChanged = uploaded !== undefined || options.coverRemoved || cover !== was.cover
  const sizeChanged = options.coverHeight.trim() !== was.coverHeight || options.coverY.trim() !== was.coverY
  // An empty cover removes it (the server reads `cover: ""` as none).
  if (coverChanged) keys["cover"] = quoted(cover)
  if (coverChanged || sizeChanged) {
    keys["coverHeight"] = options.coverHeight.trim() === "" ? null : ` ${Number(options.coverHeight.trim())}`
    // 0 is where a cover sits anyway (the API answers it for every cover): not written.
    keys["coverY"] = options.coverY.trim() === "" || Number(options.coverY.trim()) === 0 ? null : ` ${Number(options.coverY.trim())}`
  }
  const layoutChanged = options.width !== was.width || visibilityKeys.some((key) => options.visible[key] !== was.visible[key])
  if (layoutChanged) keys["layout"] = layoutYaml(page.layout ?? {}, options)
  const markdownChanged = Object.keys(keys).length > 0
  if (!markdownChanged && Object.keys(icon).length === 0) return null
  return {
    operation: "update_page",
    page: page.id,
    ...icon,
    // With markdown, the title stays the page's even when its body starts with a heading.
    ...(markdownChanged ? { title: page.title, document: { markdown: withFrontmatterKeys(markdown, keys) } } : {})
  }
}
