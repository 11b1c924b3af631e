/** Handlers of the search group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Search } from "@quire/content"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "search", Effect.fn(function*(handlers) {
  const search = yield* Search
  const urls = yield* PublicUrl
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
}))
