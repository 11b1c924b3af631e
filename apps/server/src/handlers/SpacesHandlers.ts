/** Handlers of the spaces group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type SpaceAccess, Spaces } from "@quire/content"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "spaces", Effect.fn(function*(handlers) {
  const spaces = yield* Spaces
  const urls = yield* PublicUrl
  const present = (access: SpaceAccess) => Presenters.space(urls, access)
  return handlers
    .handle("createSpace", ({ params, payload }) =>
      spaces.create(params.organizationId, payload ?? {}).pipe(DomainErrors.api, Effect.map(present)))
    .handle("listSpacesInOrganizationById", ({ params, query }) =>
      spaces.list(params.organizationId, query).pipe(DomainErrors.api, Effect.map((page) => Presenters.list(page, present))))
    .handle("listSpacesForOrganizationMember", ({ params, query }) =>
      spaces.listForMember(params.organizationId, params.userId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, (item) => ({ permission: item.permission, space: present(item.space) })))
      ))
    .handle("getSpaceById", ({ params, query }) =>
      spaces.get(params.spaceId, { shareKey: query.shareKey }).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateSpaceById", ({ params, payload }) =>
      spaces.update(params.spaceId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("deleteSpaceById", ({ params }) => spaces.remove(params.spaceId).pipe(DomainErrors.api))
    .handle("duplicateSpace", ({ params }) =>
      spaces.duplicate(params.spaceId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("restoreSpace", ({ params }) =>
      spaces.restore(params.spaceId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("moveSpace", ({ params, payload }) =>
      spaces.move(params.spaceId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("transferSpace", ({ params, payload }) =>
      spaces.transfer(params.spaceId, payload.organization).pipe(DomainErrors.api, Effect.map(present)))
}))
