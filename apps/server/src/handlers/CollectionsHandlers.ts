/** Handlers of the collections group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { type CollectionAccess, Collections, Spaces } from "@quire/content"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { SpaceViews } from "../SpaceViews.ts"

export const layer = HttpApiBuilder.group(Api, "collections", Effect.fn(function*(handlers) {
  const collections = yield* Collections
  const spaces = yield* Spaces
  const urls = yield* PublicUrl
  const views = yield* SpaceViews
  const present = (access: CollectionAccess) => Presenters.collection(urls, access)
  return handlers
    .handle("listCollectionsInOrganizationById", ({ params, query }) =>
      collections.list(params.organizationId, { nested: query.nested ?? true }, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, present))
      ))
    .handle("createCollection", ({ params, payload }) =>
      collections.create(params.organizationId, payload ?? {}).pipe(DomainErrors.api, Effect.map(present)))
    .handle("getCollectionById", ({ params }) =>
      collections.get(params.collectionId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateCollectionById", ({ params, payload }) =>
      collections.update(params.collectionId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("deleteCollectionById", ({ params }) => collections.remove(params.collectionId).pipe(DomainErrors.api))
    .handle("listSpacesInCollectionById", ({ params, query }) =>
      spaces.listInCollection(params.collectionId, query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) => views.page(page, (access) => access, (_, space) => space))
      ))
    .handle("moveCollection", ({ params, payload }) =>
      collections.move(params.collectionId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("transferCollection", ({ params, payload }) =>
      collections.transfer(params.collectionId, payload.organization).pipe(DomainErrors.api, Effect.map(present)))
}))
