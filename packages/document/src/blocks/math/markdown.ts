import type { BlockMarkdown } from "../../codec/types.ts"

export const MATH_FENCE = /^ {0,3}\$\$[ \t]*$/

export const mathBlock: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    if (!MATH_FENCE.test(lines[i]!)) return undefined
    let j = i + 1
    while (j < lines.length && !MATH_FENCE.test(lines[j]!)) j++
    if (j >= lines.length) return undefined
    const tex = lines.slice(i + 1, j).join("\n")
    return { node: ctx.schema.nodes.mathBlock!.create({ open: lines[i], close: lines[j], emptyLine: j === i + 2 && tex === "" }, tex ? ctx.schema.text(tex) : null), end: j + 1 }
  },
  serialize: (_ctx, node) => {
    const tex = node.textContent
    const body = tex === "" ? (node.attrs.emptyLine ? [""] : []) : [tex]
    return [(node.attrs.open as string | null) ?? "$$", ...body, (node.attrs.close as string | null) ?? "$$"].join("\n")
  }
}
