import type { Node as PMNode } from "@tiptap/pm/model"
import type { BlockMarkdown, MarkdownContext } from "../../codec/types.ts"

const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/

/** Paragraph lines from `i`: until a blank line or a block that interrupts; a setext underline makes a heading. */
export const parseParagraph = (ctx: MarkdownContext, lines: ReadonlyArray<string>, i: number): { node: PMNode; end: number } => {
  let j = i + 1
  while (j < lines.length && !/^[ \t]*$/.test(lines[j]!)) {
    const setext = SETEXT.exec(lines[j]!)
    if (setext) {
      const text = lines.slice(i, j).join("\n")
      return {
        node: ctx.schema.nodes.heading!.create(
          { level: setext[1]![0] === "=" ? 1 : 2, setext: lines[j] },
          ctx.parseInline(trimInline(text))
        ),
        end: j + 1
      }
    }
    if (ctx.interrupts(lines, j)) break
    j++
  }
  return { node: ctx.schema.nodes.paragraph!.create(null, ctx.parseInline(trimInline(lines.slice(i, j).join("\n")))), end: j }
}

export const trimInline = (text: string): string => text.replace(/^[ \t]+/, "").replace(/[ \t]+$/, "")

export const paragraph: BlockMarkdown = {
  parse: (ctx, lines, i) => parseParagraph(ctx, lines, i),
  serialize: (ctx, node) => ctx.serializeInline(node.content)
}
