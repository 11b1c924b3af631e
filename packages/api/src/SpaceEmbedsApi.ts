/** GitBook's `space-embeds`: what Quire knows of a URL embedded in a space's pages, without fetching it. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, Text } from "./Schemas.ts"

/** GitBook's `Embed` of type `link`: a title, the site's name and maybe its icon. */
export const Embed = Schema.Struct({
  type: Schema.Literal("link"),
  title: Schema.String,
  site: Schema.String,
  icon: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "Embed" })

export class SpaceEmbedsApi extends HttpApiGroup.make("spaceEmbeds")
  .add(
    /** An embedded URL as a link: Quire plays known providers in the page and fetches nothing. */
    HttpApiEndpoint.get("getEmbedByUrlInSpace", "/spaces/:spaceId/embed", {
      params: { spaceId: EntityId },
      query: { url: Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)) },
      success: Embed,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve an embedded URL",
        description: "Answers what Quire knows of a URL embedded in the space's pages, from the URL alone (Quire fetches nothing from outside): a `link` whose `site` is the provider Quire plays in the page (YouTube, Vimeo, Loom, CodePen, Figma, Spotify, CodeSandbox) or the URL's host, and whose `title` is the URL. 400 naming `url` for a URL that is not http or https. Needs view permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
