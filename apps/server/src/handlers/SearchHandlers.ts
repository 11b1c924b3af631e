/** Handlers of the search group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type SiteSearchBody } from "@quire/api"
import { Search } from "@quire/content"
import { Errors } from "@quire/kernel"
import { type SearchScope, SiteReaders } from "@quire/sites"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "search", Effect.fn(function*(handlers) {
  const search = yield* Search
  const urls = yield* PublicUrl
  const readers = yield* SiteReaders
  return handlers
    .handle("searchSpaceContent", ({ params, query }) =>
      search.space(params.spaceId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, (result) => ContentPresenters.searchPage(urls, result)))
      ))
    .handle("searchOrganizationContent", ({ params, query }) =>
      search.organization(params.organizationId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, (result) => ContentPresenters.searchSpace(urls, result)))
      ))
    .handle("searchSiteContent", ({ params, payload, query }) =>
      Effect.gen(function*() {
        const spaceIds = yield* readers.searchSpaceIds(params.organizationId, params.siteId, yield* siteScope(payload))
        const found = yield* search.site(spaceIds, { ...query, query: payload.query })
        // A site's reader is answered the text their claims open (adaptive content), as on the site.
        const page = { ...found, items: yield* readers.ownResults(found.items, payload.query) }
        return Presenters.list(page, (result) => ContentPresenters.searchSpace(urls, result))
      }).pipe(DomainErrors.api))
}))

/** The scope of a site's search, from `scope` or GitBook's deprecated `mode` (all by default). */
const siteScope = (body: typeof SiteSearchBody.Type): Effect.Effect<SearchScope, Errors.InvalidInput> => {
  if (body.scope !== undefined) return Effect.succeed(body.scope)
  if (body.siteSpaceIds !== undefined) return Effect.succeed({ mode: "specific", siteSpaceIds: body.siteSpaceIds })
  if (body.mode === "specific") return Effect.fail(new Errors.InvalidInput({ field: "siteSpaceIds", reason: "is needed with mode specific" }))
  if (body.mode === "current") {
    return body.siteSpaceId === undefined
      ? Effect.fail(new Errors.InvalidInput({ field: "siteSpaceId", reason: "is needed with mode current" }))
      : Effect.succeed({ mode: "default", currentSiteSpace: body.siteSpaceId })
  }
  return Effect.succeed({ mode: "all" })
}
