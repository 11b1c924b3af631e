/** What a merge or an update of a change request could not decide alone, kept on the change request. */
import { Schema } from "effect"

export const ConflictKind = Schema.Literals(["content", "metadata", "structure", "delete-edit"])
export type ConflictKind = typeof ConflictKind.Type

/** One side of a hunk of lines both sides changed differently. */
export const ConflictHunk = Schema.Struct({ base: Schema.String, ours: Schema.String, theirs: Schema.String })
export type ConflictHunk = typeof ConflictHunk.Type

export const MergeConflict = Schema.Struct({
  /** `c1`, `c2`, … in the order the merge found them: what a resolution names. */
  id: Schema.String,
  /** The page in conflict (absent for files). */
  pageId: Schema.optional(Schema.String),
  /** The file in conflict (absent for pages). */
  fileId: Schema.optional(Schema.String),
  /** The page's path (theirs when it has one, else ours'); a file's name. */
  path: Schema.String,
  kind: ConflictKind,
  /** The field in conflict (metadata and structure conflicts). */
  field: Schema.optional(Schema.String),
  /** Main's value (JSON for metadata), or `null` when main deleted it. */
  ours: Schema.optional(Schema.String),
  /** The change request's value (JSON for metadata), or `null` when it deleted it. */
  theirs: Schema.optional(Schema.String),
  /** Content conflicts: the overlapping hunk (one per conflict), so a person can resolve it. */
  hunks: Schema.optional(Schema.Array(ConflictHunk)),
  /** Content conflicts: the hunk's position among the page's overlapping hunks, from 0. */
  hunk: Schema.optional(Schema.Number),
  /** Content conflicts: the merged lines just before and after the hunk (a few, none at the page's ends), to show where it is. */
  context: Schema.optional(Schema.Struct({ before: Schema.Array(Schema.String), after: Schema.Array(Schema.String) }))
})
export type MergeConflict = typeof MergeConflict.Type

/** Where a change request's conflicts were found: main's revision and the change request's head. */
export interface ConflictsFound {
  readonly main: string
  readonly head: string
}

/** The resolution a person chose for one conflict: main's side, the change request's, or new markdown (content conflicts). */
export const ConflictTake = Schema.Literals(["main", "change-request", "markdown"])
export type ConflictTake = typeof ConflictTake.Type

/**
 * Bytes of JSON a change request's conflicts may take when kept: far below the 16 MiB one row
 * the database client reads back, so two sides rewriting large pages cannot make the change
 * request unreadable.
 */
export const conflictsStorageBudget = 4 * 1024 * 1024

const bytesOf = (conflicts: ReadonlyArray<MergeConflict>): number => Buffer.byteLength(JSON.stringify(conflicts))

const cut = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}\n… (${text.length - max} more characters not kept here: read the page)`

const withTextsCut = (c: MergeConflict, max: number): MergeConflict => ({
  ...c,
  ...(c.ours === undefined ? {} : { ours: cut(c.ours, max) }),
  ...(c.theirs === undefined ? {} : { theirs: cut(c.theirs, max) }),
  ...(c.hunks === undefined ? {} : { hunks: c.hunks.map((h) => ({ base: cut(h.base, max), ours: cut(h.ours, max), theirs: cut(h.theirs, max) })) }),
  ...(c.context === undefined ? {} : { context: { before: c.context.before.map((l) => cut(l, max)), after: c.context.after.map((l) => cut(l, max)) } })
})

/** Only what names and places the conflict: what resolving it needs (it recomputes the merge). */
const bare = ({ context: _context, hunks: _hunks, ours: _ours, theirs: _theirs, ...named }: MergeConflict): MergeConflict => named

/**
 * The conflicts as they are kept on the change request, within `budget` bytes of JSON: unchanged
 * when they fit; else each text shortened (with a note of what was left out) to the longest length
 * that fits; else only their ids, kinds and places, which is all that resolving them reads.
 */
export const boundForStorage = (conflicts: ReadonlyArray<MergeConflict>, budget: number = conflictsStorageBudget): ReadonlyArray<MergeConflict> => {
  if (bytesOf(conflicts) <= budget) return conflicts
  for (let max = 64 * 1024; max >= 256; max = Math.floor(max / 2)) {
    const cutDown = conflicts.map((c) => withTextsCut(c, max))
    if (bytesOf(cutDown) <= budget) return cutDown
  }
  return conflicts.map(bare)
}
