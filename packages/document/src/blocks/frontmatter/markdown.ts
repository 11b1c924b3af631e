import type { BlockMarkdown } from "../../codec/types.ts"
import { frontmatterCloseLine } from "../../syntax/Fences.ts"

export const frontmatter: BlockMarkdown = {
  parse: (ctx, lines, i, top) => {
    if (!top || i !== 0) return undefined
    const j = frontmatterCloseLine(lines)
    if (j < 0) return undefined
    // YAML with at least one key; `---` lines around nothing else are rules.
    if (!lines.slice(1, j).some((l) => /^[A-Za-z_][\w-]*[ \t]*:/.test(l))) return undefined
    return { node: ctx.schema.nodes.frontmatter!.create({ text: lines.slice(0, j + 1).join("\n") }), end: j + 1 }
  },
  serialize: (_ctx, node) => node.attrs.text as string
}
