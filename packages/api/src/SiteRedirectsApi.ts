/** Redirects of a site: source paths the published site answers with a redirect, live or draft. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  RedirectDestination,
  RedirectInputDestination,
  RedirectOrder,
  SiteRedirectSourcePath
} from "@quire/sites/domain/Redirect"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"
import { ShareKeyQuery, siteParams } from "./SiteSchemas.ts"

/** GitBook's `SiteRedirectSourcePath`. */
export const RedirectSource = SiteRedirectSourcePath.annotate({ identifier: "SiteRedirectSourcePath" })

/** GitBook's `SiteRedirect`. */
export const SiteRedirect = Schema.Struct({
  object: Schema.Literal("site-redirect"),
  id: Schema.String,
  source: Schema.String,
  draft: Schema.Boolean,
  captureWildcard: Schema.Boolean,
  /** Served as 308 to public live traffic, 307 elsewhere; a temporary redirect is 307. */
  permanent: Schema.Boolean,
  destination: RedirectDestination,
  createdAt: Timestamp,
  /** Absent until the redirect is first updated. */
  updatedAt: Schema.optionalKey(Timestamp)
}).annotate({ identifier: "SiteRedirect" })
export type SiteRedirect = typeof SiteRedirect.Type

const redirectParams = { ...siteParams, siteRedirectId: EntityId } as const
const prefix = "/orgs/:organizationId/sites/:siteId"

/** One operation of a bulk upsert: publish a draft, or upsert (destination) or delete (null) a live or draft redirect. */
export const BulkRedirectItem = Schema.Union([
  Schema.Struct({ source: RedirectSource, intent: Schema.Literal("publish") }),
  Schema.Struct({
    source: RedirectSource,
    intent: Schema.optionalKey(Schema.Literals(["live", "draft"])),
    captureWildcard: Schema.optionalKey(Schema.Boolean),
    permanent: Schema.optionalKey(Schema.Boolean),
    destination: Schema.NullOr(RedirectInputDestination)
  })
])

const withId = (status: "created" | "updated" | "published") =>
  Schema.Struct({ status: Schema.Literal(status), source: Schema.String, draft: Schema.Boolean, id: Schema.String })

/** What happened to each item of a bulk upsert, in order. */
export const BulkRedirectResults = Schema.Struct({
  results: Schema.Array(Schema.Union([
    withId("created"),
    withId("updated"),
    Schema.Struct({ status: Schema.Literal("deleted"), source: Schema.String, draft: Schema.Boolean }),
    withId("published"),
    Schema.Struct({ status: Schema.Literal("error"), source: Schema.String, draft: Schema.Boolean, error: Schema.String })
  ]))
})

/** DELETE of a redirect: 205 when it was deleted, 204 when there was none (GitBook's answers). */
export const DeletedRedirect = Schema.Literal("deleted").pipe(
  HttpApiSchema.asNoContent({ decode: () => "deleted" as const }),
  HttpApiSchema.status(205)
)
export const AbsentRedirect = Schema.Literal("absent").pipe(
  HttpApiSchema.asNoContent({ decode: () => "absent" as const }),
  HttpApiSchema.status(204)
)

const writeErrors = [...ApiErrors.Common, ApiErrors.Conflict] as const

export class SiteRedirectsApi extends HttpApiGroup.make("siteRedirects")
  .add(
    /** The site's live redirects (or drafts), newest first unless ordered otherwise. */
    HttpApiEndpoint.get("listSiteRedirects", `${prefix}/redirects`, {
      params: siteParams,
      query: {
        ...PageQuery,
        search: Schema.optional(Text.check(Schema.isMaxLength(512))),
        draft: Schema.optional(Schema.Boolean),
        orderBy: Schema.optional(RedirectOrder)
      },
      success: ListOf(SiteRedirect),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List site redirects",
        description: "Lists the site's live redirects, or its drafts with `draft=true`; `search` keeps those whose source contains it. Any member of the organization may read them."
      })),
    /** A new redirect from a source path. */
    HttpApiEndpoint.post("createSiteRedirect", `${prefix}/redirects`, {
      params: siteParams,
      payload: Schema.Struct({
        source: RedirectSource,
        captureWildcard: Schema.optionalKey(Schema.Boolean),
        draft: Schema.optionalKey(Schema.Boolean),
        permanent: Schema.optionalKey(Schema.Boolean),
        destination: RedirectInputDestination
      }),
      success: SiteRedirect.pipe(HttpApiSchema.status(201)),
      error: writeErrors
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a site redirect",
        description: "Redirects a source path of the site to a section, a site space, a page (by id, or by its path in a space the site shows) or an outside URL. A source ending in `*` matches every path it starts. Needs the admin role."
      })),
    /** Up to 500 upserts, deletions and publications, each answered on its own. */
    HttpApiEndpoint.put("bulkUpsertSiteRedirects", `${prefix}/redirects`, {
      params: siteParams,
      payload: Schema.Struct({ redirects: Schema.Array(BulkRedirectItem).check(Schema.isMinLength(1), Schema.isMaxLength(500)) }),
      success: BulkRedirectResults,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create, update, delete or publish site redirects in bulk",
        description: "Processes up to 500 redirect operations, each on its own: the answer gives each item's status, `error` with a message for one that failed. Needs the admin role."
      })),
    /** One redirect of the site. */
    HttpApiEndpoint.get("getSiteRedirectById", `${prefix}/redirects/:siteRedirectId`, {
      params: redirectParams,
      success: SiteRedirect,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site redirect",
        description: "One redirect of the site by its id (an addition of Quire's: GitBook lists or resolves redirects by source)."
      })),
    /** Changes the given fields of a redirect. */
    HttpApiEndpoint.patch("updateSiteRedirectById", `${prefix}/redirects/:siteRedirectId`, {
      params: redirectParams,
      payload: Schema.Struct({
        source: Schema.optionalKey(RedirectSource),
        captureWildcard: Schema.optionalKey(Schema.Boolean),
        draft: Schema.optionalKey(Schema.Boolean),
        permanent: Schema.optionalKey(Schema.Boolean),
        destination: Schema.optionalKey(RedirectDestination)
      }),
      success: SiteRedirect,
      error: writeErrors
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a site redirect",
        description: "Changes only the fields given; `draft: false` promotes a draft to live. Needs the admin role."
      })),
    /** Deletes a redirect: 205 when it was deleted, 204 when there was none. */
    HttpApiEndpoint.delete("deleteSiteRedirectById", `${prefix}/redirects/:siteRedirectId`, {
      params: redirectParams,
      success: [DeletedRedirect, AbsentRedirect],
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a site redirect",
        description: "Deletes a redirect: 205 when it was deleted, 204 when it did not exist. Needs the admin role."
      })),
    /** The live redirect a path answers to, with the URL it leads to. */
    HttpApiEndpoint.get("getSiteRedirectBySource", `${prefix}/redirect`, {
      params: siteParams,
      query: { ...ShareKeyQuery, source: RedirectSource },
      success: Schema.Struct({ redirect: SiteRedirect, target: Schema.String }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Resolve a site redirect by its source path",
        description: "The live redirect the published site answers `source` with (its own, else the wildcard with the longest prefix of it), and the absolute URL it leads to. 404 when none matches."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
