import type { BlockMarkdown } from "../../codec/types.ts"

export const MATH_FENCE = /^ {0,3}\$\$[ \t]*$/

/** `$$tex$$` alone on its line: GitBook's block math when it is a paragraph of its own (its docs give it as the block's markdown). */
const ONE_LINE = /^( {0,3}\$\$)((?:(?!\$\$).)*\S(?:(?!\$\$).)*)(\$\$[ \t]*)$/

const isBlank = (line: string | undefined): boolean => line === undefined || line.trim() === ""

export const mathBlock: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    const one = ONE_LINE.exec(lines[i]!)
    if (one !== null && isBlank(lines[i + 1])) {
      return { node: ctx.schema.nodes.mathBlock!.create({ open: one[1], close: one[3], oneLine: true }, ctx.schema.text(one[2]!)), end: i + 1 }
    }
    if (!MATH_FENCE.test(lines[i]!)) return undefined
    let j = i + 1
    while (j < lines.length && !MATH_FENCE.test(lines[j]!)) j++
    if (j >= lines.length) return undefined
    const tex = lines.slice(i + 1, j).join("\n")
    return { node: ctx.schema.nodes.mathBlock!.create({ open: lines[i], close: lines[j], emptyLine: j === i + 2 && tex === "" }, tex ? ctx.schema.text(tex) : null), end: j + 1 }
  },
  serialize: (_ctx, node) => {
    const tex = node.textContent
    // Written on one line as it was read, while the formula stays one line.
    if (node.attrs.oneLine === true && tex !== "" && !tex.includes("\n") && !tex.includes("$$")) {
      return `${(node.attrs.open as string | null) ?? "$$"}${tex}${(node.attrs.close as string | null) ?? "$$"}`
    }
    const body = tex === "" ? (node.attrs.emptyLine ? [""] : []) : [tex]
    const fence = (line: unknown) => (node.attrs.oneLine === true || typeof line !== "string" ? "$$" : line)
    return [fence(node.attrs.open), ...body, fence(node.attrs.close)].join("\n")
  }
}
