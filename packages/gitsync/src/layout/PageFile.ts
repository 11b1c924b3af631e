/**
 * A page file of GitBook's layout: YAML frontmatter (metadata), a `# Title` heading, the body.
 * Parsing keeps every piece as written so that a page is rewritten only where its meaning changed,
 * frontmatter through the `yaml` Document API (other keys, comments and formatting stay). Where
 * frontmatter lies, what it says and what a heading's title is are `@quire/markdown`'s rules.
 */
import { frontmatterLayout, layoutVisibilityKeys, modelledKeys, type PageFrontmatter, pageFrontmatterOf, type PageLayout } from "@quire/content"
import { fenceFrontmatter, leadingTitle, readFrontmatter, splitFrontmatter } from "@quire/markdown"
import { Document, isMap, isNode, isScalar, parseDocument, Scalar, type YAMLMap } from "yaml"

/** The metadata GitBook keeps in a page's frontmatter (the keys no field models stay in the file). */
export type PageMetadata = Omit<PageFrontmatter, "extra">

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
  /** The frontmatter's keys no field models (`tags`, `metadata`), as read. */
  readonly extra: Readonly<Record<string, unknown>>
  readonly newline: string
}


const blankLines = /^(?:[ \t]*\r?\n)*/

/**
 * The pieces of a page file. Fails with the reason when the frontmatter is not valid YAML or not
 * a mapping; `warnings` gets metadata of the wrong type (which is then ignored).
 */
export const parsePageFile = (
  text: string,
  warnings: Array<string>
): { readonly ok: true; readonly parts: PageFileParts } | { readonly ok: false; readonly reason: string } => {
  const newline = text.includes("\r\n") ? "\r\n" : "\n"
  const { block: frontmatter, body: afterFrontmatter, yaml } = splitFrontmatter(text)
  let metadata: PageMetadata = {}
  let extra: Readonly<Record<string, unknown>> = {}
  if (yaml !== undefined) {
    const read = readFrontmatter(yaml)
    if (!read.ok) return read
    const { extra: unmodelled, ...known } = pageFrontmatterOf(read.data, warnings)
    metadata = known
    extra = unmodelled
  }
  let rest = afterFrontmatter
  const gapBeforeHeading = blankLines.exec(rest)![0]
  rest = rest.slice(gapBeforeHeading.length)
  const lead = leadingTitle(rest)
  let heading = ""
  let title: string | undefined
  let gapAfterHeading = ""
  if (lead !== undefined) {
    heading = lead.heading
    title = lead.title
    rest = rest.slice(heading.length)
    gapAfterHeading = blankLines.exec(rest)![0]
    rest = rest.slice(gapAfterHeading.length)
  }
  return {
    ok: true,
    parts: { frontmatter, yaml, gapBeforeHeading, heading, title, gapAfterHeading, body: rest, metadata, extra, newline }
  }
}

/** `value` as JSON with every mapping's keys sorted (a database may give them back in another order). */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v)

const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b)

/**
 * Whether GitBook (js-yaml at 80 columns) folds a string (`>-`, lines of at most 78 characters
 * after the indentation): a long one with spaces that plain YAML could hold. Strings with control
 * characters or no-break spaces it quotes instead, on one line.
 */
const folded = (value: unknown): value is string =>
  typeof value === "string" && value.length > 78 && value.includes(" ") && value.trim() === value &&
  // oxlint-disable-next-line no-control-regex -- control characters are what it looks for
  !/[\u0000-\u001f\u007f-\u00a0\u2028\u2029\ufeff]/.test(value)

/** `values` as frontmatter YAML in GitBook's style: long strings folded at 80 columns. */
const gitbookYaml = (values: Readonly<Record<string, unknown>>): string => {
  const doc = new Document({})
  const map = doc.contents as YAMLMap
  let fold = false
  for (const [key, value] of Object.entries(values)) {
    const node = isNode(value) ? value : doc.createNode(value)
    if (folded(value) && node instanceof Scalar) {
      node.type = Scalar.BLOCK_FOLDED
      fold = true
    }
    map.set(key, node)
  }
  return doc.toString({ lineWidth: fold ? 80 : 0, minContentWidth: 0 })
}

const metadataOrder = ["description", "icon", "emoji", "cover", "coverY", "coverHeight", "hidden"] as const

/**
 * The frontmatter block for `metadata` and the unmodelled keys `extra` (`undefined`: the previous
 * file's, as read). With a previous frontmatter, only the pairs of the keys whose value changed are
 * rewritten, removed or appended: other keys, comments and formatting keep their bytes.
 */
const renderFrontmatter = (
  metadata: PageMetadata,
  extra: Readonly<Record<string, unknown>> | undefined,
  previous: PageFileParts | undefined,
  newline: string
): string => {
  const sameExtra = extra === undefined || same(previous?.extra ?? {}, extra)
  if (previous !== undefined && previous.yaml !== undefined && sameMetadata(previous.metadata, metadata) && sameExtra) return previous.frontmatter
  const fence = (yaml: string) => fenceFrontmatter(yaml, newline)
  const doc = previous?.yaml === undefined ? undefined : parseDocument(previous.yaml)
  if (previous?.yaml === undefined || doc === undefined || !isMap(doc.contents)) {
    const values: Record<string, unknown> = {}
    for (const key of metadataOrder) if (metadata[key] !== undefined) values[key] = metadata[key]
    if (metadata.layout !== undefined && Object.keys(frontmatterLayout(metadata.layout)).length > 0) values["layout"] = frontmatterLayout(metadata.layout)
    for (const [key, value] of Object.entries(extra ?? previous?.extra ?? {})) if (!modelledKeys.has(key) && value !== undefined) values[key] = value
    return Object.keys(values).length === 0 ? "" : fence(gitbookYaml(values))
  }
  const yaml = previous.yaml
  const map = doc.contents
  const before = previous.metadata
  const edits: Array<{ start: number; end: number; text: string }> = []
  let appended = ""
  const pairOf = (key: string) => map.items.find((item) => isScalar(item.key) && item.key.value === key)
  const lineEnd = (offset: number) => {
    const nl = yaml.indexOf("\n", offset)
    return nl === -1 ? yaml.length : nl + 1
  }
  const change = (key: string, value: unknown) => {
    const pair = pairOf(key)
    const keyRange = isScalar(pair?.key) ? pair.key.range : undefined
    const valueRange = (pair?.value as { range?: [number, number, number] } | null | undefined)?.range
    if (value === undefined) {
      if (keyRange != null) edits.push({ start: keyRange[0], end: lineEnd(Math.max((valueRange ?? keyRange)[2] - 1, keyRange[0])), text: "" })
      return
    }
    const text = gitbookYaml({ [key]: value })
    if (keyRange == null) {
      appended += text
      return
    }
    const end = valueRange?.[1] ?? keyRange[1]
    const old = yaml.slice(keyRange[0], end)
    edits.push({ start: keyRange[0], end, text: text.replace(/\n$/, "") + (old.endsWith("\n") ? "\n" : "") })
  }
  for (const key of metadataOrder) if (!same(before[key], metadata[key])) change(key, metadata[key])
  if (!sameExtra) {
    const keys = new Set([...Object.keys(previous.extra), ...Object.keys(extra)].filter((key) => !modelledKeys.has(key)))
    for (const key of keys) if (!same(previous.extra[key], extra[key])) change(key, extra[key])
  }
  if (!same(normalizeLayout(before.layout), normalizeLayout(metadata.layout))) {
    const was = before.layout ?? {}
    const now = metadata.layout ?? {}
    const setOrDelete = (path: ReadonlyArray<string>, was: unknown, now: unknown) => {
      if (same(was, now)) return
      // A scalar where GitBook has a mapping (`cover: true`) becomes one.
      if (path.length === 3 && doc.hasIn(path.slice(0, 2)) && !isMap(doc.getIn(path.slice(0, 2), true))) doc.setIn(path.slice(0, 2), doc.createNode({}))
      if (now === undefined) {
        if (doc.hasIn(path)) doc.deleteIn(path)
      } else doc.setIn(path, now)
    }
    if (!isMap(doc.get("layout", true))) doc.set("layout", doc.createNode({}))
    setOrDelete(["layout", "width"], was.width, now.width)
    setOrDelete(["layout", "cover", "visible"], was.cover, now.cover)
    setOrDelete(["layout", "cover", "size"], was.coverSize, now.coverSize)
    for (const key of layoutVisibilityKeys) setOrDelete(["layout", key, "visible"], was[key], now[key])
    // Mappings left empty by a removal go with it.
    const layout = doc.get("layout", true)
    if (isMap(layout)) {
      const empty = layout.items.filter((item) => isMap(item.value) && item.value.items.length === 0)
      for (const item of empty) layout.delete(item.key)
    }
    change("layout", isMap(layout) && layout.items.length > 0 ? layout : undefined)
  }
  let out = yaml
  for (const edit of edits.toSorted((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end)
  if (appended !== "") out = (out === "" || out.endsWith("\n") ? out : out + "\n") + appended
  if (out.trim() === "") return ""
  return fence(out)
}

const normalizeLayout = (layout: PageLayout | undefined) =>
  layout === undefined ? undefined : Object.fromEntries(Object.entries(layout).filter(([, v]) => v !== undefined).toSorted(([a], [b]) => (a < b ? -1 : 1)))

const normalizeMetadata = (metadata: PageMetadata): PageMetadata => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined) continue
    if (key === "layout") {
      const layout = Object.fromEntries(Object.entries(value as object).filter(([, v]) => v !== undefined).toSorted(([a], [b]) => (a < b ? -1 : 1)))
      if (Object.keys(layout).length > 0) out[key] = layout
    } else out[key] = value
  }
  return Object.fromEntries(Object.entries(out).toSorted(([a], [b]) => (a < b ? -1 : 1))) as PageMetadata
}

/** Whether two metadata say the same (undefined fields and key order ignored). */
export const sameMetadata = (a: PageMetadata, b: PageMetadata): boolean => same(normalizeMetadata(a), normalizeMetadata(b))

/**
 * The file of a page with `title`, `metadata` and `body` (already in the file's form), following
 * `previous` (the same page's file before) wherever its meaning did not change.
 */
export const renderPageFile = (
  page: {
    readonly title: string
    readonly metadata: PageMetadata
    /** The keys no field models; `undefined` keeps the previous file's. */
    readonly extra?: Readonly<Record<string, unknown>> | undefined
    readonly body: string
  },
  previous: PageFileParts | undefined
): string => {
  const newline = previous?.newline ?? "\n"
  const frontmatter = renderFrontmatter(page.metadata, page.extra, previous, newline)
  let heading: string
  if (previous !== undefined && previous.title === page.title) heading = previous.heading
  else {
    // A retitled heading keeps the anchor GitBook gave it.
    const anchor = previous === undefined ? undefined : /\s*<a\s[^>]*><\/a>[ \t]*(?=\r?\n?$)/i.exec(previous.heading)?.[0]
    heading = `# ${page.title.replace(/^(\s*)#/, "$1\\#")}${anchor ?? ""}${newline}`
  }
  if (heading !== "" && !heading.endsWith("\n")) heading += newline
  const gapBeforeHeading = frontmatter === ""
    ? (previous !== undefined && previous.frontmatter === "" ? previous.gapBeforeHeading : "")
    : (previous !== undefined && previous.frontmatter !== "" ? previous.gapBeforeHeading : newline)
  // A title-only page is `# Title` and an empty line, as GitBook writes it, unless its file had another gap.
  const gapAfterHeading = heading === ""
    ? ""
    : page.body === ""
    ? (previous !== undefined && previous.body === "" && previous.heading !== "" ? previous.gapAfterHeading : newline)
    : (previous !== undefined && previous.heading !== "" && (previous.gapAfterHeading !== "" || previous.body !== "") ? previous.gapAfterHeading : newline)
  return frontmatter + gapBeforeHeading + heading + gapAfterHeading + page.body
}
