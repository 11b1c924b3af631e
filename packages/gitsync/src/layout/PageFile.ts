/**
 * A page file of GitBook's layout: YAML frontmatter (metadata), a `# Title` heading, the body.
 * Parsing keeps every piece as written so that a page is rewritten only where its meaning changed,
 * frontmatter through the `yaml` Document API (other keys, comments and formatting stay).
 */
import type { PageLayout } from "@quire/content/domain/Revision"
import { toString } from "mdast-util-to-string"
import remarkParse from "remark-parse"
import { unified } from "unified"
import { Document, isMap, parseDocument } from "yaml"

/** The metadata GitBook keeps in a page's frontmatter. */
export interface PageMetadata {
  readonly description?: string | undefined
  readonly icon?: string | undefined
  readonly emoji?: string | undefined
  readonly cover?: string | undefined
  readonly coverY?: number | undefined
  readonly hidden?: boolean | undefined
  readonly layout?: PageLayout | undefined
}

export interface PageFileParts {
  /** `---` ... `---` and its line ending, or `""`. */
  readonly frontmatter: string
  /** The YAML between the fences. */
  readonly yaml: string | undefined
  readonly gapBeforeHeading: string
  /** The heading's line with its line ending, or `""`. */
  readonly heading: string
  readonly title: string | undefined
  readonly gapAfterHeading: string
  readonly body: string
  readonly metadata: PageMetadata
  readonly newline: string
}

const titleProcessor = unified().use(remarkParse).freeze()

const headingText = (raw: string): string =>
  /[\\`*_[\]<>&!~]/.test(raw) ? toString(titleProcessor.parse(`# ${raw}`)).trim() : raw.trim()

const layoutKeys = ["title", "description", "tableOfContents", "outline", "pagination", "metadata"] as const

const layoutOf = (value: unknown, problems: Array<string>): PageLayout | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push("`layout` is not a mapping; ignored")
    return undefined
  }
  const source = value as Record<string, unknown>
  const out: { -readonly [K in keyof PageLayout]: PageLayout[K] } = {}
  const width = source["width"]
  if (width === "default" || width === "wide") out.width = width
  else if (width !== undefined) problems.push(`layout.width ${JSON.stringify(width)} is not default or wide; ignored`)
  const visible = (key: string): boolean | undefined => {
    const entry = source[key]
    if (typeof entry === "object" && entry !== null && typeof (entry as Record<string, unknown>)["visible"] === "boolean") {
      return (entry as Record<string, boolean>)["visible"]
    }
    return undefined
  }
  const cover = visible("cover")
  if (cover !== undefined) out.cover = cover
  const size = (source["cover"] as Record<string, unknown> | undefined)?.["size"]
  if (size === "hero" || size === "full") out.coverSize = size
  for (const key of layoutKeys) {
    const v = visible(key)
    if (v !== undefined) out[key] = v
  }
  return out
}

/** The known metadata of a frontmatter mapping; wrong types are reported and left out. */
const metadataOf = (data: Record<string, unknown>, problems: Array<string>): PageMetadata => {
  const out: { -readonly [K in keyof PageMetadata]: PageMetadata[K] } = {}
  const text = (key: "description" | "icon" | "emoji" | "cover") => {
    const value = data[key]
    if (typeof value === "string") out[key] = value
    else if (value !== undefined && value !== null) problems.push(`\`${key}\` is not a string; ignored`)
  }
  text("description")
  text("icon")
  text("emoji")
  text("cover")
  if (typeof data["coverY"] === "number") out.coverY = data["coverY"]
  else if (data["coverY"] !== undefined && data["coverY"] !== null) problems.push("`coverY` is not a number; ignored")
  if (typeof data["hidden"] === "boolean") out.hidden = data["hidden"]
  else if (data["hidden"] !== undefined && data["hidden"] !== null) problems.push("`hidden` is not true or false; ignored")
  if (data["layout"] !== undefined && data["layout"] !== null) {
    const layout = layoutOf(data["layout"], problems)
    if (layout !== undefined) out.layout = layout
  }
  return out
}

const blankLines = /^(?:[ \t]*\r?\n)*/
const atxH1 = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*(\r?\n|$)/

/**
 * The pieces of a page file. Fails with the reason when the frontmatter is not valid YAML or not
 * a mapping; `warnings` gets metadata of the wrong type (which is then ignored).
 */
export const parsePageFile = (
  text: string,
  warnings: Array<string>
): { readonly ok: true; readonly parts: PageFileParts } | { readonly ok: false; readonly reason: string } => {
  const newline = text.includes("\r\n") ? "\r\n" : "\n"
  let frontmatter = ""
  let yaml: string | undefined
  let metadata: PageMetadata = {}
  const open = /^---[ \t]*\r?\n/.exec(text)
  if (open !== null) {
    const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m
    const rest = text.slice(open[0].length)
    const found = close.exec(rest)
    if (found !== null) {
      yaml = rest.slice(0, found.index)
      frontmatter = text.slice(0, open[0].length + found.index + found[0].length)
      const doc = parseDocument(yaml)
      if (doc.errors.length > 0) {
        const error = doc.errors[0]!
        const line = error.linePos?.[0].line
        return { ok: false, reason: `frontmatter is not valid YAML${line === undefined ? "" : ` (line ${line + 1})`}: ${error.message.split("\n")[0]}` }
      }
      const data: unknown = doc.toJS()
      if (data !== null && data !== undefined && (typeof data !== "object" || Array.isArray(data))) {
        return { ok: false, reason: "frontmatter is not a mapping of keys to values" }
      }
      metadata = metadataOf((data ?? {}) as Record<string, unknown>, warnings)
    }
  }
  let rest = text.slice(frontmatter.length)
  const gapBeforeHeading = blankLines.exec(rest)![0]
  rest = rest.slice(gapBeforeHeading.length)
  const h1 = atxH1.exec(rest)
  let heading = ""
  let title: string | undefined
  let gapAfterHeading = ""
  if (h1 !== null && headingText(h1[1] ?? "") !== "") {
    heading = h1[0]
    title = headingText(h1[1] ?? "")
    rest = rest.slice(heading.length)
    gapAfterHeading = blankLines.exec(rest)![0]
    rest = rest.slice(gapAfterHeading.length)
  }
  return {
    ok: true,
    parts: { frontmatter, yaml, gapBeforeHeading, heading, title, gapAfterHeading, body: rest, metadata, newline }
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

const metadataOrder = ["description", "icon", "emoji", "cover", "coverY", "hidden"] as const

/** The frontmatter block for `metadata`, editing `previous` (its YAML) where there was one. */
const renderFrontmatter = (metadata: PageMetadata, previous: PageFileParts | undefined, newline: string): string => {
  if (previous !== undefined && previous.yaml !== undefined && same(normalizeMetadata(previous.metadata), normalizeMetadata(metadata))) {
    return previous.frontmatter
  }
  const doc = previous?.yaml !== undefined ? parseDocument(previous.yaml) : new Document({})
  if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as typeof doc.contents
  const before = previous?.metadata ?? {}
  for (const key of metadataOrder) {
    if (same(before[key], metadata[key])) continue
    if (metadata[key] === undefined) doc.delete(key)
    else doc.set(key, metadata[key])
  }
  if (!same(before.layout, metadata.layout)) {
    const was = before.layout ?? {}
    const now = metadata.layout ?? {}
    const setOrDelete = (path: ReadonlyArray<string>, was: unknown, now: unknown) => {
      if (same(was, now)) return
      if (now === undefined) doc.deleteIn(path)
      else doc.setIn(path, now)
    }
    setOrDelete(["layout", "width"], was.width, now.width)
    setOrDelete(["layout", "cover", "visible"], was.cover, now.cover)
    setOrDelete(["layout", "cover", "size"], was.coverSize, now.coverSize)
    for (const key of layoutKeys) setOrDelete(["layout", key, "visible"], was[key], now[key])
    // Mappings left empty by a removal go with it.
    const layout = doc.get("layout")
    if (isMap(layout)) {
      for (const item of [...layout.items]) {
        if (isMap(item.value) && item.value.items.length === 0) layout.delete(item.key)
      }
      if (layout.items.length === 0) doc.delete("layout")
    }
  }
  const contents = doc.contents
  if (isMap(contents) && contents.items.length === 0 && (previous?.yaml === undefined || doc.commentBefore == null)) return ""
  const yaml = doc.toString({ lineWidth: 0 })
  const body = newline === "\n" ? yaml : yaml.replace(/\n/g, newline)
  return `---${newline}${body}---${newline}`
}

const normalizeMetadata = (metadata: PageMetadata): PageMetadata => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined) continue
    if (key === "layout") {
      const layout = Object.fromEntries(Object.entries(value as object).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)))
      if (Object.keys(layout).length > 0) out[key] = layout
    } else out[key] = value
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1))) as PageMetadata
}

/** Whether two metadata say the same (undefined fields and key order ignored). */
export const sameMetadata = (a: PageMetadata, b: PageMetadata): boolean => same(normalizeMetadata(a), normalizeMetadata(b))

/**
 * The file of a page with `title`, `metadata` and `body` (already in the file's form), following
 * `previous` (the same page's file before) wherever its meaning did not change.
 */
export const renderPageFile = (
  page: { readonly title: string; readonly metadata: PageMetadata; readonly body: string },
  previous: PageFileParts | undefined
): string => {
  const newline = previous?.newline ?? "\n"
  const frontmatter = renderFrontmatter(page.metadata, previous, newline)
  let heading: string
  if (previous !== undefined && previous.title === page.title) heading = previous.heading
  else heading = `# ${page.title.replace(/^(\s*)#/, "$1\\#")}${newline}`
  if (heading !== "" && !heading.endsWith("\n")) heading += newline
  const gapBeforeHeading = frontmatter === ""
    ? (previous !== undefined && previous.frontmatter === "" ? previous.gapBeforeHeading : "")
    : (previous !== undefined && previous.frontmatter !== "" ? previous.gapBeforeHeading : newline)
  const gapAfterHeading = heading === "" || page.body === ""
    ? ""
    : (previous !== undefined && previous.heading !== "" && (previous.gapAfterHeading !== "" || previous.body !== "") ? previous.gapAfterHeading : newline)
  return frontmatter + gapBeforeHeading + heading + gapAfterHeading + page.body
}
