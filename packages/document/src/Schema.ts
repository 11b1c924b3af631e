/**
 * A page's ProseMirror schema: the top node, every block of the registry and the inline nodes and marks, as
 * TipTap extensions without node views. Building it touches no DOM, so the server builds the same schema as
 * the editor.
 */
import { getSchema, Node, type AnyExtension } from "@tiptap/core"
import type { Schema } from "@tiptap/pm/model"
import { blocks, type BlockName } from "./blocks/index.ts"
import { inlineExtensions } from "./blocks/inline/node.ts"

export const Doc = Node.create({ name: "doc", topNode: true, content: "block+" })

/** What the editor makes of one block's extensions: the same nodes with their views, and the block's editing keys. */
export type BlockExtensions = (name: BlockName, extensions: ReadonlyArray<AnyExtension>) => ReadonlyArray<AnyExtension>

/**
 * Every node and mark of a page, in the schema's order; `perBlock` may replace each block's extensions (the
 * editor adds node views and editing keys there), as long as it keeps their nodes.
 */
export const documentExtensions = (perBlock: BlockExtensions = (_name, extensions) => extensions): Array<AnyExtension> => [
  Doc,
  ...(Object.keys(blocks) as Array<BlockName>).flatMap((name) => perBlock(name, blocks[name].extensions)),
  ...inlineExtensions
]

/** The schema of a page: what the codec parses into, and what `Node.fromJSON` needs to read a document's JSON. */
export const createSchema = (): Schema => getSchema(documentExtensions())
