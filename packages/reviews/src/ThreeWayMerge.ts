/**
 * Three-way merge of two revisions of a space (ours: main, theirs: a change request) against their
 * common ancestor. Pure: the markdown of the documents both sides changed is passed in; the answer
 * is a merged tree or the list of conflicts, never a silent loss.
 */
import { diff3Merge } from "node-diff3"
import { documentHash, type FileNode, flattenPages, type PageNode } from "@quire/content"
import type { ConflictHunk, MergeConflict } from "./domain/MergeConflict.ts"

export type { ConflictHunk, ConflictKind, MergeConflict } from "./domain/MergeConflict.ts"

export interface MergeSide {
  readonly pages: ReadonlyArray<PageNode>
  readonly files: ReadonlyArray<FileNode>
}

export interface MergeInput {
  readonly base: MergeSide
  readonly ours: MergeSide
  readonly theirs: MergeSide
  /** Markdown by document hash, for at least the hashes `documentsToRead` names. */
  readonly documents: ReadonlyMap<string, string>
  /** Line merges already made (`mergeTextSteps`, giving the event loop back), by `textMergeKey`. */
  readonly textMerges?: ReadonlyMap<string, TextMerge> | undefined
}

export type MergeResult =
  | {
    readonly kind: "merged"
    readonly pages: ReadonlyArray<PageNode>
    readonly files: ReadonlyArray<FileNode>
    /** Markdown of documents the merge made (line merges), by hash. */
    readonly newDocuments: ReadonlyMap<string, string>
  }
  | { readonly kind: "conflicts"; readonly conflicts: ReadonlyArray<MergeConflict> }

interface Entry {
  readonly page: PageNode
  readonly parentId: string | null
  readonly path: string
}

const rootKey = "\u0000root"

const index = (pages: ReadonlyArray<PageNode>) => {
  const byId = new Map<string, Entry>()
  const children = new Map<string, Array<string>>()
  for (const entry of flattenPages(pages)) {
    byId.set(entry.page.id, entry)
    const key = entry.parentId ?? rootKey
    const list = children.get(key)
    if (list === undefined) children.set(key, [entry.page.id])
    else list.push(entry.page.id)
  }
  return { byId, children }
}

type Index = ReturnType<typeof index>

/** Page fields merged one by one (`pages`, `createdAt`, `updatedAt` and `document` are handled apart). */
const pageFields = [
  "type",
  "title",
  "slug",
  "emoji",
  "icon",
  "description",
  "hidden",
  "layout",
  "cover",
  "variables",
  "target",
  "git"
] as const satisfies ReadonlyArray<keyof PageNode>

const fileFields = ["name", "contentType", "size", "dimensions", "blob", "git"] as const satisfies ReadonlyArray<keyof FileNode>

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b)

const show = (value: unknown): string => (value === undefined ? "null" : JSON.stringify(value))

type FieldMerge<A> = { readonly ok: true; readonly value: A } | { readonly ok: false }

/** The classic three-way rule for one value. */
const mergeValue = <A>(base: A, ours: A, theirs: A): FieldMerge<A> => {
  if (same(ours, theirs)) return { ok: true, value: ours }
  if (same(ours, base)) return { ok: true, value: theirs }
  if (same(theirs, base)) return { ok: true, value: ours }
  return { ok: false }
}

/** True when `side` changed anything of the page (content, metadata or place) since `base`. */
const edited = (base: Entry, side: Entry): boolean =>
  base.parentId !== side.parentId ||
  base.page.document !== side.page.document ||
  pageFields.some((field) => !same(base.page[field], side.page[field]))

const lines = (markdown: string): Array<string> => markdown.split("\n")

/**
 * `lines` with each blank line keyed by the line before it (behind a NUL, which no stored document
 * holds), so that the thousands of identical blank lines of a long stretch do not make the diff's
 * matching quadratic (a 5,000-paragraph page took minutes); `text` turns keys back into lines. Used
 * only past `keyBlankLinesAbove` pairs: a blank line then goes with the edit before it.
 */
const keyedLines = (lines: ReadonlyArray<string>): Array<string> => {
  const out = [...lines]
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] === "") out[i] = `\u0000${i === 0 ? "" : out[i - 1]}`
  }
  return out
}

const text = (keyed: ReadonlyArray<string>): Array<string> => keyed.map((line) => (line.startsWith("\u0000") ? "" : line))

/**
 * The diff's work grows with the pairs of equal lines of the two sides it compares; past this
 * many, a document is not merged line by line but reported as one conflict, so that a page of
 * thousands of repeated lines cannot hold the server for minutes.
 */
export const maxMatchingLines = 250_000

/** Pairs of equal lines past which blank lines are keyed (see `keyedLines`). */
const keyBlankLinesAbove = 100_000

const matchingLines = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const counts = new Map<string, number>()
  for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1)
  let pairs = 0
  for (const line of b) pairs += counts.get(line) ?? 0
  return pairs
}

/** The longest subsequence of `items` whose `key` increases (patience sorting), in order. */
const increasing = <T>(items: ReadonlyArray<T>, key: (item: T) => number): Array<T> => {
  const tails: Array<number> = []
  const previous: Array<number> = []
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i]!)
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (key(items[tails[mid]!]!) < k) lo = mid + 1
      else hi = mid
    }
    previous[i] = lo > 0 ? tails[lo - 1]! : -1
    tails[lo] = i
  }
  const out: Array<T> = []
  for (let i = tails.length === 0 ? -1 : tails[tails.length - 1]!; i !== -1; i = previous[i]!) out.push(items[i]!)
  return out.toReversed()
}

/** Each line's index when it occurs once in `lines`, -1 when it repeats. */
function* uniqueIndex(lines: ReadonlyArray<string>): Generator<void, Map<string, number>> {
  const index = new Map<string, number>()
  for (let i = 0; i < lines.length; i++) {
    index.set(lines[i]!, index.has(lines[i]!) ? -1 : i)
    if (i % linesPerStep === linesPerStep - 1) yield
  }
  return index
}

/**
 * Lines that occur exactly once in each version, in the same order in all three (as patience diff
 * anchors a diff): none of them is edited, so the stretches between them merge independently.
 */
function* anchorSteps(o: ReadonlyArray<string>, a: ReadonlyArray<string>, b: ReadonlyArray<string>): Generator<void, Array<readonly [number, number, number]>> {
  const io = yield* uniqueIndex(o)
  const ia = yield* uniqueIndex(a)
  const ib = yield* uniqueIndex(b)
  const candidates: Array<readonly [number, number, number]> = []
  for (let i = 0; i < o.length; i++) {
    if (io.get(o[i]!) !== i) continue
    const x = ia.get(o[i]!) ?? -1
    const y = ib.get(o[i]!) ?? -1
    if (x >= 0 && y >= 0) candidates.push([i, x, y])
  }
  yield
  const inOrder = increasing(candidates, (c) => c[1])
  yield
  return increasing(inOrder, (c) => c[2])
}

const sameLines = (x: ReadonlyArray<string>, y: ReadonlyArray<string>) => x.length === y.length && x.every((line, i) => line === y[i])

const pushAll = (out: Array<string>, lines: ReadonlyArray<string>) => {
  for (const line of lines) out.push(line.startsWith("\u0000") ? "" : line)
}

/**
 * diff3 of one stretch that changed on both sides, into `out` and `hunks`; false when the stretch
 * has too many equal lines to diff (see `maxMatchingLines`).
 */
const mergeStretch = (o: Array<string>, a: Array<string>, b: Array<string>, out: Array<string>, hunks: Array<ConflictHunk>): boolean => {
  if (matchingLines(o, a) > keyBlankLinesAbove || matchingLines(o, b) > keyBlankLinesAbove) {
    ;[o, a, b] = [keyedLines(o), keyedLines(a), keyedLines(b)]
  }
  if (matchingLines(o, a) > maxMatchingLines || matchingLines(o, b) > maxMatchingLines) return false
  for (const region of diff3Merge(a, o, b, { excludeFalseConflicts: true })) {
    if (region.ok !== undefined) pushAll(out, region.ok)
    else if (region.conflict !== undefined) {
      hunks.push({ base: text(region.conflict.o).join("\n"), ours: text(region.conflict.a).join("\n"), theirs: text(region.conflict.b).join("\n") })
    }
  }
  return true
}

/** A line merge of one document: the merged markdown, or the overlapping hunks. */
export type TextMerge = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly hunks: ReadonlyArray<ConflictHunk> }

/** Lines of a long page handled between two of `mergeTextSteps`'s pauses. */
const linesPerStep = 20_000

/**
 * `mergeText` as steps: the generator pauses (yields) between passes over the lines and every
 * `linesPerStep` lines, so that a caller can give the event loop back during a long page's merge.
 */
export function* mergeTextSteps(base: string, ours: string, theirs: string): Generator<void, TextMerge> {
  const [o, a, b] = [lines(base), lines(ours), lines(theirs)]
  yield
  const found = yield* anchorSteps(o, a, b)
  const out: Array<string> = []
  const hunks: Array<ConflictHunk> = []
  let [po, pa, pb] = [0, 0, 0]
  let sinceStep = 0
  for (const [no, na, nb] of [...found, [o.length, a.length, b.length] as const]) {
    const [so, sa, sb] = [o.slice(po, no), a.slice(pa, na), b.slice(pb, nb)]
    if (sameLines(sa, so)) pushAll(out, sb)
    else if (sameLines(sb, so) || sameLines(sa, sb)) pushAll(out, sa)
    else if (!mergeStretch(so, sa, sb, out, hunks)) return { ok: false, hunks: [{ base, ours, theirs }] }
    if (no < o.length) out.push(o[no]!)
    sinceStep += no - po + 1
    if (sinceStep >= linesPerStep) {
      sinceStep = 0
      yield
    }
    ;[po, pa, pb] = [no + 1, na + 1, nb + 1]
  }
  return hunks.length === 0 ? { ok: true, text: out.join("\n") } : { ok: false, hunks }
}

/**
 * Line-based diff3 of one document: the merged markdown, or the overlapping hunks. diff3 of a whole
 * long page took seconds: the page is cut at its anchors, and only the stretches between them that
 * changed on both sides go through diff3.
 */
export const mergeText = (base: string, ours: string, theirs: string): TextMerge => {
  const steps = mergeTextSteps(base, ours, theirs)
  for (;;) {
    const step = steps.next()
    if (step.done === true) return step.value
  }
}

/** The key of a line merge among `MergeInput.textMerges`: the three documents' hashes. */
export const textMergeKey = (base: string, ours: string, theirs: string): string => `${base} ${ours} ${theirs}`

/** The documents of each page whose document changed on both sides, differently: base, ours, theirs. */
export const documentTriples = (base: MergeSide, ours: MergeSide, theirs: MergeSide): ReadonlyArray<readonly [string, string, string]> => {
  const b = new Map(flattenPages(base.pages).map((e) => [e.page.id, e.page.document]))
  const t = new Map(flattenPages(theirs.pages).map((e) => [e.page.id, e.page.document]))
  const triples: Array<readonly [string, string, string]> = []
  for (const { page } of flattenPages(ours.pages)) {
    const baseDoc = b.get(page.id)
    const theirDoc = t.get(page.id)
    if (baseDoc === undefined || theirDoc === undefined || page.document === undefined) continue
    if (page.document !== baseDoc && theirDoc !== baseDoc && page.document !== theirDoc) triples.push([baseDoc, page.document, theirDoc])
  }
  return triples
}

/** The documents a merge of these sides reads: those of pages whose document changed on both sides, differently. */
export const documentsToRead = (base: MergeSide, ours: MergeSide, theirs: MergeSide): ReadonlyArray<string> =>
  Array.from(new Set(documentTriples(base, ours, theirs).flat()))

/**
 * The merged order of a parent's children: the order of the side that reordered its common
 * pages (ours when both or neither did), restricted to `members`, with the pages only the other
 * ordering knows placed before their successor there (at the end when they have none).
 */
const mergeOrder = (
  base: ReadonlyArray<string>,
  ours: ReadonlyArray<string>,
  theirs: ReadonlyArray<string>,
  members: ReadonlySet<string>
): Array<string> => {
  const reordered = (side: ReadonlyArray<string>) => {
    const inSide = new Set(side)
    const inBase = new Set(base)
    return !same(base.filter((id) => inSide.has(id)), side.filter((id) => inBase.has(id)))
  }
  const [primary, secondary] = reordered(theirs) && !reordered(ours) ? [theirs, ours] : [ours, theirs]
  const result = primary.filter((id) => members.has(id))
  const placed = new Set(result)
  const place = (sequence: ReadonlyArray<string>) => {
    for (const [i, id] of sequence.entries()) {
      if (!members.has(id) || placed.has(id)) continue
      // Before the next page of its ordering that is placed; at the end when none is.
      let at = result.length
      for (let j = i + 1; j < sequence.length; j++) {
        const k = result.indexOf(sequence[j]!)
        if (k >= 0) {
          at = k
          break
        }
      }
      result.splice(at, 0, id)
      placed.add(id)
    }
  }
  place(secondary)
  place(base)
  // Pages moved here from elsewhere that no ordering of this parent lists (cannot happen, but never lose one).
  for (const id of members) if (!placed.has(id)) result.push(id)
  return result
}

const pathOf = (id: string, ...indexes: ReadonlyArray<Index>): string => {
  for (const i of indexes) {
    const entry = i.byId.get(id)
    if (entry !== undefined) return entry.path
  }
  return id
}

/** Merges ours and theirs against base: the merged content, or every conflict. */
export const threeWayMerge = (input: MergeInput): MergeResult => {
  const base = index(input.base.pages)
  const ours = index(input.ours.pages)
  const theirs = index(input.theirs.pages)
  const conflicts: Array<MergeConflict> = []
  const newDocuments = new Map<string, string>()
  const where = (id: string) => ({ pageId: id, path: pathOf(id, theirs, ours, base) })

  /** Merged page fields (without children) and parent of every surviving page. */
  const merged = new Map<string, { page: PageNode; parentId: string | null }>()
  const ids = new Set([...ours.byId.keys(), ...theirs.byId.keys()])
  const deleted = new Set<string>()
  for (const id of base.byId.keys()) if (!ids.has(id)) deleted.add(id)

  for (const id of ids) {
    const b = base.byId.get(id)
    const o = ours.byId.get(id)
    const t = theirs.byId.get(id)
    if (b === undefined) {
      // New on one side (ids are fresh, so never on both, unless both copied the same page: merge them field by field against nothing).
      if (o !== undefined && t !== undefined && !same({ ...o.page, pages: [] }, { ...t.page, pages: [] })) {
        conflicts.push({ ...where(id), kind: "structure", field: "id" })
        continue
      }
      const side = (o ?? t)!
      merged.set(id, { page: { ...side.page, pages: [] }, parentId: o !== undefined && t !== undefined ? o.parentId : side.parentId })
      continue
    }
    if (o === undefined || t === undefined) {
      const kept = (o ?? t)!
      if (edited(b, kept)) {
        conflicts.push({
          ...where(id),
          kind: "delete-edit",
          ours: o === undefined ? "null" : "edited",
          theirs: t === undefined ? "null" : "edited"
        })
      }
      deleted.add(id)
      continue
    }
    const page: Record<string, unknown> = { ...o.page, pages: [] }
    let clean = true
    for (const field of pageFields) {
      const r = mergeValue(b.page[field], o.page[field], t.page[field])
      if (r.ok) {
        if (r.value === undefined) delete page[field]
        else page[field] = r.value
      } else {
        clean = false
        conflicts.push({ ...where(id), kind: "metadata", field, ours: show(o.page[field]), theirs: show(t.page[field]) })
      }
    }
    const parent = mergeValue(b.parentId, o.parentId, t.parentId)
    if (!parent.ok) {
      clean = false
      conflicts.push({ ...where(id), kind: "structure", field: "parent", ours: show(o.parentId), theirs: show(t.parentId) })
    }
    const document = mergeValue(b.page.document, o.page.document, t.page.document)
    if (document.ok) {
      if (document.value === undefined) delete page.document
      else page.document = document.value
    } else if (b.page.document !== undefined && o.page.document !== undefined && t.page.document !== undefined) {
      const text = (hash: string) => input.documents.get(hash)
      const [bt, ot, tt] = [text(b.page.document), text(o.page.document), text(t.page.document)]
      if (bt === undefined || ot === undefined || tt === undefined) {
        throw new Error(`threeWayMerge: the markdown of page ${id}'s documents was not given`)
      }
      const r = input.textMerges?.get(textMergeKey(b.page.document, o.page.document, t.page.document)) ?? mergeText(bt, ot, tt)
      if (r.ok) {
        const hash = documentHash(r.text)
        newDocuments.set(hash, r.text)
        page.document = hash
      } else {
        clean = false
        conflicts.push({ ...where(id), kind: "content", field: "document", hunks: r.hunks })
      }
    } else {
      clean = false
      conflicts.push({ ...where(id), kind: "content", field: "document", ours: show(o.page.document), theirs: show(t.page.document) })
    }
    page.updatedAt = o.page.updatedAt > t.page.updatedAt ? o.page.updatedAt : t.page.updatedAt
    if (clean && parent.ok) merged.set(id, { page: page as unknown as PageNode, parentId: parent.value })
    else merged.set(id, { page: page as unknown as PageNode, parentId: o.parentId })
  }

  // A surviving page under a deleted one: the delete would take it along.
  for (const [id, { parentId }] of merged) {
    if (parentId !== null && deleted.has(parentId)) {
      conflicts.push({ ...where(parentId), kind: "delete-edit", field: "pages", theirs: id, ours: "null" })
    }
  }
  // Moves that, together, make a page its own ancestor.
  for (const id of merged.keys()) {
    const seen = new Set<string>([id])
    let up = merged.get(id)?.parentId ?? null
    while (up !== null) {
      if (seen.has(up)) {
        if (up === id) conflicts.push({ ...where(id), kind: "structure", field: "parent" })
        break
      }
      seen.add(up)
      up = merged.get(up)?.parentId ?? null
    }
  }

  const files = mergeFiles(input.base.files, input.ours.files, input.theirs.files, conflicts)
  if (conflicts.length > 0) return { kind: "conflicts", conflicts: dedupe(conflicts) }

  // The tree, parent by parent.
  const membersOf = new Map<string, Set<string>>()
  for (const [id, { parentId }] of merged) {
    const key = parentId ?? rootKey
    const set = membersOf.get(key)
    if (set === undefined) membersOf.set(key, new Set([id]))
    else set.add(id)
  }
  const build = (key: string): ReadonlyArray<PageNode> => {
    const members = membersOf.get(key)
    if (members === undefined) return []
    const order = mergeOrder(base.children.get(key) ?? [], ours.children.get(key) ?? [], theirs.children.get(key) ?? [], members)
    const slugs = new Map<string, string>()
    return order.map((id) => {
      const node = merged.get(id)!.page
      const other = slugs.get(node.slug)
      if (other !== undefined) conflicts.push({ ...where(id), kind: "structure", field: "slug", ours: other, theirs: id })
      slugs.set(node.slug, id)
      return { ...node, pages: build(id) }
    })
  }
  const pages = build(rootKey)
  if (conflicts.length > 0) return { kind: "conflicts", conflicts: dedupe(conflicts) }
  return { kind: "merged", pages, files, newDocuments }
}

const dedupe = (conflicts: ReadonlyArray<MergeConflict>): ReadonlyArray<MergeConflict> => {
  const seen = new Set<string>()
  return conflicts.filter((c) => {
    const key = JSON.stringify([c.pageId, c.fileId, c.kind, c.field, c.theirs])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

const mergeFiles = (
  base: ReadonlyArray<FileNode>,
  ours: ReadonlyArray<FileNode>,
  theirs: ReadonlyArray<FileNode>,
  conflicts: Array<MergeConflict>
): ReadonlyArray<FileNode> => {
  const b = new Map(base.map((f) => [f.id, f]))
  const o = new Map(ours.map((f) => [f.id, f]))
  const t = new Map(theirs.map((f) => [f.id, f]))
  const result = new Map<string, FileNode>()
  for (const id of new Set([...o.keys(), ...t.keys()])) {
    const bf = b.get(id)
    const of = o.get(id)
    const tf = t.get(id)
    if (bf === undefined) {
      result.set(id, (of ?? tf)!)
      continue
    }
    if (of === undefined || tf === undefined) {
      const kept = (of ?? tf)!
      if (!same(kept, bf)) {
        conflicts.push({
          fileId: id,
          path: kept.name,
          kind: "delete-edit",
          ours: of === undefined ? "null" : "edited",
          theirs: tf === undefined ? "null" : "edited"
        })
      }
      continue
    }
    const file: Record<string, unknown> = { ...of }
    for (const field of fileFields) {
      const r = mergeValue(bf[field], of[field], tf[field])
      if (!r.ok) conflicts.push({ fileId: id, path: tf.name, kind: "metadata", field, ours: show(of[field]), theirs: show(tf[field]) })
      else if (r.value === undefined) delete file[field]
      else file[field] = r.value
    }
    result.set(id, file as unknown as FileNode)
  }
  const order = mergeOrder(base.map((f) => f.id), ours.map((f) => f.id), theirs.map((f) => f.id), new Set(result.keys()))
  return order.map((id) => result.get(id)!)
}
