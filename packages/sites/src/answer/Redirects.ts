/**
 * A site's redirects as the published site applies them: a path that has no page answers with the
 * live redirect whose source it is (else the longest wildcard before it), when its destination is
 * something the reader can see.
 */
import { Effect } from "effect"
import { matchRedirect, type RedirectDestination, redirectStatus, withCapture } from "../domain/Redirect.ts"
import type { RedirectsRepo } from "../RedirectsRepo.ts"
import { redirectedPage, type SpaceRedirects } from "../SpaceRedirects.ts"
import { locate } from "./Places.ts"
import type { RenderAnswer } from "./Answer.ts"
import type { Reading } from "./ReadingTypes.ts"

/** Where a destination is on the site as `reading` sees it (a path from the host, or an outside URL); undefined when hidden or gone. */
export const destinationUrl = (reading: Reading, destination: RedirectDestination): Effect.Effect<string | undefined> =>
  Effect.gen(function*() {
    const { urls, visible } = reading
    switch (destination.kind) {
      case "external":
        return destination.url
      case "site-section": {
        const section = visible.sections.find((s) => s.section.id === destination.siteSectionId)
        return section === undefined ? undefined : `${urls.basePath}${section.prefix}`
      }
      case "site-space":
      case "site-page": {
        const place = visible.places.find((p) => p.siteSpace.siteSpace.id === destination.siteSpaceId)
        if (place === undefined) return undefined
        if (destination.kind === "site-space") return `${urls.basePath}${place.prefix}`
        const rev = yield* reading.revision(place)
        return urls.pageIdUrl(place, reading.infoOf(rev))(destination.pageId)
      }
    }
  })

/**
 * The redirect answering the request's path: one of the site's live redirects, else one of the
 * `.gitbook.yaml` of the space shown where the path leads (permanent, as a moved page is).
 */
export const redirectAnswer = (
  reading: Reading,
  repo: RedirectsRepo["Service"],
  spaceRedirects: SpaceRedirects["Service"]
): Effect.Effect<RenderAnswer | undefined> =>
  Effect.gen(function*() {
    const path = `/${reading.request.path}`
    if (path === "/") return undefined
    // Unlisted sites are open to anyone too; share-link and visitor-auth ones are not public traffic.
    const publicTraffic = reading.site.site.visibility === "public" || reading.site.site.visibility === "unlisted"
    const found = matchRedirect(yield* repo.candidates(reading.site.site.id, path), path)
    if (found !== undefined) {
      const url = yield* destinationUrl(reading, found.redirect.destination)
      if (url !== undefined) {
        return { kind: "Redirect", location: withCapture(url, found.redirect, found.rest), status: redirectStatus(found.redirect, publicTraffic) }
      }
    }
    const located = locate(reading.site, reading.visible, reading.segments)
    if (located === undefined) return undefined
    const wanted = located.rest.join("/")
    if (wanted === "") return undefined
    const redirects = yield* spaceRedirects.forSpace(located.place.siteSpace.space.id)
    if (!redirects.some((r) => r.source === wanted)) return undefined
    const rev = yield* reading.revision(located.place)
    const moved = redirectedPage(redirects, rev, wanted)
    const url = moved === undefined ? undefined : reading.urls.pageIdUrl(located.place, reading.infoOf(rev))(moved.id)
    return url === undefined ? undefined : { kind: "Redirect", location: url, status: publicTraffic ? 308 : 307 }
  })
