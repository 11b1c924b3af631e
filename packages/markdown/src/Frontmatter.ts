/**
 * A page's YAML frontmatter: where it lies (the fences of `@quire/document`'s syntax, which the
 * editor reads by too), what it says and how it is written, all with the `yaml` library.
 */
import * as Syntax from "@quire/document/syntax"
import { Document, parseDocument, type YAMLMap } from "yaml"

/** A document's frontmatter as written, and the markdown after it. */
export interface FrontmatterSplit {
  /** `---` ... `---` (or `...`) with the closing fence's line ending, or `""`. */
  readonly block: string
  /** The YAML between the fences (each line with its line ending); `undefined` without frontmatter. */
  readonly yaml: string | undefined
  /** Everything after `block`. */
  readonly body: string
}

/** The frontmatter block at the start of `markdown`, if any, and the rest. */
export const splitFrontmatter = (markdown: string): FrontmatterSplit => {
  const found = Syntax.findFrontmatter(markdown)
  if (found === undefined) return { block: "", yaml: undefined, body: markdown }
  return { block: markdown.slice(0, found.end), yaml: markdown.slice(found.yamlStart, found.yamlEnd), body: markdown.slice(found.end) }
}

const simpleLine = /^( *)([A-Za-z_][A-Za-z0-9_.-]*):(?: +(.*?))? *$/
const plainString = /^[^-?:,[\]{}#&*!|>'"%@`.\s](?:(?!: | #).)*$/
const yamlNumber = /^[-+]?(?:[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/

const plainScalar = (text: string): { readonly value: unknown } | undefined => {
  if (/^(?:true|True|TRUE)$/.test(text)) return { value: true }
  if (/^(?:false|False|FALSE)$/.test(text)) return { value: false }
  if (/^(?:null|Null|NULL|~)$/.test(text)) return { value: null }
  if (/^0[xXoO]/.test(text)) return undefined
  if (yamlNumber.test(text)) return { value: Number(text) }
  if (text.endsWith(":") || !plainString.test(text)) return undefined
  return { value: text }
}

/**
 * The mapping of frontmatter made only of `key: plain value` lines and nested block mappings (what
 * GitBook writes for most pages), read as the YAML library reads it but without it (the library
 * costs tenths of a millisecond a page, a second for a thousand pages before it is warm);
 * `undefined` for anything else, which the library then reads. A test holds it to the library.
 */
export const plainYaml = (yaml: string): Record<string, unknown> | undefined => {
  const root: Record<string, unknown> = {}
  const stack: Array<{ indent: number; map: Record<string, unknown> }> = [{ indent: 0, map: root }]
  let pending: { indent: number; map: Record<string, unknown>; key: string } | undefined
  for (const raw of yaml.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw
    if (line.trim() === "") continue
    const match = simpleLine.exec(line)
    if (match === null) return undefined
    const indent = match[1]!.length
    if (pending !== undefined) {
      if (indent > pending.indent) {
        const child: Record<string, unknown> = {}
        pending.map[pending.key] = child
        stack.push({ indent, map: child })
      }
      pending = undefined
    }
    while (stack.length > 1 && indent < stack[stack.length - 1]!.indent) stack.pop()
    const top = stack[stack.length - 1]!
    const key = match[2]!
    if (indent !== top.indent || Object.hasOwn(top.map, key)) return undefined
    const text = match[3] ?? ""
    if (text === "") {
      top.map[key] = null
      pending = { indent, map: top.map, key }
      continue
    }
    const scalar = plainScalar(text)
    if (scalar === undefined) return undefined
    top.map[key] = scalar.value
  }
  return root
}

/** What frontmatter says: a mapping, or why it cannot be read. */
export type FrontmatterData =
  | { readonly ok: true; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly reason: string }

/** The mapping `yaml` holds (empty YAML is an empty mapping); the reason when it is not valid YAML or not a mapping. */
export const readFrontmatter = (yaml: string): FrontmatterData => {
  const plain = plainYaml(yaml)
  if (plain !== undefined) return { ok: true, data: plain }
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
