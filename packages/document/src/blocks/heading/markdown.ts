import type { BlockMarkdown } from "../../codec/types.ts"
import { trimInline } from "../paragraph/markdown.ts"
import { count } from "../shared/attrs.ts"

const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/
const ANCHOR = /[ \t]*<a href="#([^"]*)" id="([^"]*)"><\/a>$/

export const heading: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    const m = ATX.exec(lines[i]!)
    if (!m) return undefined
    let text = m[2]!
    const closingMatch = /(?:^|[ \t]+)#+[ \t]*$/.exec(text)
    const closing = closingMatch ? closingMatch[0] : ""
    text = trimInline(text.slice(0, text.length - closing.length))
    let anchor: string | null = null
    const a = ANCHOR.exec(text)
    if (a && a[1] === a[2] && a[1] !== "" && a.index > 0) {
      anchor = a[1]!
      text = text.slice(0, a.index)
    }
    return {
      node: ctx.schema.nodes.heading!.create({ level: m[1]!.length, anchor, closing: closing.trim() ? closing : "" }, ctx.parseInline(text)),
      end: i + 1
    }
  },
  serialize: (ctx, node) => {
    const text = ctx.serializeInline(node.content, node.attrs.setext !== null)
    const setext = node.attrs.setext as string | null
    const level = count(node.attrs.level, 1, 6)
    if (setext !== null && level <= 2 && text !== "" && (setext.trim()[0] === "=") === (level === 1)) return `${text}\n${setext}`
    const anchor = node.attrs.anchor as string | null
    const anchorHtml = anchor ? ` <a href="#${anchor}" id="${anchor}"></a>` : ""
    return `${"#".repeat(level)}${text === "" && !anchorHtml ? "" : " "}${text}${anchorHtml}${node.attrs.closing as string}`
  }
}
