/**
 * GitBook's `dereferenced=reusable-contents`: a document whose include blocks (`reusable-content`,
 * `{% include %}`) are replaced by the blocks of the reusable content they name, at any depth.
 * An include of another space's reusable content, or of one the revision does not hold, stays.
 */
import { Effect } from "effect"
import { keyNodes, keyOf } from "./DocumentKeys.ts"
import type { JsonBlock, JsonDocument, Node } from "./GitbookModel.ts"

/** A reusable content's document by id, undefined when the revision holds none with that id. */
export type ReusableDocuments = (reusableContentId: string) => Effect.Effect<JsonDocument | undefined>

/** Includes nest; a cycle is cut after this many levels. */
const maxDepth = 8

const includedId = (block: JsonBlock): string | undefined => {
  if (block.type !== "reusable-content") return undefined
  const ref = block.data?.["ref"]
  if (typeof ref !== "object" || ref === null) return undefined
  const { reusableContent, space } = ref as { readonly reusableContent?: unknown; readonly space?: unknown }
  return typeof reusableContent === "string" && space === undefined ? reusableContent : undefined
}

const isBlock = (node: Node): node is JsonBlock => node.object === "block"

const blocks = (nodes: ReadonlyArray<JsonBlock>, read: ReusableDocuments, depth: number): Effect.Effect<Array<JsonBlock>> =>
  Effect.map(Effect.forEach(nodes, (block) => expand(block, read, depth)), (parts) => parts.flat())

const expand = (block: JsonBlock, read: ReusableDocuments, depth: number): Effect.Effect<ReadonlyArray<JsonBlock>> =>
  Effect.gen(function*() {
    const id = includedId(block)
    if (id !== undefined && depth < maxDepth) {
      const included = yield* read(id)
      // The included blocks take the include's key before their own, so no key of the page repeats.
      if (included !== undefined) return yield* blocks(keyNodes(included.nodes, keyOf(block) ?? ""), read, depth + 1)
      return [block]
    }
    if (block.nodes === undefined || !block.nodes.some(isBlock)) return [block]
    const children: Array<Node> = []
    for (const child of block.nodes) {
      if (isBlock(child)) children.push(...(yield* expand(child, read, depth)))
      else children.push(child)
    }
    return [{ ...block, nodes: children }]
  })

/** The document with its includes replaced by the reusable contents' blocks. */
export const dereferenceReusableContents = (document: JsonDocument, read: ReusableDocuments): Effect.Effect<JsonDocument> =>
  Effect.map(blocks(document.nodes, read, 0), (nodes) => ({ ...document, nodes }))
