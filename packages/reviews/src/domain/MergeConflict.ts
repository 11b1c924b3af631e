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
