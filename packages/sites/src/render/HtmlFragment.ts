/**
 * Raw HTML written in a page's markdown (`<details>`, `<figure>`, `<mark>`...) read as tokens, which
 * the block tree's drawing (TreeHtml.ts) joins into elements around what lies between them. It
 * builds structure only; what may stay is decided by the sanitizer.
 */

export type Token =
  | { readonly kind: "open"; readonly name: string; readonly attributes: ReadonlyArray<readonly [string, string]>; readonly selfClosing: boolean }
  | { readonly kind: "close"; readonly name: string }
  | { readonly kind: "text"; readonly value: string }

export const voidElements = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"
])
// Their content is text up to the closing tag; the sanitizer strips most of them whole.
const rawTextElements = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"])

const named: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0", copy: "©", reg: "®", trade: "™",
  hellip: "…", mdash: "—", ndash: "–", rarr: "→", larr: "←", laquo: "«", raquo: "»", middot: "·", times: "×"
}

/** Decodes character references (named ones of common use, and every numeric one). */
export const decodeEntities = (text: string): string =>
  text.includes("&")
    ? text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g, (match, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return named[name] ?? match
      const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16)
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\ufffd"
    })
    : text

/** The tokens of an HTML fragment; malformed markup reads as text. */
export const tokenize = (html: string): ReadonlyArray<Token> => {
  // Sticky expressions of this call's own: their `lastIndex` is where each match starts.
  const tagOpen = /<([a-zA-Z][a-zA-Z0-9-]*)/y
  const attribute = /\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/y
  const tagClose = /<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/y
  const tokens: Array<Token> = []
  let text = ""
  let i = 0
  const flush = () => {
    if (text !== "") tokens.push({ kind: "text", value: decodeEntities(text) })
    text = ""
  }
  while (i < html.length) {
    const lt = html.indexOf("<", i)
    if (lt === -1) {
      text += html.slice(i)
      break
    }
    text += html.slice(i, lt)
    i = lt
    if (html.startsWith("<!--", i)) {
      const end = html.indexOf("-->", i + 4)
      flush()
      i = end === -1 ? html.length : end + 3
      continue
    }
    if (html.startsWith("<!", i) || html.startsWith("<?", i)) {
      const end = html.indexOf(">", i)
      flush()
      i = end === -1 ? html.length : end + 1
      continue
    }
    tagClose.lastIndex = i
    const close = tagClose.exec(html)
    if (close !== null) {
      flush()
      tokens.push({ kind: "close", name: close[1]!.toLowerCase() })
      i = tagClose.lastIndex
      continue
    }
    tagOpen.lastIndex = i
    const open = tagOpen.exec(html)
    if (open === null) {
      text += "<"
      i++
      continue
    }
    let j = tagOpen.lastIndex
    const attributes: Array<readonly [string, string]> = []
    for (;;) {
      attribute.lastIndex = j
      const found = attribute.exec(html)
      if (found === null) break
      attributes.push([found[1]!.toLowerCase(), decodeEntities(found[2] ?? found[3] ?? found[4] ?? "")])
      j = attribute.lastIndex
    }
    const end = /\s*(\/?)>/y
    end.lastIndex = j
    const ending = end.exec(html)
    if (ending === null) {
      text += "<"
      i++
      continue
    }
    flush()
    const name = open[1]!.toLowerCase()
    tokens.push({ kind: "open", name, attributes, selfClosing: ending[1] === "/" })
    i = end.lastIndex
    if (rawTextElements.has(name)) {
      const closing = html.toLowerCase().indexOf(`</${name}`, i)
      const stop = closing === -1 ? html.length : closing
      if (stop > i) tokens.push({ kind: "text", value: html.slice(i, stop) })
      i = stop
    }
  }
  flush()
  return tokens
}

// Ids, names, classes and styles are the renderer's own (anchors, tabs, highlighting); an author's
// would clobber them or dress up as the site's interface. Handlers and unknown attributes go too.
const dropped = new Set(["id", "name", "class", "style", "tabindex", "form", "formaction", "srcdoc"])
const renamed: Record<string, string> = {
  for: "htmlFor", colspan: "colSpan", rowspan: "rowSpan", srcset: "srcSet", datetime: "dateTime",
  hreflang: "hrefLang", longdesc: "longDesc", readonly: "readOnly", maxlength: "maxLength"
}

export const propertiesOf = (attributes: ReadonlyArray<readonly [string, string]>): Record<string, string | boolean> => {
  const properties: Record<string, string | boolean> = {}
  for (const [name, value] of attributes) {
    if (dropped.has(name) || name.startsWith("on") || name.startsWith("data-")) continue
    const key = renamed[name] ?? (name.startsWith("aria-")
      ? `aria${name.slice(5).replace(/(?:^|-)([a-z])/g, (_, c: string) => c.toUpperCase())}`
      : name)
    properties[key] = ["open", "checked", "disabled", "hidden", "reversed"].includes(name) ? true : value
  }
  return properties
}

const hintLabels: Record<string, string> = { info: "Info", success: "Success", warning: "Warning", danger: "Danger" }

/**
 * GitBook writes blocks inside HTML (a table cell, a list item) as HTML: a hint is
 * `<div data-gb-custom-block data-tag="hint" data-style="info">`, cards are `<table data-view="cards">`.
 * They get the classes the renderer gives its own blocks. Buttons and icons (`icon`: the name of the
 * Font Awesome icon the renderer draws) are read from the classes GitBook writes.
 */
export const gitbookProperties = (token: Extract<Token, { kind: "open" }>): Record<string, string | Array<string>> => {
  const data = (name: string) => token.attributes.find(([key]) => key === name)?.[1]
  if (token.name === "div" && data("data-tag") === "hint") {
    const style = Object.hasOwn(hintLabels, data("data-style") ?? "") ? data("data-style")! : "info"
    return { className: ["hint", `hint-${style}`], role: "note", ariaLabel: hintLabels[style]! }
  }
  if (token.name === "table" && data("data-view") === "cards") return { className: ["cards"] }
  const classes = (data("class") ?? "").split(/\s+/).filter((c) => c !== "")
  // `<a class="button primary" data-icon="github">`: GitBook's buttons, with an optional icon.
  if ((token.name === "a" || token.name === "button") && classes.includes("button")) {
    const kind = classes.includes("secondary") ? "secondary" : "primary"
    const icon = data("data-icon")
    return { className: ["button", `button-${kind}`], ...(icon === undefined ? {} : { icon }) }
  }
  // `<i class="fa-rocket">:rocket:</i>`: a Font Awesome icon, its text the name GitBook writes for editors.
  if (token.name === "i") {
    const icon = classes.filter((c) => c.startsWith("fa-") && !faModifiers.has(c)).at(-1)
    if (icon !== undefined) return { icon: icon.slice(3) }
  }
  return {}
}

// Font Awesome classes that choose a style or a size, not an icon.
const faModifiers = new Set([
  "fa-solid", "fa-regular", "fa-brands", "fa-light", "fa-thin", "fa-duotone", "fa-sharp", "fa-fw", "fa-lg", "fa-xs", "fa-sm",
  "fa-xl", "fa-2x", "fa-3x", "fa-4x", "fa-5x", "fa-spin", "fa-pulse", "fa-border"
])

