/** Handlers of the site redirects group. */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { PublishedSites, type SiteRedirect, SiteRedirects, SiteRenderer, Sites, siteRoot, withCapture } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import * as SiteContexts from "./SiteContexts.ts"

/** GitBook's `SiteRedirect`. */
const present = (r: SiteRedirect) => ({
  object: "site-redirect" as const,
  id: r.id,
  source: r.source,
  draft: r.draft,
  captureWildcard: r.captureWildcard,
  permanent: r.permanent,
  destination: r.destination,
  createdAt: r.createdAt.toISOString(),
  ...(r.updatedAt === null ? {} : { updatedAt: r.updatedAt.toISOString() })
})

export const layer = HttpApiBuilder.group(Api, "siteRedirects", Effect.fn(function*(handlers) {
  const redirects = yield* SiteRedirects
  const sites = yield* Sites
  const published = yield* PublishedSites
  const renderer = yield* SiteRenderer
  const contexts = yield* SiteContexts.make

  /**
   * The absolute URL a matched redirect leads to, as an anonymous reader of the published site
   * would be sent (a share-link site's with the caller's valid `shareKey`); an unpublished site's
   * own destinations lead to its root, where it would be published.
   */
  const targetOf = Effect.fnUntraced(function*(organizationId: string, siteId: string, redirect: SiteRedirect, rest: string, shareKey: string | undefined) {
    if (redirect.destination.kind === "external") return withCapture(redirect.destination.url, redirect, rest)
    const { site } = yield* sites.get(organizationId, siteId)
    const root = siteRoot(site, contexts.urls.base)
    const live = yield* published.byId(siteId)
    const found = Option.isNone(live) ? undefined : yield* renderer.redirectTarget(live.value, root, redirect.destination)
    const url = new URL(withCapture(found ?? root, redirect, rest))
    const shareSecret = yield* contexts.shareSecretOf(siteId, shareKey)
    if (site.visibility === "share-link" && shareSecret !== undefined) url.searchParams.set("share", shareSecret)
    return url.toString()
  })

  return handlers
    .handle("listSiteRedirects", ({ params, query }) =>
      redirects.list(params.organizationId, params.siteId, query).pipe(DomainErrors.api, Effect.map((page) => Presenters.list(page, present))))
    .handle("createSiteRedirect", ({ params, payload }) =>
      redirects.create(params.organizationId, params.siteId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("bulkUpsertSiteRedirects", ({ params, payload }) =>
      redirects.bulkUpsert(params.organizationId, params.siteId, payload.redirects).pipe(DomainErrors.api, Effect.map((results) => ({ results }))))
    .handle("getSiteRedirectById", ({ params }) =>
      redirects.get(params.organizationId, params.siteId, params.siteRedirectId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateSiteRedirectById", ({ params, payload }) =>
      redirects.update(params.organizationId, params.siteId, params.siteRedirectId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("deleteSiteRedirectById", ({ params }) =>
      redirects.remove(params.organizationId, params.siteId, params.siteRedirectId).pipe(
        DomainErrors.api,
        Effect.map((deleted) => (deleted ? "deleted" as const : "absent" as const))
      ))
    .handle("getSiteRedirectBySource", ({ params, query }) =>
      Effect.gen(function*() {
        const { redirect, rest } = yield* redirects.bySource(params.organizationId, params.siteId, query.source)
        const target = yield* targetOf(params.organizationId, params.siteId, redirect, rest, query.shareKey)
        return { redirect: present(redirect), target }
      }).pipe(DomainErrors.api))
}))
