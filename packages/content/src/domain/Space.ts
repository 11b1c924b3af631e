/** Spaces and collections as the domain sees them. */
import type { Roles } from "@quire/kernel"

/** A space's or collection's level for organization members: a role, null (no access), or inherited. */
export type DefaultLevel = Roles.MemberRole | null | "inherit"

export type Visibility = "public" | "unlisted" | "share-link" | "visitor-auth" | "in-collection" | "private"

export type EditMode = "live" | "locked"

export interface Space {
  readonly id: string
  readonly organizationId: string
  /** The parent collection, if any. */
  readonly parentId: string | null
  readonly title: string
  readonly emoji: string
  readonly visibility: Visibility
  readonly editMode: EditMode
  readonly defaultLevel: DefaultLevel
  readonly language: string | null
  /** Order among the siblings of the same parent (smaller first). */
  readonly position: number
  /** The current revision of the space's content. */
  readonly revisionId: string
  /** Secret that resolves published URLs of share-link content. */
  readonly shareKey: string
  readonly createdAt: Date
  readonly updatedAt: Date
  /** Set when the space is in the trash (restorable for 7 days). */
  readonly deletedAt: Date | null
}

export interface Collection {
  readonly id: string
  readonly organizationId: string
  readonly parentId: string | null
  readonly title: string
  readonly description: string | null
  readonly defaultLevel: DefaultLevel
  readonly position: number
  readonly createdAt: Date
  readonly updatedAt: Date
}
