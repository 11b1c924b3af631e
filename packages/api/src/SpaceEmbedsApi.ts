/** GitBook's `space-embeds`: what Quire knows of a URL embedded in a space's pages, without fetching it. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, Text } from "./Schemas.ts"

/** GitBook's `Embed` of type `link`: a title, the site's name and maybe its icon. */
export const EmbedLink = Schema.Struct({
  type: Schema.Literal("link"),
  title: Schema.String,
  site: Schema.String,
  icon: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "EmbedLink" })

/** GitBook's `Embed` of type `rich`: a known provider's player, as the HTML of its frame. */
export const EmbedRich = Schema.Struct({
  type: Schema.Literal("rich"),
  title: Schema.String,
  site: Schema.String,
  icon: Schema.optionalKey(Schema.String),
  html: Schema.String
}).annotate({ identifier: "EmbedRich" })

/** GitBook's `Embed`: a link card, or a provider's player (`rich`). */
export const Embed = Schema.Union([EmbedLink, EmbedRich]).annotate({ identifier: "Embed" })

export class SpaceEmbedsApi extends HttpApiGroup.make("spaceEmbeds")
  .add(
    /** An embedded URL: a known provider's player (`rich`), else a link card; Quire fetches nothing. */
    HttpApiEndpoint.get("getEmbedByUrlInSpace", "/spaces/:spaceId/embed", {
      params: { spaceId: EntityId },
      query: { url: Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)) },
      success: Embed,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve an embedded URL",
        description: "Answers what Quire knows of a URL embedded in the space's pages, from the URL alone (Quire fetches nothing from outside): for a provider Quire plays in the page (YouTube, Vimeo, Loom, CodePen, Figma, Spotify, CodeSandbox) a `rich` embed whose `html` is the provider's player in a frame and whose `site` is the provider; for any other URL a `link` whose `site` is the URL's host. The `title` is the URL. 400 naming `url` for a URL that is not http or https. Needs view permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
