/** Handlers of the change request conflicts group: list a change request's conflicts and resolve them. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { ConflictResolution } from "@quire/reviews"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "changeRequestConflicts", Effect.fn(function*(handlers) {
  const conflicts = yield* ConflictResolution
  const urls = yield* PublicUrl

  return handlers
    .handle("listChangeRequestConflicts", ({ params }) =>
      Effect.map(conflicts.list(params.spaceId, params.changeRequestId).pipe(DomainErrors.api), (found) => ({
        count: found.conflicts.length,
        items: found.conflicts.map(ChangeRequestPresenters.conflict),
        ...(found.found === null ? {} : { revision: found.found.head, mainRevision: found.found.main }),
        stale: found.stale
      })))
    .handle("resolveChangeRequestConflicts", ({ params, payload }) =>
      Effect.gen(function*() {
        const view = yield* conflicts.resolve(params.spaceId, params.changeRequestId, payload.resolutions).pipe(DomainErrors.api)
        const presenter = yield* ChangeRequestPresenters.presenter
        return yield* presenter(urls, view.changeRequest, view.outdated)
      }))
}))
