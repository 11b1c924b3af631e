/** Handlers of the change request changes group: what a change request changed. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SpaceContent } from "@quire/content"
import { ChangeRequests } from "@quire/reviews"
import * as ChangePresenters from "../ChangePresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { FileLinks } from "../FileLinks.ts"
import { defaultChangesLimit } from "./RevisionsHandlers.ts"

export const layer = HttpApiBuilder.group(Api, "changeRequestChanges", Effect.fn(function*(handlers) {
  const changeRequests = yield* ChangeRequests
  const content = yield* SpaceContent
  const links = yield* FileLinks
  return handlers
    .handle("getChangeRequestChanges", ({ params, query }) =>
      Effect.gen(function*() {
        const found = yield* changeRequests.content(params.spaceId, params.changeRequestId).pipe(DomainErrors.api)
        // Against the main revision the change request was made from or last updated to, so that
        // main's own changes since then do not show as the change request's.
        const base = yield* content.revisionById(found.changeRequest.revisionMergedAncestor).pipe(Effect.orDie)
        const list = yield* content.changes(base, found.revision, { limit: query.limit ?? defaultChangesLimit, diff: query.diff ?? false })
        const sign = yield* links.signer
        return ChangePresenters.changes(list, (f) => sign(params.spaceId, f))
      }))
}))
