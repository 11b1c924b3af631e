/** Comments and their replies, as the domain sees them. Bodies are markdown kept exactly as written. */
import { Schema } from "effect"

export const CommentStatus = Schema.Literals(["open", "resolved"])
export type CommentStatus = typeof CommentStatus.Type

/** A listing's status filter: a status, or `all`. */
export const CommentStatusFilter = Schema.Literals(["open", "resolved", "all"])
export type CommentStatusFilter = typeof CommentStatusFilter.Type

/** A table cell a comment is about: the record (row) and the definition (column). */
export const TableCell = Schema.Struct({ record: Schema.String, definition: Schema.String })
export type TableCell = typeof TableCell.Type

/** One user's reaction with one emoji (a user reacts at most once per emoji). */
export interface Reaction {
  readonly emoji: string
  readonly userId: string
  readonly reactedAt: Date
}

/** What a comment is about: a page of the space, optionally a node or a table cell of it. */
export interface CommentTarget {
  readonly pageId: string | null
  readonly nodeId: string | null
  readonly tableCell: TableCell | null
}

export interface Comment {
  readonly id: string
  readonly spaceId: string
  /** The change request the comment belongs to; null for a comment on the space's content. */
  readonly changeRequestId: string | null
  /** The revision the comment was posted on. */
  readonly revisionId: string
  readonly target: CommentTarget
  readonly authorId: string
  readonly markdown: string
  readonly postedAt: Date
  /** Set when the body changes. */
  readonly editedAt: Date | null
  readonly status: CommentStatus
  readonly resolvedAt: Date | null
  readonly resolvedBy: string | null
  /** Number of replies. */
  readonly replies: number
  /** Who replied, each once, in the order they first did: how many replies and when the last. */
  readonly repliers: ReadonlyArray<Replier>
  readonly reactions: ReadonlyArray<Reaction>
}

export interface Replier {
  readonly userId: string
  readonly count: number
  readonly lastRepliedAt: Date
}

/** The repliers of `replies` (one comment's, oldest first). */
export const repliersOf = (replies: ReadonlyArray<{ readonly authorId: string; readonly postedAt: Date }>): ReadonlyArray<Replier> => {
  const byUser = new Map<string, Replier>()
  for (const r of replies) {
    const known = byUser.get(r.authorId)
    byUser.set(r.authorId, {
      userId: r.authorId,
      count: (known?.count ?? 0) + 1,
      lastRepliedAt: known === undefined || r.postedAt > known.lastRepliedAt ? r.postedAt : known.lastRepliedAt
    })
  }
  return Array.from(byUser.values())
}

export interface CommentReply {
  readonly id: string
  readonly commentId: string
  readonly spaceId: string
  readonly authorId: string
  readonly markdown: string
  readonly postedAt: Date
  readonly editedAt: Date | null
  readonly reactions: ReadonlyArray<Reaction>
}

/** What the caller may do with a comment or a reply. */
export interface CommentPermissions {
  readonly view: boolean
  readonly edit: boolean
  readonly reply: boolean
  readonly delete: boolean
}
