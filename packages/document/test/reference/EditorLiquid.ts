/** The editor's tag reading before it moved here (apps/web/src/editor/markdown/liquid.ts): the oracle of the differential test. */

export interface LiquidParam {
  readonly key: string | null
  readonly value: string
  readonly quote: "\"" | "'" | ""
}

export interface LiquidTag {
  readonly name: string
  readonly params: ReadonlyArray<LiquidParam>
}

const TAG = /^\{%-?\s*([A-Za-z][\w-]*)((?:[^%]|%(?!\}))*?)\s*-?%\}$/
const PARAM = /\s*(?:([A-Za-z_][\w-]*)=)?(?:"([^"]*)"|'([^']*)'|([^\s"'=]+))/y

/** Parses a whole line as one liquid tag, or undefined when it is not exactly one tag. */
export const parseLiquidTag = (line: string): LiquidTag | undefined => {
  const m = TAG.exec(line.trim() === line ? line : "")
  if (!m) return undefined
  const params: Array<LiquidParam> = []
  const rest = m[2] ?? ""
  PARAM.lastIndex = 0
  let pos = 0
  while (pos < rest.length) {
    PARAM.lastIndex = pos
    const p = PARAM.exec(rest)
    if (!p) {
      if (/^\s*$/.test(rest.slice(pos))) break
      return undefined
    }
    const quote = p[2] !== undefined ? "\"" : p[3] !== undefined ? "'" : ""
    params.push({ key: p[1] ?? null, value: p[2] ?? p[3] ?? p[4] ?? "", quote })
    pos = PARAM.lastIndex
  }
  return { name: m[1]!, params }
}

export const renderParam = (p: LiquidParam): string => {
  const quote = p.quote === "" && /[\s"'%}]/.test(p.value) ? "\"" : p.quote
  const value = quote === "" ? p.value : quote + p.value + quote
  return p.key === null ? value : `${p.key}=${value}`
}

export const renderLiquidTag = (name: string, params: ReadonlyArray<LiquidParam>): string =>
  `{% ${[name, ...params.map(renderParam)].join(" ")} %}`

/** The tag's original line when it still says the same thing, else the canonical rendering. */
export const renderLiquidLine = (name: string, params: ReadonlyArray<LiquidParam>, original: string | null): string => {
  if (original !== null) {
    const parsed = parseLiquidTag(original)
    if (parsed && parsed.name === name && sameParams(parsed.params, params)) return original
  }
  return renderLiquidTag(name, params)
}

const sameParams = (a: ReadonlyArray<LiquidParam>, b: ReadonlyArray<LiquidParam>): boolean =>
  a.length === b.length && a.every((p, i) => p.key === b[i]!.key && p.value === b[i]!.value && p.quote === b[i]!.quote)

export const getParam = (params: ReadonlyArray<LiquidParam>, key: string): string | undefined =>
  params.find((p) => p.key === key)?.value

/** Sets (or adds, double-quoted) one named parameter, keeping the others in place. */
export const setParam = (params: ReadonlyArray<LiquidParam>, key: string, value: string): Array<LiquidParam> =>
  params.some((p) => p.key === key)
    ? params.map((p) => (p.key === key ? { ...p, value } : p))
    : [...params, { key, value, quote: "\"" }]

export const isEndTag = (line: string, name: string): boolean => parseLiquidTag(line)?.name === `end${name}`
