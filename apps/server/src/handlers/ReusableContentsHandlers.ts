/**
 * Handlers of the reusable contents group: one by id in the main content, a revision or a change
 * request, and its JSON document; Quire's list and writes in a change request.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { pageDocumentEffect, ParsePool, type RevisionReusableContent, SpaceContent } from "@quire/content"
import { Actor } from "@quire/kernel"
import { ChangeRequests, type ReusableContentEdit } from "@quire/reviews"
import { adaptMarkdown, evaluateConditions } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { reusableContent } from "../ReusableContentPresenters.ts"

interface ReadQuery {
  readonly metadata?: boolean | undefined
  readonly format?: "markdown" | undefined
}

const present = (found: RevisionReusableContent, query: ReadQuery) =>
  reusableContent(found.node, { metadata: query.metadata ?? true }, query.format === "markdown" ? found.markdown : undefined)

export const layer = HttpApiBuilder.group(Api, "reusableContents", Effect.fn(function*(handlers) {
  const content = yield* SpaceContent
  const changeRequests = yield* ChangeRequests
  const pool = yield* ParsePool

  /** The reusable content of a revision of the space (NotFound for another space's revision). */
  const inRevision = (params: { readonly spaceId: string; readonly revisionId: string; readonly reusableContentId: string }) =>
    content.revisionOf(params.spaceId, params.revisionId).pipe(
      Effect.flatMap((found) => content.reusableContentIn(found.revision, params.reusableContentId)),
      DomainErrors.api
    )

  /** The reusable content an edit wrote, read back from the change request's new revision with its markdown. */
  const written = (params: { readonly spaceId: string; readonly changeRequestId: string }, edit: ReusableContentEdit) =>
    Effect.gen(function*() {
      const done = yield* changeRequests.editReusableContent(params.spaceId, params.changeRequestId, edit).pipe(DomainErrors.api)
      if (done.node === undefined) return yield* Effect.die(new Error("A reusable content edit wrote no node"))
      return present(yield* content.reusableContentIn(done.revision, done.node.id).pipe(DomainErrors.api), { format: "markdown" })
    })

  return handlers
    .handle("getReusableContentById", ({ params, query }) =>
      content.reusableContent(params.spaceId, params.reusableContentId).pipe(DomainErrors.api, Effect.map((found) => present(found, query))))
    .handle("listReusableContents", ({ params }) =>
      content.reusableContents(params.spaceId).pipe(DomainErrors.api, Effect.map((found) => ({ items: found.items.map((read) => present(read, { format: "markdown" })) })))
    )
    .handle("getReusableContentInRevisionById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* inRevision(params)
        // A published site's reader reads its markdown with the branches the visitor's claims open, as its document.
        const reader = (yield* Actor.Actor).siteReader
        return present(reader === undefined ? found : { ...found, markdown: adaptMarkdown(found.markdown, reader.claims).markdown }, query)
      }))
    .handle("getReusableContentDocumentInRevisionById", ({ params }) =>
      Effect.gen(function*() {
        const found = yield* inRevision(params)
        // Its links resolve as a top-level page's would: a reusable content has no place in the tree.
        const document = yield* pageDocumentEffect({ revision: found.revision, path: "", markdown: found.markdown }).pipe(Effect.provideService(ParsePool, pool))
        // A published site's reader is shown it as the site shows its visitor: conditions evaluated.
        const reader = (yield* Actor.Actor).siteReader
        return reader === undefined ? document : evaluateConditions(document, reader.claims)
      }))
    .handle("getReusableContentInChangeRequestById", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.content(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        return present(yield* content.reusableContentIn(found.revision, params.reusableContentId).pipe(DomainErrors.api), query)
      }))
    .handle("listReusableContentsInChangeRequest", ({ params }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.content(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        const items = yield* Effect.forEach(found.revision.reusableContents ?? [], (node) =>
          content.reusableContentIn(found.revision, node.id).pipe(DomainErrors.api, Effect.map((read) => present(read, { format: "markdown" }))))
        return { items }
      }))
    .handle("createReusableContentInChangeRequest", ({ params, payload }) =>
      written(params, { kind: "create", title: payload.title, markdown: payload.markdown ?? "" }))
    .handle("updateReusableContentInChangeRequest", ({ params, payload }) =>
      written(params, { kind: "update", id: params.reusableContentId, title: payload.title, markdown: payload.markdown }))
    .handle("deleteReusableContentInChangeRequest", ({ params }) =>
      changeRequests.editReusableContent(params.spaceId, params.changeRequestId, { kind: "delete", id: params.reusableContentId }).pipe(
        DomainErrors.api,
        Effect.asVoid
      ))
}))
