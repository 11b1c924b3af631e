/** Handlers of the change requests group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors } from "@quire/api"
import { documentBreach, documentPageMarkdown } from "@quire/content"
import { ChangeRequests, isOutdated, Merges } from "@quire/reviews"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import { PublicUrl } from "../PublicUrl.ts"

/** The most JSON a description is sent in (its markdown is bounded again by the use case). */
export const maxDescriptionJson = 200_000

const bad = (reason: string) => ApiErrors.BadRequest.of(`description: ${reason}`, "description")

/** Whether a checked document holds nothing: no blocks, or paragraphs of blank text only (what an emptied editor sends). */
const blank = (nodes: ReadonlyArray<unknown>): boolean =>
  nodes.every((node) => {
    const n = node as { readonly object?: unknown; readonly type?: unknown; readonly nodes?: ReadonlyArray<unknown>; readonly leaves?: ReadonlyArray<{ readonly text: string }> }
    if (n.object === "text") return (n.leaves ?? []).every((leaf) => leaf.text.trim() === "")
    return n.object === "block" && n.type === "paragraph" && blank(n.nodes ?? [])
  })

/**
 * A PATCH's description, GitBook's JSON document, as the markdown stored (null for a blank one: it
 * clears the description); a 400 naming
 * `description` when it is too large or holds a node that is no GitBook block or inline.
 */
const descriptionMarkdown = (document: { readonly nodes: ReadonlyArray<unknown> }): Effect.Effect<string | null, ApiErrors.BadRequest> => {
  const size = JSON.stringify(document).length
  if (size > maxDescriptionJson) return Effect.fail(bad(`is at most ${maxDescriptionJson.toLocaleString("en")} characters of JSON (${size.toLocaleString("en")} sent)`))
  const breach = documentBreach(document, "description")
  if (breach !== undefined) return Effect.fail(ApiErrors.BadRequest.of(`${breach.field}: ${breach.reason}`, breach.field))
  if (blank(document.nodes)) return Effect.succeed(null)
  return Effect.try({
    try: () => documentPageMarkdown(document as Parameters<typeof documentPageMarkdown>[0]),
    catch: (error) => bad(`a node is not a GitBook block or inline (${error instanceof Error ? error.message : String(error)})`)
  })
}

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
      Effect.gen(function*() {
        const { description, links, ...rest } = payload
        const input = {
          ...rest,
          ...(description === undefined ? {} : { description: yield* descriptionMarkdown(description) }),
          ...(links === undefined ? {} : { links: links.map((link) => ({ id: link.id, url: link.ref.url, title: link.title })) })
        }
        return yield* changeRequests.update(params.spaceId, params.changeRequestId, input).pipe(DomainErrors.api, Effect.flatMap(present))
      }))
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
