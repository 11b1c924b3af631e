/**
 * A revision as GitBook answers it: a merge revision names the change request it merged
 * (`mergedFrom`, which GitBook's schema requires of one). A merge whose change request is gone is
 * shown as edits: its content is what it is, and nothing else names it.
 */
import { Effect, Option } from "effect"
import type { Revision as RevisionResponse } from "@quire/api"
import { ChangeRequests } from "@quire/reviews"
import * as ChangeRequestPresenters from "./ChangeRequestPresenters.ts"
import * as DomainErrors from "./DomainErrors.ts"
import { PublicUrl } from "./PublicUrl.ts"

export const withMergedFrom = Effect.fnUntraced(function*(spaceId: string, response: RevisionResponse) {
  if (response.type !== "merge") return response
  const merged = yield* (yield* ChangeRequests).mergedInto(spaceId, response.id).pipe(DomainErrors.api)
  if (Option.isNone(merged)) return { ...response, type: "edits" as const }
  const present = yield* ChangeRequestPresenters.presenter
  return { ...response, mergedFrom: yield* present(yield* PublicUrl, merged.value.changeRequest, merged.value.outdated) }
})
