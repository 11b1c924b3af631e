/** A published site as static files: a zip built as it downloads, behind a signed link (Quire's extension). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { SiteVisibility } from "@quire/sites/domain/Site"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { Url } from "./Schemas.ts"
import { siteParams } from "./SiteSchemas.ts"

/** What `exportSite` answers: where the zip downloads from and what part of the site it holds. */
export const SiteExportLink = Schema.Struct({
  object: Schema.Literal("site-export"),
  /** A download link of the zip, valid for at least an hour; the zip is built as it downloads. */
  url: Url,
  /** The file name the zip downloads as. */
  name: Schema.String,
  visibility: SiteVisibility,
  /** Null for a public site; else what the export holds of it (only what its public audience sees). */
  notice: Schema.NullOr(Schema.String)
}).annotate({ identifier: "SiteExportLink" })

export class SiteExportApi extends HttpApiGroup.make("siteExport")
  .add(
    /** Quire's extension: the published site as static files, a zip behind a signed link. */
    HttpApiEndpoint.get("exportSite", "/orgs/:organizationId/sites/:siteId/export", {
      params: siteParams,
      success: SiteExportLink,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Export the published site as static files",
        description:
          "Quire's extension. Answers a download link (valid for at least an hour) of a zip of the published site as static files: every page as the site draws it (`<page>/index.html`), each page's markdown (`<page>.md`), `sitemap.xml`, `robots.txt`, `llms.txt`, `llms-full.txt`, the assets and files the pages load, and a search index with a script that answers the site's search box offline. Links between the files are relative, so the export works from a file system, a subdirectory or any static host. A site read with a share link or visitor authentication exports only what its public audience sees (a reader without claims), and `notice` says so. The zip is built as it downloads. Needs the site role `edit` (editors and admins of the site, organization admins); 409 while the site is unpublished."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
