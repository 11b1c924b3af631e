/**
 * The inputs and views of spaces that the Spaces service and the modules of its jobs (`spaces/*`)
 * share, so that those modules need not import the service.
 */
import type { Pagination, Roles } from "@quire/kernel"
import type { SpaceAccess } from "../ContentAccess.ts"
import type { DefaultLevel, EditMode, Language, MergeRules, Visibility } from "../domain/Space.ts"
import type { ContentPosition } from "../Placement.ts"

export interface CreateSpaceInput {
  readonly title?: string | undefined
  readonly emoji?: string | undefined
  /** The parent collection; absent: the organization's root. */
  readonly parent?: string | undefined
  readonly language?: Language | undefined
  readonly editMode?: EditMode | undefined
}

export interface SpaceUpdate {
  readonly title?: string | undefined
  /** null removes the emoji. */
  readonly emoji?: string | null | undefined
  readonly editMode?: EditMode | undefined
  readonly defaultLevel?: DefaultLevel | undefined
  readonly language?: Language | null | undefined
  readonly visibility?: Visibility | undefined
  readonly mergeRules?: MergeRules | undefined
}

export interface MoveInput {
  /** The new parent collection, null for the organization's root; absent keeps the parent. */
  readonly parent?: string | null | undefined
  readonly position?: ContentPosition | undefined
}

/** A space another member can access, with their role on it (the space as the caller sees it). */
export interface MemberSpace {
  readonly permission: Roles.MemberRole
  readonly space: SpaceAccess
}

export interface MemberSpacesRequest extends Pagination.PageRequest {
  readonly order?: Pagination.Order | undefined
}
