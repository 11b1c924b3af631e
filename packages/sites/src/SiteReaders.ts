/**
 * A published site's URL as GitBook's `resolvePublishedContentByUrl` answers it: the site, section,
 * site space and revision the URL shows a visitor (decided as the published site decides it:
 * Audience, then the places that audience sees), and a short-lived token that reads exactly that.
 * A site reader's token carries the spaces the site shows that audience; the server turns it into
 * an `Actor` with `siteReader`, which content's access checks confine to those spaces' main content.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import { ContentAccess, flattenPages, pageResult, PublishedContent, type Revision, type SpaceResults } from "@quire/content"
import { Actor, Errors, SignedToken } from "@quire/kernel"
import * as Audience from "./Audience.ts"
import { locate, type Place, visibleOf } from "./answer/Places.ts"
import { segmentsOf } from "./answer/Routing.ts"
import * as Condition from "./Condition.ts"
import { readableSpaceIds } from "./MemberSpaces.ts"
import { adaptMarkdown } from "./render/Adaptive.ts"
import { withIncludes } from "./render/Includes.ts"
import { type PublishedSite, type PublishedSiteSpace, PublishedSites } from "./PublishedSites.ts"
import { redirectedPage, SpaceRedirects } from "./SpaceRedirects.ts"

/** How long a site reader's token reads, in seconds. */
export const tokenLifetimeSeconds = 3600
/** Where published sites live on the main host (`/~sites/<siteId>/`). */
export const sitesPath = "/~sites/"

const purpose = "site-reader"
/**
 * What a site reader's token carries: GitBook's `SiteAPIToken`, which GitBook's renderer decodes
 * (it reads `claims` and `exp`), as a compact HS256 JWT. Quire alone verifies it: the key is derived
 * for this purpose from the instance secret, so no other token of Quire's passes as one.
 */
const ReaderClaims = Schema.Struct({
  kind: Schema.Literal("site"),
  organization: Schema.String,
  site: Schema.String,
  siteSection: Schema.optionalKey(Schema.String),
  siteSpace: Schema.String,
  space: Schema.String,
  spaces: Schema.Array(Schema.String),
  claims: Schema.Record(Schema.String, Schema.Unknown)
})
/** The most a visitor's claims may weigh in a token, as JSON characters. */
const maxClaimsLength = 8192

/** Who visits: GitBook's `SiteVisitorPayload` (the type of visitor changes nothing here). */
export interface Visitor {
  readonly jwtToken?: string | undefined
  readonly unsignedClaims?: Readonly<Record<string, unknown>> | undefined
}

export interface ResolveInput {
  readonly url: string
  readonly visitor?: Visitor | undefined
  /** The server's public URL: a site is reached at `<base>/~sites/<id>/` or at its own hostname. */
  readonly publicBase: string
  readonly tokenMaxAgeSeconds?: number | undefined
  /** Whether to answer where a visitor-auth site sends readers without a valid token, rather than refuse. */
  readonly redirectOnError?: boolean | undefined
}

/** GitBook's `PublishedSiteContent`. */
export interface PublishedSiteContent {
  readonly kind: "content"
  readonly site: string
  readonly siteSection?: string
  readonly siteSpace: string
  readonly space: string
  readonly revision: string
  readonly pathname: string
  readonly basePath: string
  readonly siteBasePath: string
  readonly apiToken: string
  readonly organization: string
  readonly shareKey?: string
  readonly complete: boolean
  readonly canonicalUrl: string
}

/** GitBook's `PublishedContentRedirect` to an external sign-in (`fallbackURL`). */
export interface PublishedContentRedirect {
  readonly kind: "redirect"
  readonly site: string
  readonly redirect: string
}

export type PublishedLookup = PublishedSiteContent | PublishedContentRedirect

/** GitBook's `SiteSearchScope`, with its deprecated `mode`s read the same way. */
export type SearchScope =
  | { readonly mode: "default"; readonly currentSiteSpace?: string | undefined; readonly restrictTo?: "currentSiteSpace" | "otherSiteSpaces" | undefined }
  | { readonly mode: "specific"; readonly siteSpaceIds: ReadonlyArray<string> }
  | { readonly mode: "all" }

/** A site space as a caller of the site's operations reaches it. */
interface Reached {
  readonly siteSpace: PublishedSiteSpace
  /** Its section's id, null in a site without sections. */
  readonly sectionId: string | null
}

export interface SiteReadersShape {
  readonly resolve: (input: ResolveInput) => Effect.Effect<PublishedLookup, Errors.NotFound | Errors.Forbidden | Errors.InvalidInput>
  /**
   * The spaces a site's search covers for `scope`: a member of the site's organization searches
   * the spaces of the published site they may read, a site's reader what its token reads; NotFound
   * for anyone else.
   */
  readonly searchSpaceIds: (organizationId: string, siteId: string, scope: SearchScope) => Effect.Effect<ReadonlyArray<string>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /**
   * A site's search results as the caller is shown them: for a site's reader, a page with adaptive
   * content their claims do not open is searched again in what it shows them (gone when only hidden
   * text matched), as the published site's own search does; a member's are as they are.
   */
  readonly ownResults: (items: ReadonlyArray<SpaceResults>, query: string) => Effect.Effect<ReadonlyArray<SpaceResults>, never, Actor.Actor>
  /** Checks that the caller reaches the published site (as `searchSpaceIds` does). */
  readonly reach: (organizationId: string, siteId: string) => Effect.Effect<void, Errors.NotFound, Actor.Actor>
  /** The reader a token names, while it has not expired. */
  readonly reader: (token: string) => Effect.Effect<Option.Option<Actor.SiteReader>>
  /**
   * The page of `revision` that its space's `.gitbook.yaml` redirects `path` to, as the published
   * site follows them (GitBook's `getPageInRevisionByPath` answers that page): its id, or none.
   */
  readonly movedPage: (revision: Revision, path: string) => Effect.Effect<Option.Option<string>>
}

/**
 * The site a URL names, where its root is, and the origin it is published at, or none. The scheme
 * is not compared: GitBook's renderer asks `https://` for every URL, where a Quire server may serve
 * its sites over `http` (behind a proxy that ends TLS, or on a laptop).
 */
const siteOf = Effect.fnUntraced(function*(published: PublishedSites["Service"], url: URL, publicBase: URL) {
  if (url.host === publicBase.host) {
    if (!url.pathname.startsWith(sitesPath)) return Option.none()
    const rest = url.pathname.slice(sitesPath.length)
    const slash = rest.indexOf("/")
    const rawId = slash === -1 ? rest : rest.slice(0, slash)
    let siteId: string
    try {
      siteId = decodeURIComponent(rawId)
    } catch {
      return Option.none()
    }
    if (siteId === "" || siteId.length > 100) return Option.none()
    const found = yield* published.byId(siteId)
    return Option.map(found, (site) => ({
      site,
      origin: publicBase.origin,
      rootPath: `${sitesPath}${rawId}/`,
      path: slash === -1 ? "" : rest.slice(slash + 1)
    }))
  }
  const found = yield* published.byHostname(url.hostname)
  return Option.map(found, (site) => ({ site, origin: url.origin, rootPath: "/", path: url.pathname.replace(/^\/+/, "") }))
})

const deniedText: Record<Exclude<Audience.DenialReason, "unpublished">, string> = {
  "share-key-missing": "This site is shared by link only: the URL needs its share key",
  "share-key-invalid": "The share key of this URL is not valid",
  "visitor-token-missing": "This site is for signed-in visitors: send the visitor's token",
  "visitor-token-expired": "The visitor's token has expired",
  "visitor-token-invalid": "The visitor's token is not valid for this site",
  "visitor-token-lifetime": "The visitor's token must expire (its exp claim) sooner"
}

/**
 * Whether the URL is at its terminal point: only page path segments may follow. Not when it stops
 * at a default site space whose section has others a further segment could name.
 */
const completeAt = (place: Place, places: ReadonlyArray<Place>): boolean =>
  !place.siteSpace.default || places.filter((p) => p.section === place.section).length <= 1

/** What a site reader's token says: GitBook's `SiteAPIToken` for the place a URL shows. */
const readerClaims = (
  site: PublishedSite,
  place: Place,
  spaces: ReadonlyArray<string>,
  claims: Readonly<Record<string, unknown>>
): typeof ReaderClaims.Type => ({
  kind: "site",
  organization: site.site.organizationId,
  site: site.site.id,
  ...(place.section === undefined ? {} : { siteSection: place.section.section.id }),
  siteSpace: place.siteSpace.siteSpace.id,
  space: place.siteSpace.space.id,
  spaces,
  claims
})

/** A token reads for an hour, or until the visitor's own token expires if that comes first. */
const lifetimeOf = (claims: Readonly<Record<string, unknown>>): Effect.Effect<number> =>
  Effect.map(SignedToken.nowSeconds, (now) => {
    const exp = claims["exp"]
    return typeof exp === "number" && Number.isFinite(exp) ? Math.max(1, Math.min(tokenLifetimeSeconds, Math.floor(exp - now))) : tokenLifetimeSeconds
  })

/** A token reads while it has not expired and its site is still published in its organization. */
const readerOf = (key: SignedToken.Key, published: PublishedSites["Service"]) =>
  Effect.fnUntraced(function*(token: string) {
    // Anything but a JWT under this purpose's key (an API token, another's JWT) is none, cheaply.
    const opened = yield* SignedToken.open(key, ReaderClaims, token, { jwt: true })
    if (Option.isNone(opened)) return Option.none<Actor.SiteReader>()
    const { claims, organization: org, site, spaces } = opened.value.value
    const live = yield* published.byId(site)
    if (Option.isNone(live) || live.value.site.organizationId !== org) return Option.none<Actor.SiteReader>()
    // A space the site no longer publishes is not read any more, though the token named it.
    const shown = new Set([...live.value.rootSiteSpaces, ...live.value.sections.flatMap((s) => s.siteSpaces)].map((s) => s.space.id))
    return Option.some<Actor.SiteReader>({ siteId: site, organizationId: org, spaceIds: spaces.filter((id) => shown.has(id)), claims })
  })

/** `SiteReadersShape.ownResults` over the published content. */
const ownResultsOf = (content: PublishedContent["Service"]) =>
  Effect.fn("SiteReaders.ownResults")(function*(items: ReadonlyArray<SpaceResults>, query: string) {
    const reader = (yield* Actor.Actor).siteReader
    if (reader === undefined) return items
    const out: Array<SpaceResults> = []
    for (const group of items) {
      const revision = yield* Effect.option(content.revision(group.space.space.revisionId))
      if (Option.isNone(revision)) continue
      const rev = revision.value
      const byPath = new Map(flattenPages(rev.pages).map((entry) => [entry.path, entry.page] as const))
      const stored = yield* content.documents(group.pages.flatMap((result) => byPath.get(result.path)?.document ?? []))
      const pages: Array<SpaceResults["pages"][number]> = []
      for (const result of group.pages) {
        const page = byPath.get(result.path)
        const markdown = page?.document === undefined ? undefined : stored.get(page.document)
        if (page === undefined || markdown === undefined) {
          pages.push(result)
          continue
        }
        const adapted = adaptMarkdown(yield* withIncludes(markdown, rev, page.git?.path, content.documents), reader.claims)
        if (!adapted.hid) {
          pages.push(result)
          continue
        }
        const again = yield* content.searchPages(
          { spaceIds: [result.spaceId], query, offset: 0, limit: 1, sectionsPerPage: Math.max(1, result.sections.length) },
          [{ spaceId: result.spaceId, page, path: result.path, markdown: adapted.markdown }]
        )
        const hit = again.pages[0]
        if (hit !== undefined) pages.push({ ...result, score: hit.score, sections: pageResult(hit, query, result.rank).sections })
      }
      if (pages.length > 0) out.push({ ...group, pages })
    }
    return out
  })

/** `SiteReadersShape.movedPage` over a space's redirects. */
const movedPageOf = (spaceRedirects: SpaceRedirects["Service"]) => (revision: Revision, path: string) =>
  Effect.map(spaceRedirects.forSpace(revision.spaceId), (redirects) => Option.fromNullishOr(redirectedPage(redirects, revision, path)?.id))

export class SiteReaders extends Context.Service<SiteReaders, SiteReadersShape>()("@quire/sites/SiteReaders") {
  static readonly layer = Layer.effect(
    SiteReaders,
    Effect.gen(function*() {
      const published = yield* PublishedSites
      const access = yield* ContentAccess
      const content = yield* PublishedContent
      const key = yield* SignedToken.keyFor(purpose)

      const resolve = Effect.fn("SiteReaders.resolve")(function*(input: ResolveInput) {
        const notFound = new Errors.NotFound({ resource: "Published content", id: input.url })
        let url: URL
        try {
          url = new URL(input.url)
        } catch {
          return yield* new Errors.InvalidInput({ field: "url", reason: "is not an absolute URL" })
        }
        if (url.protocol !== "http:" && url.protocol !== "https:") {
          return yield* new Errors.InvalidInput({ field: "url", reason: "must be an http or https URL" })
        }
        const found = yield* siteOf(published, url, new URL(input.publicBase))
        if (Option.isNone(found)) return yield* notFound
        const { origin, path, rootPath, site } = found.value
        const root = `${origin}${rootPath}`
        const unsigned = input.visitor?.unsignedClaims
        const jwtToken = input.visitor?.jwtToken
        // The URL's own share key or token first, as the published site reads them; then the visitor's.
        const query = new URLSearchParams(url.search)
        if (jwtToken !== undefined && jwtToken !== "" && !query.has(Audience.tokenParameter)) query.set(Audience.tokenParameter, jwtToken)
        const decision = yield* Audience.decide({
          site: { id: site.site.id, visibility: site.site.visibility, published: site.site.published, visitorKey: site.visitorKey },
          siteUrl: root,
          query,
          cookies: unsigned === undefined ? {} : { [Audience.gitbookPublicCookie]: JSON.stringify(unsigned) },
          tokenMaxAgeSeconds: input.tokenMaxAgeSeconds,
          checkShare: (secret) => published.checkShareSecret(site.site.id, secret)
        })
        if (decision.kind === "denied") {
          if (decision.reason === "unpublished") return yield* notFound
          const signIn = input.redirectOnError === true
            ? Audience.signInRedirect(site.fallbackUrl, decision.reason, path, query)
            : undefined
          if (signIn !== undefined) return { kind: "redirect", site: site.site.id, redirect: signIn } satisfies PublishedLookup
          return yield* new Errors.Forbidden({ reason: deniedText[decision.reason] })
        }
        const visible = visibleOf(site, decision.claims, Condition.parse)
        const { segments } = segmentsOf(path)
        const located = locate(site, visible, segments)
        if (located === undefined) return yield* notFound
        const { place, rest } = located
        const spaceIds = [...new Set(visible.places.map((p) => p.siteSpace.space.id))]
        if (JSON.stringify(decision.claims).length > maxClaimsLength) {
          return yield* new Errors.InvalidInput({ field: "visitor", reason: `the visitor's claims must be at most ${maxClaimsLength} characters of JSON` })
        }
        const token = yield* SignedToken.issue(key, ReaderClaims, readerClaims(site, place, spaceIds, decision.claims), {
          expiresIn: yield* lifetimeOf(decision.claims),
          jwt: true
        })
        const pathname = rest.join("/")
        const basePath = `${rootPath}${place.prefix}`
        const shareKey = decision.via === "share-key" ? query.get(Audience.shareParameter) ?? undefined : undefined
        return {
          kind: "content",
          site: site.site.id,
          ...(place.section === undefined ? {} : { siteSection: place.section.section.id }),
          siteSpace: place.siteSpace.siteSpace.id,
          space: place.siteSpace.space.id,
          revision: place.siteSpace.space.revisionId,
          pathname,
          basePath,
          siteBasePath: rootPath,
          apiToken: token,
          organization: site.site.organizationId,
          ...(shareKey === undefined ? {} : { shareKey }),
          complete: completeAt(place, visible.places),
          canonicalUrl: `${origin}${basePath}${rest.map(encodeURIComponent).join("/")}`
        } satisfies PublishedLookup
      })

      /** The published site's site spaces the caller reaches. */
      const reached = Effect.fnUntraced(function*(organizationId: string, siteId: string) {
        const notFound = new Errors.NotFound({ resource: "Site", id: siteId })
        const actor = yield* Actor.Actor
        const reader = actor.siteReader
        if (reader === undefined) {
          yield* access.organizationMember(organizationId)
        } else if (reader.siteId !== siteId || reader.organizationId !== organizationId) {
          return yield* notFound
        }
        const found = yield* published.byId(siteId)
        if (Option.isNone(found) || found.value.site.organizationId !== organizationId) return yield* notFound
        const site = found.value
        const all: Array<Reached> = site.sections.length === 0
          ? site.rootSiteSpaces.map((siteSpace) => ({ siteSpace, sectionId: null }))
          : site.sections.flatMap((s) => s.siteSpaces.map((siteSpace) => ({ siteSpace, sectionId: s.section.id })))
        if (reader !== undefined) return all.filter((r) => reader.spaceIds.includes(r.siteSpace.space.id))
        // A member reaches the spaces of the site their own permissions let them read, no others.
        const readable = yield* readableSpaceIds(access, site)
        return all.filter((r) => readable.includes(r.siteSpace.space.id))
      })

      const searchSpaceIds = Effect.fn("SiteReaders.searchSpaceIds")(function*(organizationId: string, siteId: string, scope: SearchScope) {
        const list = yield* reached(organizationId, siteId)
        const byId = (id: string, field: string) => {
          const found = list.find((r) => r.siteSpace.siteSpace.id === id)
          return found === undefined
            ? Effect.fail(new Errors.InvalidInput({ field, reason: `is not a site space of this site: ${JSON.stringify(id)}` }))
            : Effect.succeed(found)
        }
        let chosen: ReadonlyArray<Reached>
        switch (scope.mode) {
          case "all":
            chosen = list
            break
          case "specific":
            chosen = yield* Effect.forEach(scope.siteSpaceIds, (id) => byId(id, "scope.siteSpaceIds"))
            break
          case "default": {
            const current = scope.currentSiteSpace === undefined ? undefined : yield* byId(scope.currentSiteSpace, "scope.currentSiteSpace")
            if (scope.restrictTo !== undefined && current === undefined) {
              return yield* new Errors.InvalidInput({ field: "scope.currentSiteSpace", reason: "is needed with restrictTo" })
            }
            // The default variant of each section, the current site space standing for its own section's.
            const defaults = list.filter((r) => r.siteSpace.default && r.sectionId !== current?.sectionId)
            const scoped = current === undefined ? defaults : [current, ...defaults]
            chosen = scope.restrictTo === "currentSiteSpace"
              ? (current === undefined ? [] : [current])
              : scope.restrictTo === "otherSiteSpaces"
              ? scoped.filter((r) => r !== current)
              : scoped
          }
        }
        return chosen.map((r) => r.siteSpace.space.id)
      })

      const reach = (organizationId: string, siteId: string) => Effect.asVoid(reached(organizationId, siteId))

      return SiteReaders.of({
        resolve,
        reader: readerOf(key, published),
        searchSpaceIds,
        reach,
        ownResults: ownResultsOf(content),
        movedPage: movedPageOf(yield* SpaceRedirects)
      })
    })
  )
}

interface Block {
  readonly object: string
  readonly type?: string
  readonly data?: Readonly<Record<string, unknown>>
  readonly nodes?: ReadonlyArray<Block>
}

/**
 * A JSON document as a visitor with `claims` is shown it: an `if` block whose expression does not
 * hold for them is left out, as the published page leaves it out (a condition that does not parse
 * holds for nobody).
 */
export const evaluateConditions = <D extends { readonly nodes: ReadonlyArray<unknown> }>(document: D, claims: Readonly<Record<string, unknown>>): D => {
  const keep = (nodes: ReadonlyArray<Block>): Array<Block> =>
    nodes.flatMap((node) => {
      if (node.object !== "block") return [node]
      if (node.type === "if" && !Audience.visible(String(node.data?.["expression"] ?? ""), claims)) return []
      return node.nodes === undefined ? [node] : [{ ...node, nodes: keep(node.nodes) }]
    })
  return { ...document, nodes: keep(document.nodes as ReadonlyArray<Block>) }
}
