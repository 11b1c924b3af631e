/**
 * Use cases on spaces: creation (with an empty first revision) and duplication, listings,
 * settings, the trash (soft delete, restore within 7 days, purge), moves and transfers, each
 * group in its module under spaces/, over what spaces/SpaceEdit.ts shares.
 */
import { Context, Effect, Layer } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import type { SpaceAccess } from "./ContentAccess.ts"
import { MainObservers } from "./MainObservers.ts"
import { spaceCreation } from "./spaces/SpaceCreation.ts"
import * as SpaceEdit from "./spaces/SpaceEdit.ts"
import { spaceListings } from "./spaces/SpaceListings.ts"
import { spaceMoves } from "./spaces/SpaceMoves.ts"
import { spaceSettings } from "./spaces/SpaceSettings.ts"
import { spaceTrash } from "./spaces/SpaceTrash.ts"
import type { CreateSpaceInput, MemberSpace, MemberSpacesRequest, MoveInput, SpaceUpdate } from "./spaces/SpaceTypes.ts"

export type * from "./spaces/SpaceTypes.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface SpacesShape {
  readonly create: (organizationId: string, input: CreateSpaceInput) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** The organization's spaces the caller can see, in order. */
  readonly list: (organizationId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SpaceAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The spaces directly in a collection that the caller can see. */
  readonly listInCollection: (collectionId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SpaceAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The spaces a member can access (among those the caller can see), with the member's role. */
  readonly listForMember: (organizationId: string, userId: string, page: MemberSpacesRequest) => Effect.Effect<Pagination.Page<MemberSpace>, Denied | Errors.InvalidInput, Actor.Actor>
  /**
   * A space the caller can see. `shareKey` only resolves published URLs of share-link content
   * (as in GitBook); it never grants access.
   */
  readonly get: (spaceId: string, options?: { readonly shareKey?: string | undefined }) => Effect.Effect<SpaceAccess, Errors.NotFound, Actor.Actor>
  readonly update: (spaceId: string, update: SpaceUpdate) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Moves the space to the trash; nothing happens when it does not exist (as far as the caller knows). */
  readonly remove: (spaceId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Takes the space out of the trash, within `trashRetention` of its deletion. */
  readonly restore: (spaceId: string) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** A new space "<title> (copy)" beside the source, whose first revision shares the source's content. */
  readonly duplicate: (spaceId: string) => Effect.Effect<SpaceAccess, Denied, Actor.Actor>
  readonly move: (spaceId: string, input: MoveInput) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Moves the space to the root of another organization where the caller is an admin. */
  readonly transfer: (spaceId: string, organizationId: string) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Removes for good the spaces in the trash for longer than `trashRetention`, with their revisions; answers how many. */
  readonly purgeDeleted: Effect.Effect<number>
}

export { trashRetention } from "./spaces/SpaceTrash.ts"

export class Spaces extends Context.Service<Spaces, SpacesShape>()("@quire/content/Spaces") {
  static readonly layer = Layer.effect(
    Spaces,
    Effect.gen(function*() {
      const edit = yield* SpaceEdit.make
      const observers = yield* MainObservers
      /** Tells the observers once a change of the space's record has landed (published sites show it). */
      const observed = <A, E, R, Args extends [string, ...Array<unknown>]>(use: (...args: Args) => Effect.Effect<A, E, R>) =>
      (...args: Args): Effect.Effect<A, E, R> =>
        Effect.tap(use(...args), () => observers.spaceChanged?.(args[0]) ?? Effect.void)

      const { create, duplicate } = spaceCreation(edit)
      const { update } = spaceSettings(edit)
      const { remove, restore, purgeDeleted } = spaceTrash(edit)
      const { move, transfer } = spaceMoves(edit)
      return Spaces.of({
        ...spaceListings(edit),
        create,
        duplicate,
        update: observed(update),
        remove: observed(remove),
        restore: observed(restore),
        move: observed(move),
        transfer: observed(transfer),
        purgeDeleted
      })
    })
  )
}
