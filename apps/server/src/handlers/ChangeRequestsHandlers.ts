/** Handlers of the change requests group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { ChangeRequests, isOutdated, Merges } from "@quire/reviews"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "changeRequests", Effect.fn(function*(handlers) {
  const changeRequests = yield* ChangeRequests
  const merges = yield* Merges
  const urls = yield* PublicUrl
  const fileLinks = yield* FileLinks

  const present = Effect.fnUntraced(function*(view: { readonly changeRequest: Parameters<typeof ChangeRequestPresenters.changeRequest>[1]; readonly outdated: boolean }) {
    const presenter = yield* ChangeRequestPresenters.presenter
    return yield* presenter(urls, view.changeRequest, view.outdated)
  })

  return handlers
    .handle("listChangeRequestsForSpace", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.list(params.spaceId, query).pipe(DomainErrors.api)
        const presenter = yield* ChangeRequestPresenters.presenter
        const items = yield* Effect.forEach(found.items.items, (cr) =>
          presenter(urls, cr, isOutdated(cr, found.spaceRevision)))
        return {
          ...(found.items.next === undefined ? {} : { next: { page: found.items.next } }),
          count: items.length,
          items
        }
      }))
    .handle("listChangeRequestsForOrganization", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.listForOrganization(params.organizationId, query).pipe(DomainErrors.api)
        const items = yield* Effect.forEach(found.items, present)
        return { ...(found.next === undefined ? {} : { next: { page: found.next } }), count: items.length, items }
      }))
    .handle("createChangeRequest", ({ params, payload }) =>
      changeRequests.create(params.spaceId, payload).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("getChangeRequestById", ({ params }) =>
      changeRequests.get(params.spaceId, params.changeRequestId).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("updateChangeRequestById", ({ params, payload }) =>
      changeRequests.update(params.spaceId, params.changeRequestId, payload).pipe(DomainErrors.api, Effect.flatMap(present)))
    .handle("getChangeRequestPDF", ({ params, query }) =>
      Effect.gen(function*() {
        const rendered = yield* changeRequests.pdf(params.spaceId, params.changeRequestId, query).pipe(DomainErrors.api)
        const sign = yield* fileLinks.signer
        const cr = rendered.changeRequest
        return {
          url: sign(cr.spaceId, {
            id: `change-request-pdf:${cr.id}`,
            blob: rendered.blob,
            contentType: "application/pdf",
            name: `${cr.number}.pdf`
          })
        }
      }))
    .handle("mergeChangeRequest", ({ params }) =>
      merges.merge(params.spaceId, params.changeRequestId).pipe(DomainErrors.api, Effect.map(ChangeRequestPresenters.mergeResult("merge"))))
    .handle("updateChangeRequest", ({ params }) =>
      merges.update(params.spaceId, params.changeRequestId).pipe(DomainErrors.api, Effect.map(ChangeRequestPresenters.mergeResult("update"))))
}))
