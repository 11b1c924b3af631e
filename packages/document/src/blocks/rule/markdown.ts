import type { BlockMarkdown } from "../../codec/types.ts"

export const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/

export const horizontalRule: BlockMarkdown = {
  parse: (ctx, lines, i) =>
    RULE.test(lines[i]!) ? { node: ctx.schema.nodes.horizontalRule!.create({ marker: lines[i]!.trim() }), end: i + 1 } : undefined,
  serialize: (_ctx, node) => node.attrs.marker as string
}
