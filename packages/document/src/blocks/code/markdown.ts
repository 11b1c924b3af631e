import type { Node as PMNode } from "@tiptap/pm/model"
import { findLiquidEnd, parseLiquidTag, renderLiquidLine } from "../../syntax/Liquid.ts"
import { indentOf, stripIndent } from "../../codec/lines.ts"
import type { BlockMarkdown, BlockParse, MarkdownContext } from "../../codec/types.ts"
import { count } from "../shared/attrs.ts"

export const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/

export const openFence = (line: string): RegExpExecArray | null => {
  const m = FENCE_OPEN.exec(line)
  return m && !(m[2]![0] === "`" && m[3]!.includes("`")) ? m : null
}

/** A fenced block at `i`: its lines up to the closing fence (or the end when unclosed). */
export const scanFence = (lines: ReadonlyArray<string>, i: number) => {
  const m = openFence(lines[i]!)
  if (!m) return undefined
  const fence = m[2]!
  const indent = m[1]!.length
  const closeRe = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`)
  let j = i + 1
  while (j < lines.length && !closeRe.test(lines[j]!)) j++
  const closed = j < lines.length
  const body = lines.slice(i + 1, j).map((l) => stripIndent(l, Math.min(indent, indentOf(l))))
  return { fence, indent, info: m[3]!, body, close: closed ? lines[j]! : "", end: closed ? j + 1 : j }
}

const codeNode = (ctx: MarkdownContext, lines: ReadonlyArray<string>, i: number, attrs: Record<string, unknown>): BlockParse | undefined => {
  const f = scanFence(lines, i)
  if (!f) return undefined
  const text = f.body.join("\n")
  const node = ctx.schema.nodes.codeBlock!.create(
    { ...attrs, emptyLine: f.body.length === 1 && f.body[0] === "", language: f.info, fence: f.fence, close: f.close, indent: f.indent },
    text ? ctx.schema.text(text) : null
  )
  return { node, end: f.end }
}

export const codeBlock: BlockMarkdown = {
  parse: (ctx, lines, i) => {
    const line = lines[i]!
    if (line.startsWith("{%")) {
      const tag = parseLiquidTag(line)
      if (tag?.name !== "code") return undefined
      const end = findLiquidEnd(lines, i, "code")
      if (end < 0) return undefined
      const inner = codeNode(ctx, lines, i + 1, { wrapper: tag.params, wrapperTag: line, wrapperEnd: lines[end] })
      if (!inner || inner.end !== end) return undefined
      return { node: inner.node, end: end + 1 }
    }
    return codeNode(ctx, lines, i, {})
  },
  serialize: (_ctx, node: PMNode) => {
    const a = node.attrs
    const indent = " ".repeat(count(a.indent, 0, 3))
    let fence = a.fence as string
    const text = node.textContent
    const body = text === "" ? (a.emptyLine ? [""] : []) : text.split("\n").map((l) => (l === "" ? l : indent + l))
    // A line of the code that would close the fence makes the fence longer.
    for (const l of body) {
      const run = new RegExp(`^ {0,3}(\\${fence[0]}{3,})[ \\t]*$`).exec(l)?.[1]
      if (run && run.length >= fence.length) fence = fence[0]!.repeat(run.length + 1)
    }
    const close = (a.close as string | null) ?? ""
    const closeLine = close.trim().length >= fence.length && close.trim()[0] === fence[0] ? close : indent + fence
    const lines = [indent + fence + (a.language as string), ...body, closeLine]
    const wrapper = a.wrapper as Parameters<typeof renderLiquidLine>[1] | null
    if (wrapper === null) return lines.join("\n")
    return [renderLiquidLine("code", wrapper, a.wrapperTag as string | null), ...lines, (a.wrapperEnd as string | null) ?? "{% endcode %}"].join("\n")
  }
}
