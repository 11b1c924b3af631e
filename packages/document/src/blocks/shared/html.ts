/** HTML attributes as written (order and quoting kept), for GitBook's `<figure>`, `<details>` and cards tables. */
export interface HtmlAttr {
  readonly name: string
  readonly value: string | null
  readonly quote: "\"" | "'" | ""
}

export const parseHtmlAttrs = (text: string): Array<HtmlAttr> | undefined => {
  const ATTR = /\s+([A-Za-z_:][\w.:-]*)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y
  const out: Array<HtmlAttr> = []
  let pos = 0
  while (pos < text.length) {
    ATTR.lastIndex = pos
    const m = ATTR.exec(text)
    if (!m) return undefined
    const quote = m[2] !== undefined ? "\"" : m[3] !== undefined ? "'" : ""
    out.push({ name: m[1]!, value: m[2] ?? m[3] ?? m[4] ?? null, quote })
    pos = ATTR.lastIndex
  }
  return out
}

export const renderHtmlAttrs = (attrs: ReadonlyArray<HtmlAttr>): string =>
  attrs.map((a) => (a.value === null ? ` ${a.name}` : ` ${a.name}=${a.quote === "" && /[\s"'=<>`]/.test(a.value) ? "\"" : a.quote}${a.value}${a.quote === "" && /[\s"'=<>`]/.test(a.value) ? "\"" : a.quote}`)).join("")

export const getHtmlAttr = (attrs: ReadonlyArray<HtmlAttr>, name: string): string | null | undefined => attrs.find((a) => a.name === name)?.value

export const setHtmlAttr = (attrs: ReadonlyArray<HtmlAttr>, name: string, value: string): Array<HtmlAttr> =>
  attrs.some((a) => a.name === name) ? attrs.map((a) => (a.name === name ? { ...a, value } : a)) : [...attrs, { name, value, quote: "\"" }]
