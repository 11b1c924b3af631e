/** A space's main content as a PDF, served at a signed download link. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, Url } from "./Schemas.ts"

export class SpacePdfApi extends HttpApiGroup.make("spacePdf")
  .add(
    /**
     * The space's content as a PDF: `{url}`, a download link valid for an hour or more. `page`
     * restricts it to that page and its subpages; `only` to that page alone.
     */
    HttpApiEndpoint.get("getSpacePDF", "/spaces/:spaceId/pdf", {
      params: { spaceId: EntityId },
      query: { page: Schema.optional(EntityId), only: Schema.optional(Schema.Boolean) },
      success: Schema.Struct({ url: Url }),
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
