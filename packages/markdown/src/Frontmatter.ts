/**
 * A page's YAML frontmatter: where it lies (the rule remark-frontmatter parses by), what it says
 * and how it is written, all with the `yaml` library.
 */
import { Document, parseDocument, type YAMLMap } from "yaml"

/** A document's frontmatter as written, and the markdown after it. */
export interface FrontmatterSplit {
  /** `---` ... `---` with the closing fence's line ending, or `""`. */
  readonly block: string
  /** The YAML between the fences (each line with its line ending); `undefined` without frontmatter. */
  readonly yaml: string | undefined
  /** Everything after `block`. */
  readonly body: string
}

// A `---` line first (no indent), any lines, then the first `---` line (trailing spaces allowed on
// both); `...` does not close, and TOML's `+++` is no frontmatter. remark-frontmatter's rule.
const fenced = /^---[ \t]*(?:\r\n|\r(?!\n)|\n)((?:[^\r\n]*(?:\r\n|\r(?!\n)|\n))*?)---[ \t]*(?:\r\n|\r(?!\n)|\n|$)/

/** The frontmatter block at the start of `markdown`, if any, and the rest. */
export const splitFrontmatter = (markdown: string): FrontmatterSplit => {
  if (!markdown.startsWith("---")) return { block: "", yaml: undefined, body: markdown }
  const found = fenced.exec(markdown)
  if (found === null) return { block: "", yaml: undefined, body: markdown }
  return { block: found[0], yaml: found[1]!, body: markdown.slice(found[0].length) }
}

/** What frontmatter says: a mapping, or why it cannot be read. */
export type FrontmatterData =
  | { readonly ok: true; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly reason: string }

/** The mapping `yaml` holds (empty YAML is an empty mapping); the reason when it is not valid YAML or not a mapping. */
export const readFrontmatter = (yaml: string): FrontmatterData => {
  const doc = parseDocument(yaml)
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!
    const line = error.linePos?.[0].line
    return { ok: false, reason: `frontmatter is not valid YAML${line === undefined ? "" : ` (line ${line + 1})`}: ${error.message.split("\n")[0]}` }
  }
  let data: unknown
  try {
    data = doc.toJS()
  } catch (error) {
    return { ok: false, reason: `frontmatter cannot be read: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (data === null || data === undefined) return { ok: true, data: {} }
  if (typeof data !== "object" || Array.isArray(data)) return { ok: false, reason: "frontmatter is not a mapping of keys to values" }
  return { ok: true, data: data as Record<string, unknown> }
}

/** The mapping of `yaml`, or an empty one when it is not valid YAML or not a mapping (as content reads a page). */
export const frontmatterData = (yaml: string): Record<string, unknown> => {
  const read = readFrontmatter(yaml)
  return read.ok ? read.data : {}
}

/** `yaml` between `---` fences, each line ending with `newline`. */
export const fenceFrontmatter = (yaml: string, newline = "\n"): string =>
  `---${newline}${newline === "\n" ? yaml : yaml.replace(/\r?\n/g, newline)}---${newline}`

/** `values` as YAML (no line folding), keys in their order. */
export const yamlOf = (values: Record<string, unknown>): string => new Document(values).toString({ lineWidth: 0 })

/** `key: value` as YAML, one pair (a trailing newline included). */
export const yamlPair = (key: string, value: unknown): string => {
  const doc = new Document({})
  ;(doc.contents as YAMLMap).set(key, value)
  return doc.toString({ lineWidth: 0 })
}
