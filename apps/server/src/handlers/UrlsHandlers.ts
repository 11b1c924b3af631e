/**
 * Handlers of the urls group: a published site's URL as GitBook's renderer resolves it (both
 * forms), what an app or published URL names in the caller's content, and an embed URL.
 */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { Collections, type Revision, SpaceContent, Spaces } from "@quire/content"
import { Errors } from "@quire/kernel"
import { ChangeRequests } from "@quire/reviews"
import { SiteReaders, VisitorToken } from "@quire/sites"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as ContentPresenters from "../ContentPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { SpaceViews } from "../SpaceViews.ts"
import { embedOf } from "./SpaceEmbedsHandlers.ts"

/** What an app URL's path names: a collection, or a space with maybe a change request (by number) and a page path. */
type AppTarget =
  | { readonly kind: "collection"; readonly id: string }
  | { readonly kind: "space"; readonly id: string; readonly changeRequest: string | undefined; readonly path: string }

/** The app path's target (`/o/<org>/c/<id>`, `/s/<id>[/~/changes/<n>][/<path>]`); none for another path. */
export const appTarget = (pathname: string): AppTarget | undefined => {
  const segments = pathname.split("/").filter((s) => s !== "").map((s) => decodeURIComponent(s))
  if (segments[0] === "o" && segments[2] === "c" && segments[3] !== undefined && segments.length === 4) {
    return { kind: "collection", id: segments[3] }
  }
  if (segments[0] !== "s" || segments[1] === undefined) return undefined
  const rest = segments.slice(2)
  if (rest[0] === "~" && rest[1] === "changes" && rest[2] !== undefined) {
    return { kind: "space", id: segments[1], changeRequest: rest[2], path: rest.slice(3).join("/") }
  }
  if (rest[0] === "~") return { kind: "space", id: segments[1], changeRequest: undefined, path: "" }
  return { kind: "space", id: segments[1], changeRequest: undefined, path: rest.join("/") }
}

const noContent = (url: string) => new Errors.NotFound({ resource: "Content at URL", id: url })

export const layer = HttpApiBuilder.group(Api, "urls", Effect.fn(function*(handlers) {
  const readers = yield* SiteReaders
  const urls = yield* PublicUrl
  const spaces = yield* Spaces
  const views = yield* SpaceViews
  const collections = yield* Collections
  const content = yield* SpaceContent
  const changeRequests = yield* ChangeRequests
  const tokenMaxAgeSeconds = yield* Effect.orDie(VisitorToken.MaxAgeSeconds)

  const resolvePublished = (input: { readonly url: string; readonly visitor: { readonly jwtToken?: string | undefined; readonly unsignedClaims?: Readonly<Record<string, unknown>> | undefined } | undefined; readonly redirectOnError: boolean | undefined }) =>
    readers.resolve({ ...input, publicBase: urls.base, tokenMaxAgeSeconds }).pipe(
      DomainErrors.api,
      Effect.map((found) => {
        if (found.kind === "redirect") return { target: "external" as const, site: found.site, redirect: found.redirect }
        const { kind: _, ...rest } = found
        return rest
      })
    )

  /** The page at `path` of `revision` as GitBook's `page` of the answer; none for the root or a path no page has. */
  const pageAt = (spaceId: string, revision: Revision, path: string) =>
    path === ""
      ? Effect.succeed({})
      : content.pageEntryAt(revision, path).pipe(
        Effect.map((found) => ({ page: ContentPresenters.page(urls, spaceId, found.page, found.path, { metadata: true }) })),
        Effect.orElseSucceed(() => ({}))
      )

  /** A space (maybe a change request of it, and a page) as the caller may read it. */
  const spaceContent = Effect.fnUntraced(function*(spaceId: string, changeRequest: string | undefined, path: string) {
    const space = yield* views.one(yield* spaces.get(spaceId))
    if (changeRequest === undefined) {
      const current = yield* content.revision(spaceId)
      return { space, ...(yield* pageAt(spaceId, current.revision, path)) }
    }
    const view = yield* changeRequests.get(spaceId, changeRequest)
    const presenter = yield* ChangeRequestPresenters.presenter
    const found = yield* changeRequests.content(spaceId, view.changeRequest.id)
    return { space, changeRequest: yield* presenter(urls, view.changeRequest, view.outdated), ...(yield* pageAt(spaceId, found.revision, path)) }
  })

  const contentByUrl = Effect.fnUntraced(function*(url: string) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      return yield* new Errors.InvalidInput({ field: "url", reason: "must be an absolute http or https URL" })
    }
    const app = parsed.origin === new URL(urls.base).origin ? appTarget(parsed.pathname) : undefined
    if (app?.kind === "collection") return { collection: Presenters.collection(urls, yield* collections.get(app.id)) }
    if (app !== undefined) return yield* spaceContent(app.id, app.changeRequest, app.path)
    // Not an app URL: a page of a site published here, as a member of its organization reads it.
    const published = yield* readers.resolve({ url, visitor: undefined, redirectOnError: false, publicBase: urls.base, tokenMaxAgeSeconds }).pipe(
      Effect.map(Option.some),
      Effect.catch(() => Effect.succeed(Option.none()))
    )
    if (Option.isNone(published) || published.value.kind === "redirect") return yield* noContent(url)
    return yield* spaceContent(published.value.space, undefined, published.value.pathname.replace(/^\/+|\/+$/g, ""))
  })

  return handlers
    .handle("resolvePublishedContentByUrl", ({ payload }) =>
      resolvePublished({ url: payload.url, visitor: payload.visitor, redirectOnError: payload.redirectOnError }))
    .handle("getPublishedContentByUrl", ({ query }) =>
      resolvePublished({
        url: query.url,
        visitor: query.visitorAuthToken === undefined ? undefined : { jwtToken: query.visitorAuthToken },
        redirectOnError: query.redirectOnError
      }))
    .handle("getContentByUrl", ({ query }) =>
      contentByUrl(query.url).pipe(DomainErrors.api))
    .handle("getEmbedByUrl", ({ query }) => embedOf(query.url).pipe(DomainErrors.api))
}))
