/** A space's main content as a PDF, or as a zip of markdown in GitBook's layout, served at a signed download link. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
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
      .annotateMerge(OpenApi.annotations({
        summary: "Export the space as a PDF",
        description: "Renders the main content to a PDF (every page in tree order, or `page` and its subpages, or with `only` that page alone) in embedded Unicode fonts, and answers `{url}`, a download link valid for at least an hour. Needs view permission."
      })),
    /**
     * Quire's extension: the space's content as a zip of GitBook markdown, the files Git sync would
     * push to an empty repository: `{url}`, a download link valid for an hour or more.
     */
    HttpApiEndpoint.get("getSpaceMarkdownArchive", "/spaces/:spaceId/archive", {
      params: { spaceId: EntityId },
      success: Schema.Struct({ url: Url }),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Export the space as markdown",
        description: "Quire's extension. Writes the main content as a zip of GitBook's layout (README.md, SUMMARY.md, a markdown file per page with its frontmatter, .gitbook/assets and .gitbook/includes), the files Git sync would push to an empty repository (for a space imported from Git: the files it was imported with, and its changes since), and answers `{url}`, a download link valid for at least an hour. Needs view permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
