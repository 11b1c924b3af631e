/** Handlers of the spaces group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type SpaceAccess, Spaces } from "@quire/content"
import * as DomainErrors from "../DomainErrors.ts"
import { SpaceViews } from "../SpaceViews.ts"
import { spacePublishedUrl } from "./SiteContexts.ts"

const itself = (access: SpaceAccess) => access

export const layer = HttpApiBuilder.group(Api, "spaces", Effect.fn(function*(handlers) {
  const spaces = yield* Spaces
  const views = yield* SpaceViews
  const present = (access: SpaceAccess) => views.one(access)
  const publishedUrl = yield* spacePublishedUrl
  return handlers
    .handle("createSpace", ({ params, payload }) =>
      spaces.create(params.organizationId, payload ?? {}).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("listSpacesInOrganizationById", ({ params, query }) =>
      spaces.list(params.organizationId, query).pipe(DomainErrors.api, Effect.flatMap((page) => views.page(page, itself, (_, space) => space))))
    .handle("listSpacesForOrganizationMember", ({ params, query }) =>
      spaces.listForMember(params.organizationId, params.userId, query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) => views.page(page, (item) => item.space, (item, space) => ({ permission: item.permission, space })))
      ))
    .handle("getSpaceById", ({ params, query }) =>
      spaces.get(params.spaceId, { shareKey: query.shareKey }).pipe(
        DomainErrors.api,
        Effect.flatMap(present),
        // `urls.published`: where a published site shows the space (`shareKey` resolves share-link sites).
        Effect.flatMap((space) =>
          Effect.map(publishedUrl(space.organization, space.id, query.shareKey), (published) =>
            published === undefined ? space : { ...space, urls: { ...space.urls, published } })
        )
      ))
    .handle("updateSpaceById", ({ params, payload }) =>
      spaces.update(params.spaceId, payload).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("deleteSpaceById", ({ params }) => spaces.remove(params.spaceId).pipe(DomainErrors.api))
    .handle("duplicateSpace", ({ params }) =>
      spaces.duplicate(params.spaceId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("restoreSpace", ({ params }) =>
      spaces.restore(params.spaceId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("moveSpace", ({ params, payload }) =>
      spaces.move(params.spaceId, payload).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("transferSpace", ({ params, payload }) =>
      spaces.transfer(params.spaceId, payload.organization).pipe(DomainErrors.api, Effect.flatMap(present)))
}))
