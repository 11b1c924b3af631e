/**
 * A change request's rendered diff of one page, pure (Node runs it): base and head markdown parsed
 * with the editor's codec; top-level blocks aligned (ignoring the kept markdown slices, so only
 * what a reader sees counts); runs of removed and added blocks paired into "changed" blocks where
 * they are the same kind of block and alike; the inline ranges of each changed block from
 * prosemirror-changeset (word-level, `simplifyChanges`); attribute changes (a hint's style, a tab's
 * title, a code block's language, frontmatter text) listed beside them. If parsing or diffing
 * throws, or the page is over the size limits, the answer is a line diff of the markdown with the
 * reason: never an empty view.
 */
import type { Node as PMNode } from "@tiptap/pm/model"
import { StepMap } from "@tiptap/pm/transform"
import { ChangeSet, simplifyChanges } from "prosemirror-changeset"
import type { MarkdownCodec } from "@quire/document"
import { diffSequences, type Edit } from "./sequence.ts"

export interface Range {
  readonly from: number
  readonly to: number
}

/** Deleted content (a range of the base document) and `at`, where the inline view shows it in the head document. */
export interface Deletion extends Range {
  readonly at: number
}

/** A top-level block: its index in the document and its range (ProseMirror positions). */
export interface BlockRef extends Range {
  readonly index: number
  readonly type: string
}

export interface AttributeChange {
  /** The node's type (`hint`, `tab`, `codeBlock`, `frontmatter`) and its position in the head document. */
  readonly node: string
  readonly pos: number
  readonly key: string
  readonly before: unknown
  readonly after: unknown
}

export type RowKind = "same" | "changed" | "removed" | "added"

export interface BlockRow {
  readonly kind: RowKind
  readonly base?: BlockRef
  readonly head?: BlockRef
  /** Removed blocks: where the inline view shows them in the head document (before the next block there). */
  readonly at?: number
  /** Changed blocks: ranges deleted (in the base document, each with where it shows in the head) and inserted (in the head document). */
  readonly deleted?: ReadonlyArray<Deletion>
  readonly inserted?: ReadonlyArray<Range>
  /** Changed blocks: text the same on both sides whose formatting (bold, italic, code, a link or its target) changed, in the head document. */
  readonly formatted?: ReadonlyArray<Range>
  readonly attributes?: ReadonlyArray<AttributeChange>
}

/** One stop of next / previous: a row that is not `same`, and where it is on each side. */
export interface ChangeStop {
  readonly kind: Exclude<RowKind, "same">
  readonly row: number
  readonly base?: Range
  readonly head?: Range
}

/** Side by side: each row holds the base block on the left and the head block on the right (either may be absent). */
export interface SplitRow {
  readonly kind: RowKind
  readonly base?: BlockRef
  readonly head?: BlockRef
  /** Index into `rows` of each side. */
  readonly baseRow?: number
  readonly headRow?: number
}

export interface RenderedDiff {
  readonly kind: "rendered"
  readonly base: PMNode
  readonly head: PMNode
  /** The unified view, in reading order: each run's removed blocks before its added ones. */
  readonly rows: ReadonlyArray<BlockRow>
  readonly split: ReadonlyArray<SplitRow>
  readonly changes: ReadonlyArray<ChangeStop>
  /** The markdown differs but nothing a reader sees does (blank lines, list markers, spacing): the screen says so and offers the markdown diff. */
  readonly markdownOnly: boolean
}

export interface LineRow {
  readonly kind: "same" | "removed" | "added"
  readonly text: string
  /** 1-based line numbers on each side. */
  readonly baseLine?: number
  readonly headLine?: number
}

export interface LineDiff {
  readonly kind: "lines"
  /** Why the rendered diff was not shown. */
  readonly reason: string
  readonly rows: ReadonlyArray<LineRow>
  readonly split: ReadonlyArray<{ readonly base?: LineRow; readonly head?: LineRow }>
  /** Next / previous: each hunk, as a range of `rows` indexes. */
  readonly changes: ReadonlyArray<Range>
}

export type PageDiff = RenderedDiff | LineDiff

export interface DiffLimits {
  /** Characters of markdown on either side above which only the line diff is shown. */
  readonly maxMarkdown: number
  /** Block insertions and deletions beyond which the block alignment gives up. */
  readonly maxBlockEdits: number
  /** Line insertions and deletions beyond which the line diff shows the whole page replaced. */
  readonly maxLineEdits: number
}

export const defaultLimits: DiffLimits = { maxMarkdown: 2_000_000, maxBlockEdits: 1500, maxLineEdits: 2000 }

/**
 * Attributes that only say how the markdown was written (kept slices, fences, list markers, table
 * pipes, liquid tag lines whose meaning is in `params`): they never make two blocks differ for a
 * reader, and are not listed as changes. The markdown diff shows them.
 */
const writtenForm = new Set([
  "source", "tag", "endTag", "line", "lead", "trail", "delimiter", "delimiterRow", "delimiters", "pipes", "spacing", "indent",
  "marker", "fence", "emptyLine", "prefix", "closing", "setext", "checkChar", "numbering", "open", "close", "titleQuote",
  "imgEnd", "angle", "autolink", "delim", "ticks", "style"
])

/** The node's JSON without its written-form attributes, so two blocks compare by what they show. */
const shown = (json: unknown): unknown => {
  if (Array.isArray(json)) return json.map(shown)
  if (json === null || typeof json !== "object") return json
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(json)) {
    out[k] = k === "attrs" && v !== null && typeof v === "object"
      ? Object.fromEntries(Object.entries(v).filter(([name]) => !writtenForm.has(name)).map(([name, value]) => [name, shown(value)]))
      : shown(v)
  }
  return out
}

const keyOf = (node: PMNode): string => JSON.stringify(shown(node.toJSON()))

/** The top-level blocks; none for an empty page (which parses to one empty paragraph). */
const blockRefs = (doc: PMNode): Array<BlockRef> => {
  const out: Array<BlockRef> = []
  if (doc.childCount === 1 && doc.firstChild!.type.name === "paragraph" && doc.firstChild!.content.size === 0) return out
  doc.forEach((node, offset, index) => out.push({ index, type: node.type.name, from: offset, to: offset + node.nodeSize }))
  return out
}

const words = (text: string): Array<string> => text.split(/(\s+)/).filter((w) => w !== "")

const textOf = (node: PMNode): string => node.isAtom ? String(node.attrs.text ?? "") : node.textBetween(0, node.content.size, " ", " ")

const ratio = <T>(x: ReadonlyArray<T>, y: ReadonlyArray<T>): number => {
  const edits = diffSequences(x, y, undefined, 400)
  return edits === null ? 0 : (2 * edits.filter((e) => e.op === "equal").length) / (x.length + y.length)
}

/** 2·common / all, over words, or over characters for short texts (a renamed heading); 1 for two empty texts. */
const likeness = (a: PMNode, b: PMNode): number => {
  const ta = textOf(a)
  const tb = textOf(b)
  if (ta.length + tb.length === 0) return 1
  const byWords = ratio(words(ta), words(tb))
  return byWords >= 0.3 || ta.length + tb.length > 2000 ? byWords : Math.max(byWords, ratio([...ta], [...tb]))
}

/**
 * Pairs removed and added blocks of one run, in order: the same type and alike, or, when the run
 * removes as many blocks as it adds, the same type at the same place in it (a renamed heading).
 */
const pairRun = (removed: ReadonlyArray<PMNode>, added: ReadonlyArray<PMNode>): Array<[number, number]> => {
  if (removed.length === added.length && removed.every((a, i) => a.type === added[i]!.type)) return removed.map((_, i) => [i, i])
  const pairs: Array<[number, number]> = []
  let j = 0
  for (let i = 0; i < removed.length && j < added.length; i++) {
    for (let k = j; k < added.length; k++) {
      const a = removed[i]!
      const b = added[k]!
      if (a.type !== b.type) continue
      if (a.isAtom || textOf(a) === "" || textOf(b) === "" || likeness(a, b) >= 0.3) {
        pairs.push([i, k])
        j = k + 1
        break
      }
    }
  }
  return pairs
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

interface Collected {
  readonly deleted: Array<Deletion>
  readonly inserted: Array<Range>
  readonly formatted: Array<Range>
  readonly attributes: Array<AttributeChange>
}

/** Each text position's marks as a reader sees them (written-form attributes left out), by position in `doc`. */
const marksByPosition = (doc: PMNode): Map<number, string> => {
  const out = new Map<number, string>()
  doc.descendants((node, pos) => {
    if (!node.isText || node.text === undefined) return true
    const key = JSON.stringify(shown(node.marks.map((m) => m.toJSON())))
    for (let i = 0; i < node.text.length; i++) out.set(pos + i, key)
    return false
  })
  return out
}

/**
 * The head ranges whose text is unchanged but whose marks differ: between the text changes, the
 * two blocks' characters face each other one to one; runs where their marks differ are collected.
 */
const formattingChanges = (docA: PMNode, docB: PMNode, changes: ReadonlyArray<{ fromA: number; toA: number; fromB: number; toB: number }>, posB: number, out: Collected): void => {
  const marksA = marksByPosition(docA)
  const marksB = marksByPosition(docB)
  let a = 0
  let b = 0
  let open: number | undefined
  const close = (at: number) => {
    if (open !== undefined) out.formatted.push({ from: open + posB, to: at + posB })
    open = undefined
  }
  const span = (length: number) => {
    for (let k = 0; k < length; k++) {
      const ma = marksA.get(a + k)
      const mb = marksB.get(b + k)
      const differs = ma !== undefined && mb !== undefined && ma !== mb
      if (differs && open === undefined) open = b + k
      if (!differs) close(b + k)
    }
    close(b + length)
  }
  for (const c of changes) {
    span(c.fromB - b)
    a = c.toA
    b = c.toB
  }
  span(Math.min(docA.content.size - a, docB.content.size - b))
}

/** Inline ranges of two textblocks from prosemirror-changeset (word-level), shifted to where the blocks are. */
const textChanges = (codec: MarkdownCodec, a: PMNode, b: PMNode, posA: number, posB: number, out: Collected): void => {
  const doc = codec.schema.nodes.doc!
  const docA = doc.create(null, a)
  const docB = doc.create(null, b)
  const set = ChangeSet.create(docA).addSteps(docB, [new StepMap([0, docA.content.size, docB.content.size])], null)
  formattingChanges(docA, docB, set.changes, posB, out)
  for (const c of simplifyChanges(set.changes, docB)) {
    if (c.toA > c.fromA) out.deleted.push({ from: c.fromA + posA, to: c.toA + posA, at: c.fromB + posB })
    if (c.toB > c.fromB) out.inserted.push({ from: c.fromB + posB, to: c.toB + posB })
  }
}

/**
 * What changed between two nodes of the same type at `posA` (base) and `posB` (head): their
 * attributes; for textblocks, the inline ranges; for containers, their children aligned as the
 * page's blocks are (a removed list item, tab or row is deleted whole, a changed one recursed into).
 */
const nodeChanges = (codec: MarkdownCodec, a: PMNode, b: PMNode, posA: number, posB: number, out: Collected): void => {
  for (const key of new Set([...Object.keys(a.attrs), ...Object.keys(b.attrs)])) {
    if (writtenForm.has(key) || sameJson(a.attrs[key], b.attrs[key])) continue
    out.attributes.push({ node: b.type.name, pos: posB, key, before: a.attrs[key], after: b.attrs[key] })
  }
  if (a.isLeaf || b.isLeaf) return
  if (a.inlineContent || b.inlineContent) return textChanges(codec, a, b, posA, posB, out)
  const ca: Array<{ node: PMNode; pos: number }> = []
  const cb: Array<{ node: PMNode; pos: number }> = []
  a.forEach((c, offset) => void ca.push({ node: c, pos: posA + 1 + offset }))
  b.forEach((c, offset) => void cb.push({ node: c, pos: posB + 1 + offset }))
  const edits = diffSequences(ca.map((c) => keyOf(c.node)), cb.map((c) => keyOf(c.node)), undefined, 500)
  if (edits === null) return textChanges(codec, a, b, posA, posB, out)
  // Where a removed child shows in the head: after the last head child met so far.
  let cursor = posB + 1
  const past = (k: number) => void (cursor = cb[k]!.pos + cb[k]!.node.nodeSize)
  alignRuns(edits, ca.map((c) => c.node), cb.map((c) => c.node), {
    removed: (i) => void out.deleted.push({ from: ca[i]!.pos, to: ca[i]!.pos + ca[i]!.node.nodeSize, at: cursor }),
    added: (k) => {
      out.inserted.push({ from: cb[k]!.pos, to: cb[k]!.pos + cb[k]!.node.nodeSize })
      past(k)
    },
    changed: (i, k) => {
      nodeChanges(codec, ca[i]!.node, cb[k]!.node, ca[i]!.pos, cb[k]!.pos, out)
      past(k)
    },
    same: (_, k) => past(k)
  })
}

/** Walks an alignment in reading order: each run of removed and added nodes paired where alike, the rest removed or added. */
const alignRuns = (
  edits: ReadonlyArray<Edit>,
  nodesA: ReadonlyArray<PMNode>,
  nodesB: ReadonlyArray<PMNode>,
  on: { removed: (a: number) => void; added: (b: number) => void; changed: (a: number, b: number) => void; same: (a: number, b: number) => void }
): void => {
  let removed: Array<number> = []
  let added: Array<number> = []
  const flush = () => {
    const pairs = pairRun(removed.map((i) => nodesA[i]!), added.map((k) => nodesB[k]!))
    let i = 0
    let k = 0
    for (const [pi, pk] of [...pairs, [removed.length, added.length] as [number, number]]) {
      for (; i < pi; i++) on.removed(removed[i]!)
      for (; k < pk; k++) on.added(added[k]!)
      if (pi < removed.length) {
        on.changed(removed[pi]!, added[pk]!)
        i = pi + 1
        k = pk + 1
      }
    }
    removed = []
    added = []
  }
  for (const e of edits) {
    if (e.op === "delete") removed.push(e.a)
    else if (e.op === "insert") added.push(e.b)
    else {
      flush()
      on.same(e.a, e.b)
    }
  }
  flush()
}

const rowsOf = (codec: MarkdownCodec, base: PMNode, head: PMNode, limits: DiffLimits): Array<BlockRow> | string => {
  const refsA = blockRefs(base)
  const refsB = blockRefs(head)
  const blocksA = refsA.map((r) => base.child(r.index))
  const blocksB = refsB.map((r) => head.child(r.index))
  const edits = diffSequences(blocksA.map(keyOf), blocksB.map(keyOf), undefined, limits.maxBlockEdits)
  if (edits === null) return `more than ${limits.maxBlockEdits} blocks differ`
  const rows: Array<BlockRow> = []
  let cursor = 0
  alignRuns(edits, blocksA, blocksB, {
    removed: (a) => void rows.push({ kind: "removed", base: refsA[a]!, at: cursor }),
    added: (b) => {
      rows.push({ kind: "added", head: refsB[b]! })
      cursor = refsB[b]!.to
    },
    same: (a, b) => {
      rows.push({ kind: "same", base: refsA[a]!, head: refsB[b]! })
      cursor = refsB[b]!.to
    },
    changed: (a, b) => {
      const out: Collected = { deleted: [], inserted: [], formatted: [], attributes: [] }
      nodeChanges(codec, blocksA[a]!, blocksB[b]!, refsA[a]!.from, refsB[b]!.from, out)
      rows.push({ kind: "changed", base: refsA[a]!, head: refsB[b]!, ...out })
      cursor = refsB[b]!.to
    }
  })
  return rows
}

/**
 * Side by side: same and changed rows face each other; in a run of removed and added blocks the
 * removed ones fill the left column and the added ones the right, row by row, so neither side
 * scrolls away from the other.
 */
export const splitRows = (rows: ReadonlyArray<BlockRow>): Array<SplitRow> => {
  const out: Array<SplitRow> = []
  let left: Array<number> = []
  let right: Array<number> = []
  const flush = () => {
    for (let i = 0; i < Math.max(left.length, right.length); i++) {
      const l = left[i]
      const r = right[i]
      out.push({
        kind: l !== undefined && r !== undefined ? "changed" : l !== undefined ? "removed" : "added",
        ...(l === undefined ? {} : { base: rows[l]!.base!, baseRow: l }),
        ...(r === undefined ? {} : { head: rows[r]!.head!, headRow: r })
      })
    }
    left = []
    right = []
  }
  rows.forEach((row, i) => {
    if (row.kind === "removed") left.push(i)
    else if (row.kind === "added") right.push(i)
    else if (row.kind === "changed") {
      // A changed pair opens its own row; blocks removed or added before it in the run stay above it.
      flush()
      out.push({ kind: "changed", base: row.base!, head: row.head!, baseRow: i, headRow: i })
    } else {
      flush()
      out.push({ kind: "same", base: row.base!, head: row.head!, baseRow: i, headRow: i })
    }
  })
  flush()
  return out
}

const stopsOf = (rows: ReadonlyArray<BlockRow>): Array<ChangeStop> =>
  rows.flatMap((row, i): Array<ChangeStop> =>
    row.kind === "same"
      ? []
      : [{
        kind: row.kind,
        row: i,
        ...(row.base ? { base: { from: row.base.from, to: row.base.to } } : {}),
        ...(row.head ? { head: { from: row.head.from, to: row.head.to } } : {})
      }]
  )

const splitLines = (text: string): Array<string> => {
  if (text === "") return []
  const lines = text.split(/\r?\n/)
  if (lines[lines.length - 1] === "") lines.pop()
  return lines
}

/** The markdown's line diff; past `maxLineEdits`, the whole page shown as replaced. */
export const lineDiff = (base: string, head: string, reason: string, limits: DiffLimits = defaultLimits): LineDiff => {
  const a = splitLines(base)
  const b = splitLines(head)
  const edits: Array<Edit> = diffSequences(a, b, undefined, limits.maxLineEdits) ?? [
    ...a.map((_, i) => ({ op: "delete" as const, a: i })),
    ...b.map((_, i) => ({ op: "insert" as const, b: i }))
  ]
  const rows: Array<LineRow> = edits.map((e) =>
    e.op === "equal"
      ? { kind: "same", text: b[e.b]!, baseLine: e.a + 1, headLine: e.b + 1 }
      : e.op === "delete"
      ? { kind: "removed", text: a[e.a]!, baseLine: e.a + 1 }
      : { kind: "added", text: b[e.b]!, headLine: e.b + 1 }
  )
  // Within a hunk, removed lines come before added ones.
  const ordered: Array<LineRow> = []
  const changes: Array<Range> = []
  let i = 0
  while (i < rows.length) {
    if (rows[i]!.kind === "same") {
      ordered.push(rows[i++]!)
      continue
    }
    const start = i
    while (i < rows.length && rows[i]!.kind !== "same") i++
    const hunk = rows.slice(start, i)
    changes.push({ from: ordered.length, to: ordered.length + hunk.length })
    ordered.push(...hunk.filter((r) => r.kind === "removed"), ...hunk.filter((r) => r.kind === "added"))
  }
  const split: Array<{ base?: LineRow; head?: LineRow }> = []
  let k = 0
  while (k < ordered.length) {
    if (ordered[k]!.kind === "same") {
      split.push({ base: ordered[k]!, head: ordered[k]! })
      k++
      continue
    }
    const left: Array<LineRow> = []
    const right: Array<LineRow> = []
    while (k < ordered.length && ordered[k]!.kind !== "same") (ordered[k]!.kind === "removed" ? left : right).push(ordered[k++]!)
    for (let r = 0; r < Math.max(left.length, right.length); r++) {
      split.push({ ...(left[r] ? { base: left[r] } : {}), ...(right[r] ? { head: right[r] } : {}) })
    }
  }
  return { kind: "lines", reason, rows: ordered, split, changes }
}

/** The diff of one page between base and head markdown (either empty for an added or deleted page). */
export const pageDiff = (codec: MarkdownCodec, base: string, head: string, limits: DiffLimits = defaultLimits): PageDiff => {
  if (Math.max(base.length, head.length) > limits.maxMarkdown) {
    return lineDiff(base, head, `the page is over ${limits.maxMarkdown} characters`, limits)
  }
  try {
    const a = codec.parse(base)
    const b = codec.parse(head)
    const rows = rowsOf(codec, a, b, limits)
    if (typeof rows === "string") return lineDiff(base, head, rows, limits)
    const changes = stopsOf(rows)
    return { kind: "rendered", base: a, head: b, rows, split: splitRows(rows), changes, markdownOnly: changes.length === 0 && base !== head }
  } catch (error) {
    return lineDiff(base, head, `the rendered diff failed: ${error instanceof Error ? error.message : String(error)}`, limits)
  }
}

/** The stop after (`+1`) or before (`-1`) the one at `current` (-1: none yet), wrapping around; -1 when there are none. */
export const nextStop = (count: number, current: number, direction: 1 | -1): number => {
  if (count === 0) return -1
  if (current < 0 || current >= count) return direction === 1 ? 0 : count - 1
  return (current + direction + count) % count
}
