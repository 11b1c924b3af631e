/** Handlers of the site export group: a signed link to the published site as a zip of static files (SiteExportRoute.ts). */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SiteExports } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { exportName, SiteExportLinks } from "../SiteExportRoute.ts"

export const layer = HttpApiBuilder.group(Api, "siteExport", Effect.fn(function*(handlers) {
  const exports = yield* SiteExports
  const links = yield* SiteExportLinks
  return handlers.handle("exportSite", ({ params }) =>
    Effect.gen(function*() {
      const plan = yield* exports.plan(params.organizationId, params.siteId).pipe(DomainErrors.api)
      return {
        object: "site-export" as const,
        url: yield* links.sign(params.organizationId, plan.site.site.id),
        name: exportName(plan.site.site.title, plan.site.site.id),
        visibility: plan.visibility,
        notice: plan.notice ?? null
      }
    }))
}))
