/**
 * GitBook's liquid-style tags (`{% hint style="info" %}`, `{% endhint %}`, `{% include "x.md" %}`,
 * `{% @figma/embed url="…" %}`, `{% if visitor.claims.beta %}`): one grammar for the editor and
 * every server package. Pure string code, linear in the text it reads, and it never throws.
 */

/** One parameter as written: `style="info"` is key `style`, value `info`, quote `"`; `"x.md"` has no key. */
export interface TagParam {
  readonly key: string | null
  readonly value: string
  readonly quote: "\"" | "'" | ""
}

/** A parameter with where its value lies (quotes excluded) in the text that was scanned. */
export interface TagParamAt extends TagParam {
  readonly valueStart: number
  readonly valueEnd: number
}

/** A tag found in a text. */
export interface Tag {
  /** The name as written: `hint`, `endhint`, `content-ref`, `@figma/embed`. */
  readonly name: string
  /** For a closing tag (`endhint`), the name it closes (`hint`); else undefined. */
  readonly closes: string | undefined
  /** What follows the name, trimmed (an `if` tag's condition). */
  readonly args: string
  /** The parameters, or undefined when `args` is not a list of them (`{% if a === "b" %}`). */
  readonly params: ReadonlyArray<TagParamAt> | undefined
  /** Offsets of the whole tag, `{%` to `%}`, in the text that was scanned (end exclusive). */
  readonly start: number
  readonly end: number
  /** The tag as written. */
  readonly source: string
}

const SPACE = /\s/
const isLetter = (c: string | undefined): boolean => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"))
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9"
const isWord = (c: string | undefined): boolean => isLetter(c) || isDigit(c) || c === "_"

/** Where a run of characters that `accept` takes, from `at`, ends. */
const runEnd = (text: string, at: number, accept: (c: string | undefined) => boolean): number => {
  while (at < text.length && accept(text[at])) at++
  return at
}

const isNamePart = (c: string | undefined) => isWord(c) || c === "-"
const isScopePart = (c: string | undefined) => isWord(c) || c === "-" || c === "."

/**
 * Where a tag name starting at `at` ends, or -1: a letter then letters, digits, `_` and `-`
 * (`content-ref`), or an integration's `@scope` with an optional `/name` (`@figma/embed`).
 */
const nameEnd = (text: string, at: number): number => {
  if (isLetter(text[at])) return runEnd(text, at + 1, isNamePart)
  if (text[at] !== "@" || !(isLetter(text[at + 1]) || isDigit(text[at + 1]))) return -1
  const scope = runEnd(text, at + 2, isScopePart)
  if (text[scope] !== "/" || !(isLetter(text[scope + 1]) || isDigit(text[scope + 1]))) return scope
  return runEnd(text, scope + 2, isScopePart)
}

/** Where a parameter's key starting at `at` ends, or -1. */
const keyEnd = (text: string, at: number): number => (isLetter(text[at]) || text[at] === "_" ? runEnd(text, at + 1, isNamePart) : -1)

const isUnquoted = (c: string | undefined) => c !== undefined && c !== "\"" && c !== "'" && !SPACE.test(c)
const isUnquotedPositional = (c: string | undefined) => isUnquoted(c) && c !== "="

/** Whether `name` is an integration's block (`@figma/embed`, `@github-files/github-code-block`). */
export const isIntegrationTag = (name: string): boolean => name.startsWith("@")

/** The name a closing tag closes: `endhint` closes `hint`; undefined for an opening tag. */
export const closedName = (name: string): string | undefined => (name.length > 3 && name.startsWith("end") ? name.slice(3) : undefined)

/** The closing tag's name for a block: `hint` is closed by `endhint`. */
export const endName = (name: string): string => `end${name}`

/**
 * The tags GitBook writes as blocks with a closing `end<name>` tag. `embed`, `file`, `openapi` and
 * `openapi-operation` may also stand alone; `include`, `else` and integration tags never close.
 */
export const blockTagNames: ReadonlySet<string> = new Set([
  "hint", "tabs", "tab", "code", "stepper", "step", "columns", "column", "content-ref", "embed", "file",
  "swagger", "swagger-description", "swagger-parameter", "swagger-response", "openapi", "openapi-operation",
  "openapi-schemas", "openapi-webhook", "if", "updates", "update", "prompt"
])

/** Whether the whitespace-trimmed `args` of a tag is a list of parameters; the parameters with offsets from `offset`. */
export const parseParams = (args: string, offset = 0): Array<TagParamAt> | undefined => {
  const params: Array<TagParamAt> = []
  let at = 0
  const n = args.length
  for (;;) {
    while (at < n && SPACE.test(args[at]!)) at++
    if (at >= n) return params
    let key: string | null = null
    const k = keyEnd(args, at)
    if (k >= 0) {
      let eq = k
      while (eq < n && SPACE.test(args[eq]!)) eq++
      if (args[eq] === "=") {
        key = args.slice(at, k)
        at = eq + 1
        while (at < n && SPACE.test(args[at]!)) at++
      }
    }
    const quote = args[at]
    if (quote === "\"" || quote === "'") {
      const close = args.indexOf(quote, at + 1)
      if (close < 0) return undefined
      params.push({ key, value: args.slice(at + 1, close), quote, valueStart: offset + at + 1, valueEnd: offset + close })
      at = close + 1
    } else {
      // `url=a?b=c` is one value; a lone `===` is no parameter.
      const u = runEnd(args, at, key === null ? isUnquotedPositional : isUnquoted)
      if (u === at) return undefined
      params.push({ key, value: args.slice(at, u), quote: "", valueStart: offset + at, valueEnd: offset + u })
      at = u
    }
  }
}

/**
 * The tag whose `{%` is at `start` of `text` and whose `%}` is at `close` (the first one after
 * it), or undefined when no name follows the `{%`.
 */
const tagAt = (text: string, start: number, close: number): Tag | undefined => {
  let at = start + 2
  if (text[at] === "-") at++
  while (at < close && SPACE.test(text[at]!)) at++
  const end = nameEnd(text, at)
  if (end < 0 || end > close) return undefined
  let argsEnd = close
  if (text[argsEnd - 1] === "-" && argsEnd - 1 >= end) argsEnd--
  let argsStart = end
  while (argsStart < argsEnd && SPACE.test(text[argsStart]!)) argsStart++
  while (argsEnd > argsStart && SPACE.test(text[argsEnd - 1]!)) argsEnd--
  const args = text.slice(argsStart, argsEnd)
  const name = text.slice(at, end)
  return {
    name,
    closes: closedName(name),
    args,
    params: parseParams(args, argsStart),
    start,
    end: close + 2,
    source: text.slice(start, close + 2)
  }
}

/**
 * The tags of `text` from `from` on, in order: each `{%` followed by a name, up to the first `%}`
 * after it (a tag may span lines). Time linear in the text's length.
 */
export function* scanTags(text: string, from = 0): Generator<Tag> {
  let close = -1
  let at = text.indexOf("{%", from)
  while (at >= 0) {
    if (close < at + 2) {
      close = text.indexOf("%}", at + 2)
      // No `%}` after this `{%`: none after any later one either.
      if (close < 0) return
    }
    const tag = tagAt(text, at, close)
    if (tag !== undefined) {
      yield tag
      at = text.indexOf("{%", tag.end)
    } else at = text.indexOf("{%", at + 2)
  }
}

/** The tags of `text`, in order (see `scanTags`). */
export const tagsIn = (text: string): Array<Tag> => (text.includes("{%") ? Array.from(scanTags(text)) : [])

/** `text` when it is exactly one tag (no space around it), else undefined. */
export const readTag = (text: string): Tag | undefined => {
  if (!text.startsWith("{%") || !text.endsWith("%}")) return undefined
  const close = text.indexOf("%}", 2)
  return close === text.length - 2 ? tagAt(text, 0, close) : undefined
}

/** The value of the parameter named `key` (the first one), or undefined. */
export const paramValue = (params: ReadonlyArray<TagParam> | undefined, key: string): string | undefined =>
  params?.find((p) => p.key === key)?.value

/** The value of the first parameter without a key (`{% include "x.md" %}`), or undefined. */
export const positionalValue = (params: ReadonlyArray<TagParam> | undefined): string | undefined =>
  params?.find((p) => p.key === null)?.value

const LENIENT = /([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g

/**
 * The named parameters of a tag as a record (a later one of the same name wins). When its
 * arguments are not a parameter list, the `key=value` pairs that can be read in them.
 */
export const tagAttributes = (tag: Pick<Tag, "args" | "params">): Record<string, string> => {
  const out: Record<string, string> = {}
  if (tag.params !== undefined) {
    for (const p of tag.params) if (p.key !== null) out[p.key] = p.value
    return out
  }
  for (const m of tag.args.matchAll(LENIENT)) out[m[1]!] = m[2] ?? m[3] ?? m[4] ?? ""
  return out
}

/** Whether `line` holds a `{%` that is not closed by a `%}` later on it: a tag written over several lines starts here. */
export const opensUnclosedTag = (line: string): boolean => {
  const open = line.lastIndexOf("{%")
  return open >= 0 && line.indexOf("%}", open + 2) < 0
}

/** The name of the tag that `line` opens and does not close (`{% hint` and its parameters on the next lines), or undefined. */
export const unclosedTagName = (line: string): string | undefined => {
  if (!opensUnclosedTag(line)) return undefined
  return readTag(`${line.slice(line.lastIndexOf("{%"))}%}`)?.name
}

/**
 * `text` with the value of each parameter that `replace` answers a string for written anew, in
 * place and with its quote; everything else stays byte for byte.
 */
export const replaceParamValues = (
  text: string,
  replace: (tag: Tag, param: TagParamAt) => string | undefined,
  tags: Iterable<Tag> = scanTags(text)
): string => {
  let out = ""
  let at = 0
  for (const tag of tags) {
    for (const param of tag.params ?? []) {
      const next = replace(tag, param)
      if (next === undefined || next === param.value) continue
      out += text.slice(at, param.valueStart) + next
      at = param.valueEnd
    }
  }
  return at === 0 ? text : out + text.slice(at)
}
