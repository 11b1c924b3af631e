import type { Node as PMNode, Schema } from "@tiptap/pm/model"
import type { BlockMarkdown } from "../../codec/types.ts"

export const rawNode = (schema: Schema, lines: ReadonlyArray<string>): PMNode => schema.nodes.raw!.create({ text: lines.join("\n") })

export const raw: BlockMarkdown = {
  parse: null,
  serialize: (_ctx, node) => node.attrs.text as string
}
