/** Handlers of the space embeds group: an embedded URL as a provider's player or a link, from the URL alone. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { ContentAccess } from "@quire/content"
import { Errors } from "@quire/kernel"
import { embedLinkOf, playerOf } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"

/**
 * A player's frame, its URL escaped for the attribute (it is on one of the providers' origins,
 * `playerOrigins`). The site's player starts on the reader's click; a frame drawn with the page
 * does not start by itself.
 */
const playerFrame = (player: { readonly provider: string; readonly src: string }): string => {
  const src = new URL(player.src)
  src.searchParams.delete("autoplay")
  return `<iframe src="${src.href.replaceAll("&", "&amp;").replaceAll("\"", "&quot;")}" title="${player.provider}" width="560" height="315" frameborder="0" allow="encrypted-media; fullscreen; picture-in-picture" allowfullscreen></iframe>`
}

/** GitBook's `Embed` of a URL, from the URL alone: a provider's player, else a link card; InvalidInput naming `url` for one that is not http(s). */
export const embedOf = (url: string) =>
  Effect.gen(function*() {
    const link = embedLinkOf(url)
    if (link === undefined) return yield* new Errors.InvalidInput({ field: "url", reason: "must be an absolute http or https URL" })
    // A provider Quire plays: GitBook's rich embed, the player in a frame (as GitBook's renderer draws one).
    const player = playerOf(url)
    if (player !== undefined) return { type: "rich" as const, title: link.title, site: link.site, html: playerFrame(player) }
    return { type: "link" as const, title: link.title, site: link.site }
  })

export const layer = HttpApiBuilder.group(Api, "spaceEmbeds", Effect.fn(function*(handlers) {
  const access = yield* ContentAccess
  return handlers.handle("getEmbedByUrlInSpace", ({ params, query }) =>
    Effect.andThen(access.space(params.spaceId), embedOf(query.url)).pipe(DomainErrors.api))
}))
