/**
 * GitBook's `urls` operations: what a published site's URL shows a visitor, with a short-lived
 * token that reads exactly that (the call a site renderer makes first for every request); what an
 * app URL or a published URL is in the caller's content; what an embedded URL is.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { ChangeRequest } from "./ChangeRequestsApi.ts"
import { Collection } from "./CollectionsApi.ts"
import { Text } from "./Schemas.ts"
import { RevisionPage } from "./SpaceContentApi.ts"
import { Embed } from "./SpaceEmbedsApi.ts"
import { Space } from "./SpacesApi.ts"

/** GitBook's `SiteVisitorPayload`: a visitor's signed token and their unsigned claims. */
export const SiteVisitorPayload = Schema.Struct({
  type: Schema.optionalKey(Schema.Literals(["human", "agent"])),
  jwtToken: Schema.optionalKey(Text.check(Schema.isMaxLength(16_384))),
  unsignedClaims: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})

/** GitBook's `PublishedSiteContent`. */
export const PublishedSiteContent = Schema.Struct({
  site: Schema.String,
  siteSection: Schema.optionalKey(Schema.String),
  siteSpace: Schema.String,
  space: Schema.String,
  changeRequest: Schema.optionalKey(Schema.String),
  revision: Schema.optionalKey(Schema.String),
  pathname: Schema.String,
  basePath: Schema.String,
  siteBasePath: Schema.String,
  apiToken: Schema.String,
  organization: Schema.String,
  shareKey: Schema.optionalKey(Schema.String),
  complete: Schema.Boolean,
  contextId: Schema.optionalKey(Schema.String),
  canonicalUrl: Schema.String,
  preview: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "PublishedSiteContent" })

/** GitBook's `PublishedContentRedirect` to an external resource: a visitor-auth site's sign-in. */
export const PublishedContentRedirect = Schema.Struct({
  target: Schema.Literal("external"),
  site: Schema.String,
  redirect: Schema.String
}).annotate({ identifier: "PublishedContentRedirect" })

export class UrlsApi extends HttpApiGroup.make("urls")
  .add(
    /** The site, section, site space, space and revision a published URL shows a visitor, with a token reading only that. */
    HttpApiEndpoint.post("resolvePublishedContentByUrl", "/urls/published", {
      payload: Schema.Struct({
        url: Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)),
        redirectOnError: Schema.optionalKey(Schema.Boolean),
        visitor: Schema.optionalKey(SiteVisitorPayload),
        /**
         * Ignored: GitBook's renderer adds it to get past a cache of this call when the token it got
         * has expired; Quire does not cache the answer, so each call mints a token anyway.
         */
        cacheBust: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)))
      }),
      success: Schema.Union([PublishedSiteContent, PublishedContentRedirect]),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve a URL of a published site",
        description: "Answers what a URL of a site published on this server (`/~sites/<siteId>/...` or a site's own hostname) shows a visitor: the site, section, site space, space and revision, the page path below the site space (`pathname`) and the URL's prefixes, decided as the published site decides it (share key in the URL's `share`, the visitor's `jwtToken` for sites with authenticated access, `unsignedClaims` for adaptive content). `apiToken` is a token of one hour that reads only what the site shows that visitor: the current content of those spaces, through the operations a site renderer calls. 404 when no published site answers the URL; 403 when the visitor may not read it (with `redirectOnError`, a site with a sign-in fallback URL answers the redirect instead).",
        transform: requestExample({ url: "https://docs.example.com/getting-started" })
      })),
    /** `resolvePublishedContentByUrl` as GitBook's `GET` form: the URL and the visitor's token in the query. */
    HttpApiEndpoint.get("getPublishedContentByUrl", "/urls/published", {
      query: {
        url: Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)),
        visitorAuthToken: Schema.optional(Text.check(Schema.isMaxLength(16_384))),
        redirectOnError: Schema.optional(Schema.Boolean)
      },
      success: Schema.Union([PublishedSiteContent, PublishedContentRedirect]),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve a published URL (query form)",
        description: "As `resolvePublishedContentByUrl`, with the URL, the visitor's token (`visitorAuthToken`) and `redirectOnError` in the query: the site, section, site space, space and revision the URL shows that visitor, with a token of one hour reading only that. 404 when no site published here answers the URL; 403 when the visitor may not read it. Needs no token."
      })),
    /** What an app URL (a space, a page, a change request, a collection) or a published URL names, as the caller sees it. */
    HttpApiEndpoint.get("getContentByUrl", "/urls/content", {
      query: { url: Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)) },
      success: Schema.Union([
        Schema.Struct({ collection: Collection }),
        Schema.Struct({ space: Space, changeRequest: Schema.optionalKey(ChangeRequest), page: Schema.optionalKey(RevisionPage) })
      ]),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve a URL to content",
        description: "Answers what a URL of this server names, as the caller may read it: an app URL of a collection (`/o/<org>/c/<id>`) answers `collection`; of a space (`/s/<id>`), one of its pages (`/s/<id>/<path>`) or a change request and its page (`/s/<id>/~/changes/<number>/<path>`) answers `space` with `changeRequest` and `page`; a URL of a site published here answers the space and page it shows. 404 when the URL names nothing the caller may read (another organization's content included); 400 naming `url` for a URL that is not absolute or not on this server."
      })),
    /** What Quire knows of any URL as an embed, from the URL alone. */
    HttpApiEndpoint.get("getEmbedByUrl", "/urls/embed", {
      query: { url: Text.check(Schema.isMinLength(1), Schema.isMaxLength(2048)) },
      success: Embed,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve an embed URL",
        description: "As `getEmbedByUrlInSpace`, outside any space: a provider Quire plays (YouTube, Vimeo, Loom, CodePen, Figma, Spotify, CodeSandbox) answers a `rich` embed with the player's frame in `html`, any other URL a `link` whose `site` is its host; Quire fetches nothing. 400 naming `url` for a URL that is not http or https. Needs a signed-in caller."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
