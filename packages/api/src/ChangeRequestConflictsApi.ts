/**
 * The conflicts of a change request, and their resolution by a writer. Quire's own operations
 * (GitBook's API has none for conflicts): see "Change requests" in docs/reviews.md.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConflictTake } from "@quire/reviews/domain/MergeConflict"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { maxBatchMarkdown, maxPageMarkdown } from "./ChangeRequestContentApi.ts"
import { ChangeRequest, changeRequestParams, MergeConflict } from "./ChangeRequestsApi.ts"
import { requestExample } from "./RequestExample.ts"
import { Text } from "./Schemas.ts"

export { ConflictTake }

/** The conflicts a change request's last merge or update found, kept until they are resolved or it changes. */
export const ChangeRequestConflicts = Schema.Struct({
  count: Schema.Finite,
  items: Schema.Array(MergeConflict),
  /** The change request's revision the conflicts were found on (absent without conflicts). */
  revision: Schema.optionalKey(Schema.String),
  /** Main's revision the conflicts were found against (absent without conflicts). */
  mainRevision: Schema.optionalKey(Schema.String),
  /** True when main moved since they were found: update the change request again, then resolve what it reports. */
  stale: Schema.Boolean
}).annotate({ identifier: "ChangeRequestConflicts" })

/** A writer's answer to one conflict. */
export const ConflictResolutionInput = Schema.Struct({
  /** The conflict's id (`c1`, `c2`, …). */
  conflict: Text.check(Schema.isMinLength(1), Schema.isMaxLength(20)),
  /** Main's side, the change request's, or `markdown` (content conflicts only). */
  take: ConflictTake,
  /** With `take: "markdown"`: the lines that replace the conflict's hunk ("" removes them). */
  markdown: Schema.optionalKey(Text.check(Schema.isMaxLength(maxPageMarkdown)))
}).annotate({ identifier: "ConflictResolution" })
export type ConflictResolutionInput = typeof ConflictResolutionInput.Type

/** 1 to 1,000 resolutions, whose markdown totals at most `maxBatchMarkdown` characters. */
const Resolutions = Schema.Array(ConflictResolutionInput).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(1000),
  Schema.makeFilter((resolutions: ReadonlyArray<ConflictResolutionInput>) => {
    const total = resolutions.reduce((sum, r) => sum + (r.markdown?.length ?? 0), 0)
    return total <= maxBatchMarkdown ? undefined : `the resolutions' markdown totals ${total} characters; a call holds at most ${maxBatchMarkdown}`
  })
)

const path = "/spaces/:spaceId/change-requests/:changeRequestId/conflicts"

export class ChangeRequestConflictsApi extends HttpApiGroup.make("changeRequestConflicts")
  .add(
    /** The conflicts the change request's last merge or update found, each with its id and, for content, its hunk. */
    HttpApiEndpoint.get("listChangeRequestConflicts", path, {
      params: changeRequestParams,
      success: ChangeRequestConflicts,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a change request's conflicts",
        description: "Lists the conflicts the change request's last merge or update found, each with an id (c1, c2, …); a content conflict carries one hunk: the ancestor's, main's and the change request's lines. `stale` says main moved since they were found. Needs view permission."
      })),
    /** Resolves every conflict at once: one revision of the change request with main as second parent; the next merge is clean. */
    HttpApiEndpoint.post("resolveChangeRequestConflicts", `${path}/resolve`, {
      params: changeRequestParams,
      payload: Schema.Struct({ resolutions: Resolutions }),
      success: ChangeRequest,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve a change request's conflicts",
        description: "Settles every conflict in one call, each by taking main's side, the change request's, or (content conflicts) markdown that replaces the hunk's lines. The result is one revision of the change request with main as its second parent, holding main's other changes too, so the next merge is clean. Answers 409 when main or the change request moved since the conflicts were found: update again. Needs edit permission.",
        transform: requestExample({ resolutions: [{ conflict: "c1", take: "markdown", markdown: "The combined paragraph." }, { conflict: "c2", take: "main" }] })
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
