/**
 * How the SQL adapter stores a revision's tree in bounded parts: the pages, depth first, each as
 * `{depth, page}` without its children, and the files, cut into runs of at most `partBytes` of
 * JSON, where the content says (after a node whose id hashes to a chosen residue), so an edit
 * changes the part that holds it and the revisions share the others; reading puts the tree back
 * together. See "Bounded rows" in docs/content.md.
 */
import { createHash } from "node:crypto"
import type { FileNode, PageNode } from "./domain/Revision.ts"
import { ownFields } from "./domain/RevisionLimits.ts"

export type PartKind = "pages" | "files"

/** One stored part: a JSON array of nodes of one kind, at `position` among that kind's parts, and the hash of its body. */
export interface Part {
  readonly kind: PartKind
  readonly position: number
  readonly body: string
  readonly hash: string
}

/** The JSON of a page's own fields (`ownFields`); the SQL adapter passes one that remembers it by node, as nodes are immutable. */
export type OwnJson = (page: PageNode) => string

const ownJson: OwnJson = (page) => JSON.stringify(ownFields(page))

/** A run ends after a node whose id hashes to 0 modulo this: about 64 nodes a part. */
const boundaryEvery = 64

/** FNV-1a of `id`, for content-defined boundaries. */
const endsRun = (id: string): boolean => {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % boundaryEvery === 0
}

/** A page as one part holds it: its depth in the tree (0: top level) and its own fields. */
export interface PageEntry {
  readonly depth: number
  readonly page: Omit<PageNode, "pages">
}

/**
 * The JSON texts of `entries` in runs of at most `maxBytes` (a longer entry alone in its run),
 * each ending after an entry whose id `endsRun`, or where the next would pass `maxBytes`.
 */
const runs = (entries: Iterable<{ readonly id: string; readonly json: string }>, maxBytes: number): Array<string> => {
  const out: Array<string> = []
  let current: Array<string> = []
  let bytes = 2
  for (const { id, json } of entries) {
    const size = Buffer.byteLength(json) + 1
    if (current.length > 0 && bytes + size > maxBytes) {
      out.push(`[${current.join(",")}]`)
      current = []
      bytes = 2
    }
    current.push(json)
    bytes += size
    if (endsRun(id)) {
      out.push(`[${current.join(",")}]`)
      current = []
      bytes = 2
    }
  }
  if (current.length > 0) out.push(`[${current.join(",")}]`)
  return out
}

/** The pages depth first, each as the JSON of its `PageEntry` (a stack, not recursion: trees may be deep). */
const pageEntries = (pages: ReadonlyArray<PageNode>, json: OwnJson): Array<{ readonly id: string; readonly json: string }> => {
  const out: Array<{ readonly id: string; readonly json: string }> = []
  const stack: Array<{ readonly nodes: ReadonlyArray<PageNode>; next: number }> = [{ nodes: pages, next: 0 }]
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    const page = top.nodes[top.next++]
    if (page === undefined) {
      stack.pop()
      continue
    }
    out.push({ id: page.id, json: `{"depth":${stack.length - 1},"page":${json(page)}}` })
    if (page.pages.length > 0) stack.push({ nodes: page.pages, next: 0 })
  }
  return out
}

const part = (kind: PartKind) => (body: string, position: number): Part => ({ kind, position, body, hash: createHash("sha256").update(body).digest("base64url") })

/** The parts of a tree, pages first, each at most `maxBytes` of JSON unless one node alone is larger. */
export const split = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode>, maxBytes: number, json: OwnJson = ownJson): Array<Part> => [
  ...runs(pageEntries(pages, json), maxBytes).map(part("pages")),
  ...runs(files.map((file) => ({ id: file.id, json: JSON.stringify(file) })), maxBytes).map(part("files"))
]

interface Mutable {
  pages: Array<Mutable>
  readonly [field: string]: unknown
}

/**
 * The page tree of the page entries read back, in order; undefined when an entry's depth skips a
 * level (a corrupt part). The nodes are checked by the caller's schema.
 */
export const assemblePages = (entries: ReadonlyArray<unknown>): Array<unknown> | undefined => {
  const roots: Array<Mutable> = []
  const levels: Array<Array<Mutable>> = [roots]
  for (const entry of entries) {
    const { depth, page } = (entry ?? {}) as { readonly depth?: unknown; readonly page?: unknown }
    if (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0 || depth >= levels.length) return undefined
    if (typeof page !== "object" || page === null) return undefined
    const node: Mutable = { ...page, pages: [] }
    levels[depth]!.push(node)
    levels.length = depth + 1
    levels.push(node.pages)
  }
  return roots
}

/** Why `parts` cannot be stored: one is over `maxBytes`, so it holds one node over the RevisionWriter's `nodeBytes` alone. */
export const oversizedPart = (revisionId: string, parts: ReadonlyArray<Part>, maxBytes: number): string | undefined =>
  parts.some((part) => Buffer.byteLength(part.body) > maxBytes)
    ? `A node of revision ${revisionId} is over ${maxBytes} bytes: its write bypassed the RevisionWriter's limits`
    : undefined
