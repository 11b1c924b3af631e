/**
 * The inputs of collections that the Collections service and the modules of its jobs
 * (`collections/*`) share, so that those modules need not import the service.
 */
import type { DefaultLevel } from "../domain/Space.ts"
import type { ContentPosition } from "../Placement.ts"

export interface CreateCollectionInput {
  readonly title?: string | undefined
  readonly description?: string | undefined
  /** The parent collection; absent: the organization's root. */
  readonly parent?: string | undefined
}

export interface CollectionUpdate {
  readonly title?: string | undefined
  /** An empty string removes the description. */
  readonly description?: string | undefined
  readonly defaultLevel?: DefaultLevel | undefined
}

export interface MoveCollectionInput {
  /** The new parent collection, null for the organization's root; absent keeps the parent. */
  readonly parent?: string | null | undefined
  readonly position?: ContentPosition | undefined
}
