/** The editor's ProseMirror schema, built from the block registry's TipTap extensions. No DOM needed. */
import { getSchema, Node, type AnyExtension } from "@tiptap/core"
import type { Schema } from "@tiptap/pm/model"
import { blocks } from "./blocks/index.ts"
import { inlineExtensions } from "./blocks/inline/node.ts"

export const Doc = Node.create({ name: "doc", topNode: true, content: "block+" })

export const editorExtensions = (): Array<AnyExtension> => [Doc, ...Object.values(blocks).flatMap((b) => b.extensions), ...inlineExtensions]

export const createSchema = (): Schema => getSchema(editorExtensions())
