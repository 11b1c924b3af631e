import type { BlockMarkdown } from "../../codec/types.ts"
import { parseHtmlAttrs, renderHtmlAttrs, type HtmlAttr } from "../shared/html.ts"

const FIGURE = /^<figure><img((?:\s+[^\s>/=]+(?:=(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)(\s*\/?>)<figcaption>(.*)<\/figcaption><\/figure>$/

const render = (img: ReadonlyArray<HtmlAttr>, imgEnd: string, caption: string): string =>
  `<figure><img${renderHtmlAttrs(img)}${imgEnd}<figcaption>${caption}</figcaption></figure>`

export const figure: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    const line = lines[i]!
    const m = FIGURE.exec(line)
    if (!m) return undefined
    const img = parseHtmlAttrs(m[1]!)
    if (!img || render(img, m[2]!, m[3]!) !== line) return undefined
    return { node: ctx.schema.nodes.figure!.create({ img, imgEnd: m[2], caption: m[3] }), end: i + 1 }
  },
  serialize: (_ctx, node) => render(node.attrs.img as ReadonlyArray<HtmlAttr>, node.attrs.imgEnd as string, node.attrs.caption as string)
}
