/**
 * How the SQL adapter stores a revision's tree in bounded parts: the pages, depth first, each as
 * `{depth, page}` without its children, and the files, cut into runs of at most `partBytes` of
 * JSON, where the content says (after a node whose id hashes to a chosen residue), so an edit
 * changes the part that holds it and the revisions share the others; the hashes of the parts are
 * cut into part lists the same way, so the revision names a few lists that it shares with its
 * parent; reading puts the tree back together. See "Bounded rows" in docs/content.md.
 */
import { createHash } from "node:crypto"
import type { FileNode, PageNode } from "./domain/Revision.ts"
import { ownFields } from "./domain/RevisionLimits.ts"

export type PartKind = "pages" | "files"

/** One stored part: a JSON array of nodes of one kind, at `position` among that kind's parts, its size and the hash of its body. */
export interface Part {
  readonly kind: PartKind
  readonly position: number
  readonly body: string
  /** UTF-8 bytes of `body`. */
  readonly bytes: number
  readonly hash: string
}

/** The JSON of a page's own fields (`ownFields`); the SQL adapter passes one that remembers it by node, as nodes are immutable. */
export type OwnJson = (page: PageNode) => string

const ownJson: OwnJson = (page) => JSON.stringify(ownFields(page))

/** A run ends after a node whose id hashes to 0 modulo this: about 64 nodes a part. */
const boundaryEvery = 64

/** Whether the FNV-1a hash of `text` is 0 modulo `every`, for content-defined boundaries. */
const fnvBoundary = (text: string, every: number): boolean => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0) % every === 0
}

const endsRun = (id: string): boolean => fnvBoundary(id, boundaryEvery)

/** A page as one part holds it: its depth in the tree (0: top level) and its own fields. */
export interface PageEntry {
  readonly depth: number
  readonly page: Omit<PageNode, "pages">
}

/**
 * The nodes of one kind in stored order: each node (a page or a file) and its depth (0 for files).
 * The nodes are an array with some indices replaced (`replaced`), so that a write that changes a
 * few nodes of a large tree does not copy the tree's array; past `replacedBound` replacements the
 * array is copied with them, about once every thousand one-page writes.
 */
interface Entries {
  readonly count: number
  readonly node: (index: number) => PageNode | FileNode
  readonly depths: ReadonlyArray<number>
  readonly json: (index: number) => string
  readonly base: ReadonlyArray<PageNode | FileNode>
  readonly replaced: ReadonlyMap<number, PageNode | FileNode>
}

/** Replaced nodes an `Entries` carries before its array is copied with them. */
const replacedBound = 1024

/** The node lookup of `base` with `replaced` over it. */
const nodeOf = (base: ReadonlyArray<PageNode | FileNode>, replaced: ReadonlyMap<number, PageNode | FileNode>) =>
  replaced.size === 0 ? (index: number) => base[index]! : (index: number) => replaced.get(index) ?? base[index]!

/** A run made before: its nodes and their depths, how it ended, and its body. */
interface Run {
  readonly nodes: ReadonlyArray<PageNode | FileNode>
  readonly depths: ReadonlyArray<number>
  /** After a boundary node, before a node that would pass the size, or at the end of the nodes. */
  readonly end: "boundary" | "size" | "last"
  /** The bound it was made under. */
  readonly maxBytes: number
  readonly body: string
  readonly bytes: number
  readonly hash: string
}

/**
 * The runs split made, by their first node, so that a tree sharing its parent's nodes serializes
 * and hashes only the runs it changed; a layer keeps one (nodes are immutable, kept by object).
 */
export class RunCache {
  private readonly runs = new WeakMap<PageNode | FileNode, Run>()

  /** The run made before that starts at `start` of `entries`, if the same nodes at the same depths still end it the same way. */
  find(entries: Entries, start: number, maxBytes: number): Run | undefined {
    const run = this.runs.get(entries.node(start))
    if (run === undefined || run.maxBytes !== maxBytes || start + run.nodes.length > entries.count) return undefined
    for (let i = 0; i < run.nodes.length; i++) {
      if (entries.node(start + i) !== run.nodes[i] || entries.depths[start + i] !== run.depths[i]) return undefined
    }
    const next = start + run.nodes.length
    if (run.end === "last") return next === entries.count ? run : undefined
    if (run.end === "size") return next < entries.count && run.bytes + Buffer.byteLength(entries.json(next)) + 2 > maxBytes ? run : undefined
    return run
  }

  add(run: Run): void {
    this.runs.set(run.nodes[0]!, run)
  }
}

const hashOf = (body: string) => createHash("sha256").update(body).digest("base64url")

/**
 * The run of `entries` that starts at `at`: at most `maxBytes` of JSON (a longer entry alone), ending
 * after an entry whose id `endsRun`, or where the next would pass `maxBytes`; taken from the cache
 * when it knows it.
 */
const runAt = (entries: Entries, at: number, maxBytes: number, cache: RunCache | undefined): Run => {
  const known = cache?.find(entries, at, maxBytes)
  if (known !== undefined) return known
  const count = entries.count
  const texts: Array<string> = []
  // The body's bytes: `[`, `]`, and each text with the comma before it but the first's.
  let bytes = 1
  let end: Run["end"] = "last"
  let next = at
  for (; next < count; next++) {
    const json = entries.json(next)
    const size = Buffer.byteLength(json) + 1
    // Cut where the body with this text (`bytes + size`) would reach `maxBytes`, as parts always were.
    if (texts.length > 0 && bytes + 1 + size > maxBytes) {
      end = "size"
      break
    }
    texts.push(json)
    bytes += size
    if (endsRun(entries.node(next).id)) {
      end = "boundary"
      next++
      break
    }
  }
  const body = `[${texts.join(",")}]`
  const nodes = Array.from({ length: next - at }, (_, i) => entries.node(at + i))
  const run: Run = { nodes, depths: entries.depths.slice(at, next), end, maxBytes, body, bytes, hash: hashOf(body) }
  cache?.add(run)
  return run
}

/** The runs of one kind of node in stored order, with the index of each run's first entry. */
interface Layout {
  readonly entries: Entries
  readonly runs: ReadonlyArray<Run>
  readonly starts: ReadonlyArray<number>
}

/**
 * The runs of `entries`, all of them from `runAt`, or, given the layout of a tree of the same shape
 * and the indices whose node changed (`dirty`: the runs that hold them), the old runs that no
 * change touched as they were, and new runs from each touched one until a new run ends where an
 * untouched old one starts.
 */
const layoutOf = (entries: Entries, maxBytes: number, cache: RunCache | undefined, previous?: Layout, changed: ReadonlyArray<number> = []): Layout => {
  const runs: Array<Run> = []
  const starts: Array<number> = []
  const dirty = new Set<number>()
  if (previous !== undefined) {
    for (const index of changed) {
      let low = 0
      let high = previous.starts.length - 1
      while (low < high) {
        const middle = (low + high + 1) >> 1
        if (previous.starts[middle]! <= index) low = middle
        else high = middle - 1
      }
      dirty.add(low)
      // A run cut by size ends where it does because of the size of the entry after it.
      if (previous.starts[low] === index && low > 0 && previous.runs[low - 1]!.end === "size") dirty.add(low - 1)
    }
  }
  const count = entries.count
  let at = 0
  let old = 0
  while (at < count) {
    if (previous !== undefined) {
      while (old < previous.starts.length && previous.starts[old]! < at) old++
      if (previous.starts[old] === at && !dirty.has(old)) {
        const run = previous.runs[old]!
        runs.push(run)
        starts.push(at)
        at += run.nodes.length
        continue
      }
    }
    const run = runAt(entries, at, maxBytes, cache)
    runs.push(run)
    starts.push(at)
    at += run.nodes.length
  }
  return { entries, runs, starts }
}

/** The pages depth first, each with its depth (a stack, not recursion: trees may be deep); an entry's JSON is that of its `PageEntry`. */
const pageEntries = (pages: ReadonlyArray<PageNode>, json: OwnJson): Entries => {
  const nodes: Array<PageNode> = []
  const depths: Array<number> = []
  const stack: Array<{ readonly nodes: ReadonlyArray<PageNode>; next: number }> = [{ nodes: pages, next: 0 }]
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    const page = top.nodes[top.next++]
    if (page === undefined) {
      stack.pop()
      continue
    }
    nodes.push(page)
    depths.push(stack.length - 1)
    if (page.pages.length > 0) stack.push({ nodes: page.pages, next: 0 })
  }
  const replaced = new Map<number, PageNode>()
  return { count: nodes.length, node: nodeOf(nodes, replaced), base: nodes, replaced, depths, json: (index) => `{"depth":${depths[index]!},"page":${json(nodes[index]!)}}` }
}

const fileEntries = (files: ReadonlyArray<FileNode>): Entries => ({
  count: files.length,
  node: (index) => files[index]!,
  base: files,
  replaced: new Map(),
  depths: files.map(() => 0),
  json: (index) => JSON.stringify(files[index]!)
})

const parts = (kind: PartKind, made: ReadonlyArray<Run>): Array<Part> =>
  made.map((run, position) => ({ kind, position, body: run.body, bytes: run.bytes, hash: run.hash }))

/** A list of part hashes ends after a hash that hashes to 0 modulo this: about 32 hashes a list. */
const listBoundaryEvery = 32

/** Hashes of one part list at most, whatever the hashes (about 11 KB of JSON). */
export const partListHashes = 256

/** One stored part list: a run of a revision's part hashes of one kind, in order, as a JSON array, and the hash of that body. */
export interface PartList {
  readonly hashes: ReadonlyArray<string>
  readonly body: string
  readonly hash: string
}

/** The part lists of a revision's page parts and of its file parts, in order. */
export interface PartLists {
  readonly pages: ReadonlyArray<PartList>
  readonly files: ReadonlyArray<PartList>
}

const partList = (hashes: ReadonlyArray<string>): PartList => {
  const body = JSON.stringify(hashes)
  return { hashes, body, hash: hashOf(body) }
}

/**
 * `hashes` cut into part lists where the content says (after a hash that `fnvBoundary` picks, or
 * after `partListHashes`), so a revision that changes one part changes the list that holds it and
 * shares the others with its parent. A list of `previous` that starts with the same hash, holds the
 * same hashes and ends the same way is taken as it was: only the lists around a change are made.
 */
export const partLists = (hashes: ReadonlyArray<string>, previous: ReadonlyArray<PartList> = []): Array<PartList> => {
  const byFirst = new Map(previous.map((list) => [list.hashes[0]!, list]))
  const lists: Array<PartList> = []
  let at = 0
  while (at < hashes.length) {
    const known = byFirst.get(hashes[at]!)
    if (known !== undefined && at + known.hashes.length <= hashes.length && known.hashes.every((hash, i) => hashes[at + i] === hash)) {
      const last = known.hashes[known.hashes.length - 1]!
      if (fnvBoundary(last, listBoundaryEvery) || known.hashes.length === partListHashes || at + known.hashes.length === hashes.length) {
        lists.push(known)
        at += known.hashes.length
        continue
      }
    }
    let end = at
    while (end < hashes.length && end - at < partListHashes) {
      if (fnvBoundary(hashes[end++]!, listBoundaryEvery)) break
    }
    lists.push(partList(hashes.slice(at, end)))
    at = end
  }
  return lists
}

/**
 * How a tree was split (`layoutTree`): its parts and the lists naming them, and what the split of
 * a later tree that shares its nodes starts from.
 */
export interface TreeLayout {
  readonly maxBytes: number
  readonly pages: ReadonlyArray<PageNode>
  readonly files: ReadonlyArray<FileNode>
  readonly parts: ReadonlyArray<Part>
  readonly lists: PartLists
  readonly pageLayout: Layout
  readonly fileLayout: Layout
}

/**
 * The pages of `after`, with their index in depth-first order, that are not the page of `before` at
 * the same place, when both trees have the same ids in the same places (undefined otherwise).
 * `size` counts a subtree's pages; subtrees that are the same object are skipped whole.
 */
const changedPages = (
  before: ReadonlyArray<PageNode>,
  after: ReadonlyArray<PageNode>,
  size: (page: PageNode) => number
): Array<readonly [number, PageNode]> | undefined => {
  const changed: Array<readonly [number, PageNode]> = []
  const walk = (b: ReadonlyArray<PageNode>, a: ReadonlyArray<PageNode>, first: number): boolean => {
    if (b === a) return true
    if (b.length !== a.length) return false
    let index = first
    for (let i = 0; i < a.length; i++) {
      const old = b[i]!
      const page = a[i]!
      if (old !== page) {
        if (old.id !== page.id) return false
        changed.push([index, page])
        if (!walk(old.pages, page.pages, index + 1)) return false
      }
      index += size(old)
    }
    return true
  }
  return walk(before, after, 0) ? changed : undefined
}

/** The pages' layout, from the previous one when the tree kept its shape: the entries are the previous ones with the changed nodes replaced. */
const pagesLayout = (
  pages: ReadonlyArray<PageNode>,
  maxBytes: number,
  json: OwnJson,
  cache: RunCache | undefined,
  previous: { readonly layout: TreeLayout; readonly size: (page: PageNode) => number } | undefined
): Layout => {
  if (previous === undefined) return layoutOf(pageEntries(pages, json), maxBytes, cache)
  const { layout, size } = previous
  if (layout.pages === pages) return layout.pageLayout
  const changed = changedPages(layout.pages, pages, size)
  if (changed === undefined) return layoutOf(pageEntries(pages, json), maxBytes, cache)
  // The same shape: each changed page is at its old index, as deep as before.
  const { depths, base: oldBase, replaced: oldReplaced, count } = layout.pageLayout.entries
  let base = oldBase
  let replaced = new Map(oldReplaced)
  for (const [index, page] of changed) replaced.set(index, page)
  if (replaced.size > replacedBound) {
    const copy = oldBase.slice()
    for (const [index, page] of replaced) copy[index] = page
    base = copy
    replaced = new Map()
  }
  const node = nodeOf(base, replaced)
  const entries: Entries = { count, node, base, replaced, depths, json: (index) => `{"depth":${depths[index]!},"page":${json(node(index) as PageNode)}}` }
  return layoutOf(entries, maxBytes, cache, layout.pageLayout, changed.map(([index]) => index))
}

/** The part lists of `layout`: those of the previous layout `before` when it is the same, else cut again from its lists. */
const listsOf = (layout: Layout, before: Layout | undefined, lists: ReadonlyArray<PartList> | undefined) =>
  layout === before && lists !== undefined ? lists : partLists(layout.runs.map((run) => run.hash), lists)

/**
 * The tree's parts, pages first, each at most `maxBytes` of JSON unless one node alone is larger,
 * with what the split of a later tree starts from. With a `cache`, runs of the same nodes as a tree
 * split before are not made again; with the `previous` layout of a tree this one shares its nodes
 * with, only the runs that hold a changed node are looked at.
 */
export const layoutTree = (
  pages: ReadonlyArray<PageNode>,
  files: ReadonlyArray<FileNode>,
  maxBytes: number,
  json: OwnJson = ownJson,
  cache?: RunCache,
  previous?: { readonly layout: TreeLayout; readonly size: (page: PageNode) => number }
): TreeLayout => {
  const usable = previous?.layout.maxBytes === maxBytes ? previous : undefined
  const pageLayout = pagesLayout(pages, maxBytes, json, cache, usable)
  const fileLayout = usable?.layout.files === files ? usable.layout.fileLayout : layoutOf(fileEntries(files), maxBytes, cache)
  const lists: PartLists = {
    pages: listsOf(pageLayout, usable?.layout.pageLayout, usable?.layout.lists.pages),
    files: listsOf(fileLayout, usable?.layout.fileLayout, usable?.layout.lists.files)
  }
  return { maxBytes, pages, files, parts: [...parts("pages", pageLayout.runs), ...parts("files", fileLayout.runs)], lists, pageLayout, fileLayout }
}

/** The parts of a tree (see `layoutTree`). */
export const split = (
  pages: ReadonlyArray<PageNode>,
  files: ReadonlyArray<FileNode>,
  maxBytes: number,
  json: OwnJson = ownJson,
  cache?: RunCache
): Array<Part> => [...layoutTree(pages, files, maxBytes, json, cache).parts]

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
  parts.some((part) => part.bytes > maxBytes)
    ? `A node of revision ${revisionId} is over ${maxBytes} bytes: its write bypassed the RevisionWriter's limits`
    : undefined
