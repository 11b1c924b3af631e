/** Use cases that read spaces: one space, an organization's, a collection's and a member's, each as the caller may see them. */
import { Effect, Option } from "effect"
import { Actor, Pagination, Roles } from "@quire/kernel"
import * as Access from "../Access.ts"
import type { SpaceAccess } from "../ContentAccess.ts"
import type { MemberSpacesRequest } from "./SpaceTypes.ts"
import { spaceKey, spaceKeyShape } from "../SpacesRepo.ts"
import { visiblePage } from "../Tree.ts"
import type { SpaceEdit } from "./SpaceEdit.ts"

/** The space when the caller may view it. */
const viewable = (space: SpaceAccess): Option.Option<SpaceAccess> => space.permissions.view ? Option.some(space) : Option.none()

export const spaceListings = (edit: SpaceEdit) => {
  const { repo, access, organization } = edit

  const list = Effect.fn("Spaces.list")(function*(organizationId: string, page: Pagination.PageRequest) {
    const resolver = yield* organization(organizationId)
    const after = yield* Pagination.afterOf(page, spaceKeyShape)
    return yield* visiblePage(
      (cursor, limit) => repo.list({ organizationId }, cursor, limit),
      spaceKey,
      (space) => Effect.map(resolver.ofSpace(space), viewable),
      after,
      Pagination.limitOf(page)
    )
  })

  const listInCollection = Effect.fn("Spaces.listInCollection")(function*(collectionId: string, page: Pagination.PageRequest) {
    const { collection } = yield* access.collection(collectionId)
    const resolver = yield* access.inOrganization(collection.organizationId)
    const after = yield* Pagination.afterOf(page, spaceKeyShape)
    return yield* visiblePage(
      (cursor, limit) => repo.list({ organizationId: collection.organizationId, parentId: collection.id }, cursor, limit),
      spaceKey,
      (space) => Effect.map(resolver.ofSpace(space), viewable),
      after,
      Pagination.limitOf(page)
    )
  })

  const listForMember = Effect.fn("Spaces.listForMember")(function*(
    organizationId: string,
    userId: string,
    page: MemberSpacesRequest
  ) {
    const actor = yield* Actor.Actor
    const caller = yield* organization(organizationId)
    if (actor.userId !== userId) {
      yield* Access.ensure(Roles.atLeast(Option.getOrNull(caller.organizationRole), "read"), "list the spaces of other members")
    }
    const member = yield* organization(organizationId, userId)
    const after = yield* Pagination.afterOf(page, spaceKeyShape)
    return yield* visiblePage(
      (cursor, limit) => repo.list({ organizationId, order: page.order ?? "desc" }, cursor, limit),
      spaceKey,
      (space) =>
        Effect.gen(function*() {
          const theirs = yield* member.ofSpace(space)
          const mine = yield* caller.ofSpace(space)
          return theirs.role !== null && theirs.permissions.view && mine.permissions.view
            ? Option.some({ permission: theirs.role, space: mine })
            : Option.none()
        }),
      after,
      Pagination.limitOf(page)
    )
  })

  const get = Effect.fn("Spaces.get")(function*(spaceId: string, _options?: { readonly shareKey?: string | undefined }) {
    return yield* access.space(spaceId)
  })

  return { list, listInCollection, listForMember, get }
}
