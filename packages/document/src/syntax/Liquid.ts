/**
 * The editor's view of GitBook's tags: a whole line as one tag, its parameters kept in order and
 * with their quoting so that an edit re-renders them as written; the matching end tag of a block.
 * The grammar itself is `Tags.ts`.
 */
import { readTag, type TagParam } from "./Tags.ts"

export type LiquidParam = TagParam

export interface LiquidTag {
  readonly name: string
  readonly params: ReadonlyArray<LiquidParam>
}

/** Parses a whole line as one liquid tag, or undefined when it is not exactly one tag with a parameter list. */
export const parseLiquidTag = (line: string): LiquidTag | undefined => {
  const tag = readTag(line)
  if (tag === undefined || tag.params === undefined) return undefined
  return { name: tag.name, params: tag.params.map(({ key, value, quote }) => ({ key, value, quote })) }
}

/**
 * The name of the one tag a whole line is, whatever its arguments (`{% if a === "b" %}` too), or
 * undefined: what starts, ends and nests a block, where `parseLiquidTag` also wants a parameter list.
 */
export const liquidLineName = (line: string): string | undefined => readTag(line)?.name

/** One parameter as text: quoted as it was, or double-quoted when it would not read back unquoted. */
export const renderParam = (p: LiquidParam): string => {
  const quote = p.quote === "" && (p.value === "" || /[\s"'%}]/.test(p.value) || (p.key === null && p.value.includes("="))) ? "\"" : p.quote
  const value = quote === "" ? p.value : quote + p.value + quote
  return p.key === null ? value : `${p.key}=${value}`
}

export const renderLiquidTag = (name: string, params: ReadonlyArray<LiquidParam>): string =>
  `{% ${[name, ...params.map(renderParam)].join(" ")} %}`

const sameParams = (a: ReadonlyArray<LiquidParam>, b: ReadonlyArray<LiquidParam>): boolean =>
  a.length === b.length && a.every((p, i) => p.key === b[i]!.key && p.value === b[i]!.value && p.quote === b[i]!.quote)

/** The tag's original line when it still says the same thing, else the canonical rendering. */
export const renderLiquidLine = (name: string, params: ReadonlyArray<LiquidParam>, original: string | null): string => {
  if (original !== null) {
    const parsed = parseLiquidTag(original)
    if (parsed && parsed.name === name && sameParams(parsed.params, params)) return original
  }
  return renderLiquidTag(name, params)
}

export const getParam = (params: ReadonlyArray<LiquidParam>, key: string): string | undefined =>
  params.find((p) => p.key === key)?.value

/** Sets (or adds, double-quoted) one named parameter, keeping the others in place. */
export const setParam = (params: ReadonlyArray<LiquidParam>, key: string, value: string): Array<LiquidParam> =>
  params.some((p) => p.key === key)
    ? params.map((p) => (p.key === key ? { ...p, value } : p))
    : [...params, { key, value, quote: "\"" }]

export const isEndTag = (line: string, name: string): boolean => parseLiquidTag(line)?.name === `end${name}`

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const FENCE_CLOSE = /^ {0,3}[`~]+[ \t]*$/

/**
 * Index of the `{% end<name> %}` line matching the opening at `i`, or -1, skipping fenced code.
 * `stopAtSibling` ends the search at another opening of the same name.
 */
export const findLiquidEnd = (lines: ReadonlyArray<string>, i: number, name: string, stopAtSibling = false): number => {
  let depth = 0
  let fence: string | null = null
  for (let j = i + 1; j < lines.length; j++) {
    const line = lines[j]!
    const f = FENCE.exec(line)
    if (fence !== null) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && FENCE_CLOSE.test(line)) fence = null
      continue
    }
    if (f && !(f[1]![0] === "`" && line.slice(line.indexOf(f[1]!) + f[1]!.length).includes("`"))) {
      fence = f[1]!
      continue
    }
    const trimmed = line.trim()
    if (!trimmed.startsWith("{%")) continue
    const tag = liquidLineName(trimmed)
    if (tag === undefined) continue
    if (tag === name) {
      if (stopAtSibling) return -1
      depth++
    } else if (tag === `end${name}`) {
      if (depth === 0) return j
      depth--
    }
  }
  return -1
}
