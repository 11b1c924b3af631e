/**
 * GitBook's `key` on every block, inline, text and fragment of a JSON document. GitBook's renderer
 * needs them: they key its React lists and give tabs, task items and OpenAPI blocks their DOM ids.
 * A key is the node's place in document order (`K` and a base-36 count), so a page version's
 * document always carries the same keys; a dereferenced include's nodes take the include's key
 * before their own (`K5K0`), so they stay apart from the page's. Keys are upper case and every
 * heading anchor lower case, so none is ever taken for the other. Writing a document ignores them.
 */
import type { Fragment, JsonBlock, JsonDocument, Node } from "./GitbookModel.ts"

type Keyed = Node | Fragment

/** `nodes` with a key on each node at every depth, numbered from 0 after `prefix`. */
export const keyNodes = <N extends Keyed>(nodes: ReadonlyArray<N>, prefix = ""): Array<N> => {
  let next = 0
  const walk = <M extends Keyed>(list: ReadonlyArray<M>): Array<M> =>
    list.map((node) => {
      const key = `${prefix}K${(next++).toString(36)}`
      if (node.object === "text") return { ...node, key }
      if (node.object === "fragment") return { ...node, key, nodes: walk(node.nodes) }
      const keyed: Record<string, unknown> = { ...node, key }
      if (node.nodes !== undefined) keyed["nodes"] = walk(node.nodes as ReadonlyArray<Keyed>)
      if (node.fragments !== undefined) keyed["fragments"] = walk(node.fragments)
      return keyed as M
    })
  return walk(nodes)
}

/** The document with a key on every node. */
export const withKeys = (document: JsonDocument): JsonDocument => ({
  ...document,
  nodes: keyNodes<JsonBlock>(document.nodes)
})

/** A node's key, if it has one. */
export const keyOf = (node: Keyed): string | undefined => {
  const key = (node as { readonly key?: unknown }).key
  return typeof key === "string" ? key : undefined
}
