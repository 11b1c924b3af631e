/**
 * Change requests: branches of a space's content. A change request's content is a chain of
 * immutable revisions of the space (stored with RevisionsRepo) that starts at the space revision
 * it was created from; `revision` is the head of that chain.
 */
import { Schema } from "effect"
import type { ConflictsFound, MergeConflict } from "./MergeConflict.ts"

/** The longest subject a change request may have: GitBook's `ChangeRequestSubject` maxLength. */
export const maxSubjectLength = 100

/**
 * The longest description, in characters of its markdown (GitBook documents none): a summary of the
 * change, not a second page. The API bounds the JSON it is sent in as well.
 */
export const maxDescriptionLength = 20_000

/** GitBook's bound on a change request's links (`links`, maxItems) and on a link's title (`ChangeRequestLinkTitle`). */
export const maxLinks = 10
export const maxLinkTitleLength = 128
/** The longest link URL Quire keeps. */
export const maxLinkUrlLength = 2048

/** An external link of a change request (GitBook's `ChangeRequestLink`, its `ref` a URL). */
export interface ChangeRequestLink {
  readonly id: string
  readonly url: string
  readonly title?: string | undefined
}

export const ChangeRequestLinkRow = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  title: Schema.optionalKey(Schema.String)
})

export const ChangeRequestStatus = Schema.Literals(["draft", "open", "archived", "merged"])
export type ChangeRequestStatus = typeof ChangeRequestStatus.Type

export interface ChangeRequest {
  readonly id: string
  readonly spaceId: string
  /** Incremental in the space, from 1. */
  readonly number: number
  readonly status: ChangeRequestStatus
  readonly subject: string
  /** What it changes and why, as markdown (GitBook's `description`, a JSON document on the wire); null when unset. */
  readonly description: string | null
  /** External links (an issue, a ticket), at most `maxLinks`. */
  readonly links: ReadonlyArray<ChangeRequestLink>
  /** The user id of the creator. */
  readonly createdBy: string
  readonly createdAt: Date
  readonly updatedAt: Date
  /** The head of the change request's content. */
  readonly revision: string
  /** The space revision the change request was created from. */
  readonly revisionInitial: string
  /** The space revision the change request was last brought up to date with (`revisionInitial` until an update). */
  readonly revisionMergedAncestor: string
  /** The space revision its merge produced; null until merged. */
  readonly revisionMerged: string | null
  /** Who merged it, and when; null until merged (and for those merged before this was recorded). */
  readonly mergedBy: string | null
  readonly mergedAt: Date | null
  /** The agent task it implements, as given on creation. */
  readonly agentTaskId: string | null
  /** Users who edited its content, in the order they first did. */
  readonly contributors: ReadonlyArray<string>
  /** Its open comments (a counter moved in the same transaction as the comments). */
  readonly comments: number
  /** The conflicts its last merge or update found; null when it had none, or since it changed or merged cleanly. */
  readonly conflicts: ReadonlyArray<MergeConflict> | null
  /** The revisions `conflicts` were found between (main's and the change request's); null without conflicts. */
  readonly conflictsFound: ConflictsFound | null
}

/** The statuses a PATCH may move a change request to from each status (`merged` only comes from a merge). */
export const permittedTransitions: Readonly<Record<ChangeRequestStatus, ReadonlyArray<ChangeRequestStatus>>> = {
  draft: ["open", "archived"],
  open: ["draft", "archived"],
  archived: ["open"],
  merged: []
}

/** The space counters a change request in `status` counts in. */
export const countersOf = (status: ChangeRequestStatus) => ({
  changeRequestsOpen: status === "open" ? 1 : 0,
  changeRequestsDraft: status === "draft" ? 1 : 0
})
