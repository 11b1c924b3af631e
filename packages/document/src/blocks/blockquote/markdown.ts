import { isBlank } from "../../codec/lines.ts"
import type { BlockMarkdown } from "../../codec/types.ts"

const QUOTE = /^ {0,3}>( ?)/

export const blockquote: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    const first = QUOTE.exec(lines[i]!)
    if (!first) return undefined
    const inner: Array<string> = []
    let j = i
    while (j < lines.length) {
      const line = lines[j]!
      const m = QUOTE.exec(line)
      if (m) inner.push(line.slice(m[0].length))
      else if (!isBlank(line) && inner.length > 0 && !isBlank(inner[inner.length - 1]!) && !ctx.interrupts(lines, j)) inner.push(line)
      else break
      j++
    }
    const styled = lines.slice(i, j).map((l) => QUOTE.exec(l)).find((m) => m && !/^[ \t]*$/.test(m.input.slice(m[0].length)))
    return { node: ctx.schema.nodes.blockquote!.create({ prefix: styled?.[1] ? "> " : ">" }, ctx.parseBlocks(inner)), end: j }
  },
  serialize: (ctx, node) => {
    const prefix = node.attrs.prefix as string
    return ctx
      .serializeBlocks(node.content)
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => (l === "" ? prefix.trimEnd() : l.startsWith(" ") ? `> ${l}` : prefix + l))
      .join("\n")
  }
}
