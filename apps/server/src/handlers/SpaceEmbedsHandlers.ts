/** Handlers of the space embeds group: an embedded URL as a link, from the URL alone. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { ContentAccess } from "@quire/content"
import { Errors } from "@quire/kernel"
import { embedLinkOf } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"

export const layer = HttpApiBuilder.group(Api, "spaceEmbeds", Effect.fn(function*(handlers) {
  const access = yield* ContentAccess
  return handlers.handle("getEmbedByUrlInSpace", ({ params, query }) =>
    Effect.gen(function*() {
      yield* access.space(params.spaceId)
      const link = embedLinkOf(query.url)
      if (link === undefined) return yield* new Errors.InvalidInput({ field: "url", reason: "must be an absolute http or https URL" })
      return { type: "link" as const, title: link.title, site: link.site }
    }).pipe(DomainErrors.api))
}))
