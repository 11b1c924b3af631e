/** What a change request changed: its head against the main revision it was last brought up to date with. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { changeRequestParams } from "./ChangeRequestsApi.ts"
import { ChangesQuery, RevisionSemanticChanges } from "./RevisionsApi.ts"

export class ChangeRequestChangesApi extends HttpApiGroup.make("changeRequestChanges")
  .add(
    /** The change request's changes (main's own changes since it was brought up to date do not show). */
    HttpApiEndpoint.get("getChangeRequestChanges", "/spaces/:spaceId/change-requests/:changeRequestId/changes", {
      params: changeRequestParams,
      query: ChangesQuery,
      success: RevisionSemanticChanges,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List what a change request changed",
        description: "Compares the change request's head with the main revision it was created from or last updated to, so main's own changes since do not show, and answers the changes as getRevisionSemanticChanges does (`limit`, `diff=true`). Needs view permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
