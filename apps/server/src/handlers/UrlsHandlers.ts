/** Handlers of the urls group: a published site's URL as GitBook's renderer resolves it. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SiteReaders, VisitorToken } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "urls", Effect.fn(function*(handlers) {
  const readers = yield* SiteReaders
  const urls = yield* PublicUrl
  const tokenMaxAgeSeconds = yield* Effect.orDie(VisitorToken.MaxAgeSeconds)
  return handlers.handle("resolvePublishedContentByUrl", ({ payload }) =>
    readers.resolve({
      url: payload.url,
      visitor: payload.visitor,
      redirectOnError: payload.redirectOnError,
      publicBase: urls.base,
      tokenMaxAgeSeconds
    }).pipe(
      DomainErrors.api,
      Effect.map((found) => {
        if (found.kind === "redirect") return { target: "external" as const, site: found.site, redirect: found.redirect }
        const { kind: _, ...content } = found
        return content
      })
    ))
}))
