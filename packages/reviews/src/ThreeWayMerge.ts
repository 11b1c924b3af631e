/**
 * Three-way merge of two revisions of a space (ours: main, theirs: a change request) against their
 * common ancestor. Pure: the markdown of the documents both sides changed is passed in; the answer
 * is a merged tree or the list of conflicts, never a silent loss. Given resolutions (by
 * `conflictKey`), the same merge takes the chosen side or markdown where it would have conflicted.
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
  /** How to settle the conflicts this merge meets, by `conflictKey`; a conflict without one is reported. */
  readonly resolutions?: ReadonlyMap<string, Resolution> | undefined
}

/** The side of a merge: main (`ours`) or the change request (`theirs`). */
export type Side = "ours" | "theirs"

/** A person's answer to one conflict: one side's value, or (content conflicts) the markdown of the hunk's lines. */
export type Resolution = { readonly side: Side } | { readonly markdown: string }

/** A conflict as the merge finds it, before it is numbered. */
type Found = Omit<MergeConflict, "id">

/**
 * What identifies a conflict between two runs of the same merge (its page or file, kind, field, hunk
 * and, for a page put under a deleted one, that page): resolutions are keyed by it.
 */
export const conflictKey = (c: Found): string =>
  JSON.stringify([
    c.kind,
    c.pageId ?? null,
    c.fileId ?? null,
    c.field ?? null,
    c.hunk ?? null,
    c.kind === "delete-edit" && c.field === "pages" ? (c.ours === "null" ? c.theirs : c.ours) ?? null : null
  ])

/** False for the conflicts that only a change of the change request settles: two sibling pages given one slug. */
export const resolvable = (c: Found): boolean => !(c.kind === "structure" && c.field === "slug")

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

/** A line of a line merge's result, or one of its overlapping hunks (both sides' lines). */
export type TextPart = string | { readonly hunk: number; readonly ours: ReadonlyArray<string>; readonly theirs: ReadonlyArray<string> }

const pushAll = (out: Array<TextPart>, lines: ReadonlyArray<string>) => {
  for (const line of lines) out.push(line.startsWith("\u0000") ? "" : line)
}

/**
 * diff3 of one stretch that changed on both sides, into `out` and `hunks`; false when the stretch
 * has too many equal lines to diff (see `maxMatchingLines`).
 */
const mergeStretch = (o: Array<string>, a: Array<string>, b: Array<string>, out: Array<TextPart>, hunks: Array<ConflictHunk>): boolean => {
  if (matchingLines(o, a) > keyBlankLinesAbove || matchingLines(o, b) > keyBlankLinesAbove) {
    ;[o, a, b] = [keyedLines(o), keyedLines(a), keyedLines(b)]
  }
  if (matchingLines(o, a) > maxMatchingLines || matchingLines(o, b) > maxMatchingLines) return false
  for (const region of diff3Merge(a, o, b, { excludeFalseConflicts: true })) {
    if (region.ok !== undefined) pushAll(out, region.ok)
    else if (region.conflict !== undefined) {
      const [ours, theirs] = [text(region.conflict.a), text(region.conflict.b)]
      out.push({ hunk: hunks.length, ours, theirs })
      hunks.push({ base: text(region.conflict.o).join("\n"), ours: ours.join("\n"), theirs: theirs.join("\n") })
    }
  }
  return true
}

/**
 * A line merge of one document: the merged markdown, or the overlapping hunks, with the merged lines
 * around them (`parts`) so that resolving the hunks needs no second merge.
 */
export type TextMerge =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly hunks: ReadonlyArray<ConflictHunk>; readonly parts: ReadonlyArray<TextPart> }

/** Merged lines shown either side of a hunk. */
const contextLines = 2

/** The merged lines just before and after each hunk of a conflicted line merge (stopping at another hunk), by hunk. */
export const hunkContexts = (parts: ReadonlyArray<TextPart>): Map<number, { readonly before: ReadonlyArray<string>; readonly after: ReadonlyArray<string> }> => {
  const contexts = new Map<number, { readonly before: ReadonlyArray<string>; readonly after: ReadonlyArray<string> }>()
  for (const [k, part] of parts.entries()) {
    if (typeof part === "string") continue
    const before: Array<string> = []
    for (let j = k - 1; j >= 0 && before.length < contextLines; j--) {
      const line = parts[j]!
      if (typeof line !== "string") break
      before.unshift(line)
    }
    const after: Array<string> = []
    for (let j = k + 1; j < parts.length && after.length < contextLines; j++) {
      const line = parts[j]!
      if (typeof line !== "string") break
      after.push(line)
    }
    contexts.set(part.hunk, { before, after })
  }
  return contexts
}

/**
 * The lines of the markdown that replaces a hunk: none for "", a final line break is not a line of
 * its own, and Windows line breaks become the page's.
 */
export const resolutionLines = (markdown: string): ReadonlyArray<string> => {
  const text = markdown.replace(/\r\n?/g, "\n")
  return text === "" || text === "\n" ? [] : text.replace(/\n$/, "").split("\n")
}

/** A conflicted line merge with each hunk replaced by `choose(hunk)`'s lines. */
export const resolveText = (parts: ReadonlyArray<TextPart>, choose: (part: Exclude<TextPart, string>) => ReadonlyArray<string>): string => {
  const out: Array<string> = []
  for (const part of parts) {
    if (typeof part === "string") out.push(part)
    else for (const line of choose(part)) out.push(line)
  }
  return out.join("\n")
}

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
  const out: Array<TextPart> = []
  const hunks: Array<ConflictHunk> = []
  let [po, pa, pb] = [0, 0, 0]
  let sinceStep = 0
  for (const [no, na, nb] of [...found, [o.length, a.length, b.length] as const]) {
    const [so, sa, sb] = [o.slice(po, no), a.slice(pa, na), b.slice(pb, nb)]
    if (sameLines(sa, so)) pushAll(out, sb)
    else if (sameLines(sb, so) || sameLines(sa, sb)) pushAll(out, sa)
    else if (!mergeStretch(so, sa, sb, out, hunks)) return { ok: false, hunks: [{ base, ours, theirs }], parts: [{ hunk: 0, ours: a, theirs: b }] }
    if (no < o.length) out.push(o[no]!)
    sinceStep += no - po + 1
    if (sinceStep >= linesPerStep) {
      sinceStep = 0
      yield
    }
    ;[po, pa, pb] = [no + 1, na + 1, nb + 1]
  }
  return hunks.length === 0 ? { ok: true, text: out.join("\n") } : { ok: false, hunks, parts: out }
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
  const place = (sequence: ReadonlyArray<string>, append: boolean) => {
    for (const [i, id] of sequence.entries()) {
      if (!members.has(id) || placed.has(id)) continue
      // Before the next page of its ordering that is placed; at the end when none is (if `append`).
      let at = append ? result.length : -1
      for (let j = i + 1; j < sequence.length; j++) {
        const k = result.indexOf(sequence[j]!)
        if (k >= 0) {
          at = k
          break
        }
      }
      if (at < 0) continue
      result.splice(at, 0, id)
      placed.add(id)
    }
  }
  // A page the other side kept (a resolved delete) finds its place in the base order before the end.
  place(secondary, false)
  place(base, false)
  place(secondary, true)
  place(base, true)
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

/** The side a resolution takes (markdown only settles content hunks, which read it apart). */
const sideOf = (r: Resolution): Side => ("side" in r ? r.side : "theirs")

/**
 * The document of a page both sides kept: one side's change, a line merge when both changed its
 * text, else what a resolution chose. Not settled: the conflicts are reported.
 */
const mergeDocument = (
  input: MergeInput,
  [b, o, t]: readonly [Entry, Entry, Entry],
  at: { readonly pageId: string; readonly path: string },
  settle: (c: Found) => Resolution | undefined,
  newDocuments: Map<string, string>
): { readonly settled: true; readonly document: string | undefined } | { readonly settled: false } => {
  const document = mergeValue(b.page.document, o.page.document, t.page.document)
  if (document.ok) return { settled: true, document: document.value }
  if (b.page.document !== undefined && o.page.document !== undefined && t.page.document !== undefined) {
    const text = (hash: string) => input.documents.get(hash)
    const [bt, ot, tt] = [text(b.page.document), text(o.page.document), text(t.page.document)]
    if (bt === undefined || ot === undefined || tt === undefined) {
      throw new Error(`threeWayMerge: the markdown of page ${at.pageId}'s documents was not given`)
    }
    const r = input.textMerges?.get(textMergeKey(b.page.document, o.page.document, t.page.document)) ?? mergeText(bt, ot, tt)
    let markdown: string | undefined = r.ok ? r.text : undefined
    if (!r.ok) {
      // One conflict per overlapping hunk, each resolved on its own.
      const contexts = hunkContexts(r.parts)
      const chosen = r.hunks.map((hunk, i) => {
        const context = contexts.get(i)
        return settle({ ...at, kind: "content", field: "document", hunk: i, hunks: [hunk], ...(context === undefined ? {} : { context }) })
      })
      if (chosen.every((c) => c !== undefined)) {
        markdown = resolveText(r.parts, (part) => {
          const c = chosen[part.hunk]!
          return "markdown" in c ? resolutionLines(c.markdown) : c.side === "ours" ? part.ours : part.theirs
        })
      }
    }
    if (markdown === undefined) return { settled: false }
    const hash = documentHash(markdown)
    newDocuments.set(hash, markdown)
    return { settled: true, document: hash }
  }
  const chosen = settle({ ...at, kind: "content", field: "document", ours: show(o.page.document), theirs: show(t.page.document) })
  if (chosen === undefined) return { settled: false }
  if ("markdown" in chosen) {
    const hash = documentHash(chosen.markdown)
    newDocuments.set(hash, chosen.markdown)
    return { settled: true, document: hash }
  }
  return { settled: true, document: chosen.side === "ours" ? o.page.document : t.page.document }
}

/** The pages that moves, together, make their own ancestor. */
const ownAncestors = (merged: ReadonlyMap<string, { readonly parentId: string | null }>): ReadonlyArray<string> => {
  const cyclic: Array<string> = []
  for (const id of merged.keys()) {
    const seen = new Set<string>([id])
    let up = merged.get(id)?.parentId ?? null
    while (up !== null) {
      if (seen.has(up)) {
        if (up === id) cyclic.push(id)
        break
      }
      seen.add(up)
      up = merged.get(up)?.parentId ?? null
    }
  }
  return cyclic
}

/** Merges ours and theirs against base: the merged content, or every conflict (numbered `c1`, `c2`, … in the order found). */
export const threeWayMerge = (input: MergeInput): MergeResult => {
  const base = index(input.base.pages)
  const ours = index(input.ours.pages)
  const theirs = index(input.theirs.pages)
  const conflicts: Array<Found> = []
  const newDocuments = new Map<string, string>()
  const where = (id: string) => ({ pageId: id, path: pathOf(id, theirs, ours, base) })
  /** The resolution of a conflict, else the conflict reported (undefined). */
  const settle = (c: Found): Resolution | undefined => {
    const resolution = input.resolutions?.get(conflictKey(c))
    if (resolution === undefined) conflicts.push(c)
    return resolution
  }

  /** Merged page fields (without children) and parent of every surviving page. */
  const merged = new Map<string, { page: PageNode; parentId: string | null }>()
  const ids = new Set([...ours.byId.keys(), ...theirs.byId.keys()])
  const deleted = new Set<string>()
  for (const id of base.byId.keys()) if (!ids.has(id)) deleted.add(id)
  const keep = (entry: Entry) => merged.set(entry.page.id, { page: { ...entry.page, pages: [] }, parentId: entry.parentId })

  for (const id of ids) {
    const b = base.byId.get(id)
    const o = ours.byId.get(id)
    const t = theirs.byId.get(id)
    if (b === undefined) {
      // New on one side (ids are fresh, so never on both, unless both copied the same page: merge them field by field against nothing).
      if (o !== undefined && t !== undefined && !same({ ...o.page, pages: [] }, { ...t.page, pages: [] })) {
        const r = settle({ ...where(id), kind: "structure", field: "id" })
        if (r !== undefined) keep(sideOf(r) === "ours" ? o : t)
        continue
      }
      const side = (o ?? t)!
      merged.set(id, { page: { ...side.page, pages: [] }, parentId: o !== undefined && t !== undefined ? o.parentId : side.parentId })
      continue
    }
    if (o === undefined || t === undefined) {
      const kept = (o ?? t)!
      if (edited(b, kept)) {
        const r = settle({
          ...where(id),
          kind: "delete-edit",
          ours: o === undefined ? "null" : "edited",
          theirs: t === undefined ? "null" : "edited"
        })
        // Taking the side that kept the page keeps it as that side has it.
        if (r !== undefined && sideOf(r) === (o === undefined ? "theirs" : "ours")) {
          keep(kept)
          continue
        }
      }
      deleted.add(id)
      continue
    }
    const page: Record<string, unknown> = { ...o.page, pages: [] }
    const set = (field: string, value: unknown) => {
      if (value === undefined) delete page[field]
      else page[field] = value
    }
    let clean = true
    for (const field of pageFields) {
      const r = mergeValue(b.page[field], o.page[field], t.page[field])
      if (r.ok) set(field, r.value)
      else {
        const chosen = settle({ ...where(id), kind: "metadata", field, ours: show(o.page[field]), theirs: show(t.page[field]) })
        if (chosen === undefined) clean = false
        else set(field, sideOf(chosen) === "ours" ? o.page[field] : t.page[field])
      }
    }
    const parent = mergeValue(b.parentId, o.parentId, t.parentId)
    let parentId = parent.ok ? parent.value : o.parentId
    if (!parent.ok) {
      const chosen = settle({ ...where(id), kind: "structure", field: "parent", ours: show(o.parentId), theirs: show(t.parentId) })
      if (chosen === undefined) clean = false
      else parentId = sideOf(chosen) === "ours" ? o.parentId : t.parentId
    }
    const document = mergeDocument(input, [b, o, t], where(id), settle, newDocuments)
    if (document.settled) set("document", document.document)
    else clean = false
    page.updatedAt = o.page.updatedAt > t.page.updatedAt ? o.page.updatedAt : t.page.updatedAt
    merged.set(id, { page: page as unknown as PageNode, parentId: clean ? parentId : o.parentId })
  }

  // A surviving page under a deleted one: the delete would take it along. Taking the side that
  // deleted removes the page (and what is under it); taking the other side keeps the deleted page.
  for (let changed = true; changed;) {
    changed = false
    for (const [id, { parentId }] of Array.from(merged)) {
      if (parentId === null || !deleted.has(parentId)) continue
      const deleter: Side = ours.byId.has(parentId) ? "theirs" : "ours"
      const r = settle({ ...where(parentId), kind: "delete-edit", field: "pages", ours: deleter === "ours" ? "null" : id, theirs: deleter === "theirs" ? "null" : id })
      if (r === undefined) continue
      if (sideOf(r) === deleter) merged.delete(id)
      else {
        keep((ours.byId.get(parentId) ?? theirs.byId.get(parentId))!)
        deleted.delete(parentId)
      }
      changed = true
    }
  }
  // Moves that, together, make a page its own ancestor (never settled by a resolution: the parents chosen make the cycle).
  for (const id of ownAncestors(merged)) conflicts.push({ ...where(id), kind: "structure", field: "parent" })

  const files = mergeFiles(input.base.files, input.ours.files, input.theirs.files, settle)
  if (conflicts.length > 0) return { kind: "conflicts", conflicts: numbered(conflicts) }

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
  if (conflicts.length > 0) return { kind: "conflicts", conflicts: numbered(conflicts) }
  return { kind: "merged", pages, files, newDocuments }
}

/** Each conflict once, numbered `c1`, `c2`, … */
const numbered = (conflicts: ReadonlyArray<Found>): ReadonlyArray<MergeConflict> => {
  const seen = new Set<string>()
  return conflicts
    .filter((c) => {
      const key = conflictKey(c)
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .map((c, i) => ({ id: `c${i + 1}`, ...c }))
}

const mergeFiles = (
  base: ReadonlyArray<FileNode>,
  ours: ReadonlyArray<FileNode>,
  theirs: ReadonlyArray<FileNode>,
  settle: (c: Found) => Resolution | undefined
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
        const r = settle({
          fileId: id,
          path: kept.name,
          kind: "delete-edit",
          ours: of === undefined ? "null" : "edited",
          theirs: tf === undefined ? "null" : "edited"
        })
        if (r !== undefined && sideOf(r) === (of === undefined ? "theirs" : "ours")) result.set(id, kept)
      }
      continue
    }
    const file: Record<string, unknown> = { ...of }
    const set = (field: string, value: unknown) => {
      if (value === undefined) delete file[field]
      else file[field] = value
    }
    for (const field of fileFields) {
      const r = mergeValue(bf[field], of[field], tf[field])
      if (r.ok) set(field, r.value)
      else {
        const chosen = settle({ fileId: id, path: tf.name, kind: "metadata", field, ours: show(of[field]), theirs: show(tf[field]) })
        if (chosen !== undefined) set(field, sideOf(chosen) === "ours" ? of[field] : tf[field])
      }
    }
    result.set(id, file as unknown as FileNode)
  }
  const order = mergeOrder(base.map((f) => f.id), ours.map((f) => f.id), theirs.map((f) => f.id), new Set(result.keys()))
  return order.map((id) => result.get(id)!)
}
