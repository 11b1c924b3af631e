/**
 * Rendered answers kept per layer, by site, its fingerprint (structure, revisions, customization),
 * root and audience: readers whose claims no condition of the site tells apart share answers.
 * A page showing OpenAPI operations is kept while its specs' latest versions are the ones it shows.
 */
import { Effect, Option } from "effect"
import { BoundedCache } from "@quire/kernel"
import { createHash } from "node:crypto"
import * as Audience from "../Audience.ts"
import type { PublishedSite, PublishedSiteSpace } from "../PublishedSites.ts"
import type { SpecOperationsShape } from "../SpecOperations.ts"
import { type RenderAnswer, type RenderRequest, sizeOf } from "./Answer.ts"

const spaces = (list: ReadonlyArray<PublishedSiteSpace>) =>
  list.map((s) => [s.siteSpace.id, s.siteSpace.path, s.siteSpace.condition, s.default, s.space.id, s.space.title, s.space.revisionId])

/** What a published site's structure, spaces' revisions and customization are: part of every cache key (kept per site object in `fingerprints`). */
const fingerprint = (fingerprints: WeakMap<PublishedSite, string>, site: PublishedSite): string => {
  let found = fingerprints.get(site)
  if (found === undefined) {
    found = createHash("sha256")
      .update(
        JSON.stringify([
          site.site,
          site.sections.map((s) => [s.section, s.default, spaces(s.siteSpaces)]),
          site.groups,
          spaces(site.rootSiteSpaces),
          site.customization
        ])
      )
      .digest("base64url")
    fingerprints.set(site, found)
  }
  return found
}

/** What the conditions of a published site (sections, site spaces, header links) can read of a visitor's claims (kept per site object in `claimsReads`). */
const claimsReadOf = (claimsReads: WeakMap<PublishedSite, Audience.ClaimsRead>, site: PublishedSite): Audience.ClaimsRead => {
  let found = claimsReads.get(site)
  if (found === undefined) {
    found = Audience.claimsReadBy([
      ...site.sections.flatMap((s) => [s.section.condition, ...s.siteSpaces.map((x) => x.siteSpace.condition)]),
      ...site.rootSiteSpaces.map((x) => x.siteSpace.condition),
      ...(site.customization.header?.links ?? []).map((item) => item.condition)
    ])
    claimsReads.set(site, found)
  }
  return found
}


/** The version of each spec a page showed (none where the spec has none): its cached answer is kept while they are the latest. */
export type SpecsShown = Array<readonly [string, string | undefined]>

/** Rendered answers kept: at most this many, of at most this many characters in all. */
const cacheEntries = 2000
const cacheCharacters = 64 * 1024 * 1024

export interface AnswerCache {
  /** The start of every cache key of a request: the site as it is, how it is reached and who reads. */
  readonly keyBase: (request: RenderRequest) => string
  /** The answer kept under the key, else made and kept. */
  readonly keep: <E, R>(keyBase: string, key: string, make: Effect.Effect<RenderAnswer, E, R>) => Effect.Effect<RenderAnswer, E, R>
  /**
   * A page's answer kept under its key while the specs it shows are current, else made; pages found
   * (HTML 200 or markdown) are kept, not found ones are not: random paths would push the site's pages out.
   * A page with `{% if %}` blocks is kept per audience of its own conditions too (`claims`: the reader's).
   */
  readonly page: (
    pageKey: string,
    organizationId: string,
    claims: Readonly<Record<string, unknown>>,
    make: (shown: SpecsShown) => Effect.Effect<RenderAnswer>
  ) => Effect.Effect<RenderAnswer>
}

/** Whether the specs' versions a page showed are still the latest. */
const specsCurrent = (specs: SpecOperationsShape, organizationId: string, used: ReadonlyArray<readonly [string, string | undefined]>) =>
  Effect.map(
    Effect.forEach(used, ([slug]) => specs.latestVersionId(organizationId, slug)),
    (ids) => ids.every((id, i) => Option.getOrUndefined(id) === used[i]![1])
  )

/**
 * The answers a site renderer keeps (its layer makes them): `site_answers` on `/metrics`, where a
 * kept page whose specs changed counts as a miss.
 */
export const answerCache = (specs: SpecOperationsShape): Effect.Effect<AnswerCache> => Effect.gen(function*() {
  const cache = yield* BoundedCache.make<string, RenderAnswer>({
    name: "site_answers",
    capacity: cacheEntries,
    maxWeight: cacheCharacters,
    weigh: (answer, key) => sizeOf(answer) + key.length
  })
  // The specs' versions a cached page showed, by its key: a new version renders it again.
  const pageSpecs = yield* BoundedCache.make<string, ReadonlyArray<readonly [string, string | undefined]>>({
    name: "site_answer_specs",
    capacity: cacheEntries
  })
  // What the `{% if %}` conditions of a page (by its key) read of the claims, once it has been rendered.
  const pageReads = yield* BoundedCache.make<string, Audience.ClaimsRead>({ name: "site_page_claims", capacity: cacheEntries })
  // Both kept per site object: a site read again is another object, and these go with the old one.
  const fingerprints = new WeakMap<PublishedSite, string>()
  const claimsReads = new WeakMap<PublishedSite, Audience.ClaimsRead>()
  return {
    keyBase: (request) => {
      const { site, claims } = request
      // Readers whose claims no condition of the site tells apart share answers; no others do.
      const audience = `${Audience.audienceKey(claims, claimsReadOf(claimsReads, site))}:${request.noindex ? 1 : 0}`
      // A member admitted by their session reads the spaces they may: readers of other spaces share nothing with them.
      const readable = request.readableSpaces === undefined ? "" : `|spaces:${request.readableSpaces.toSorted().join(",")}`
      return `${site.site.id}|${fingerprint(fingerprints, site)}|${request.root}|${audience}${readable}`
    },
    keep: (keyBase, key, make) =>
      Effect.suspend(() => {
        const hit = cache.get(`${keyBase}|${key}`)
        if (hit !== undefined) return Effect.succeed(hit)
        return Effect.tap(make, (answer) => Effect.sync(() => cache.set(`${keyBase}|${key}`, answer)))
      }),
    page: (pageKey, organizationId, claims, make) =>
      Effect.gen(function*() {
        const read = pageReads.peek(pageKey)
        const key = read === undefined ? pageKey : `${pageKey}|${Audience.audienceKey(claims, read)}`
        const hit = cache.peek(key)
        const used = pageSpecs.peek(key)
        const current = hit !== undefined && (used === undefined || (yield* specsCurrent(specs, organizationId, used)))
        cache.record(current)
        if (current) {
          // Made the most recently used, as a hit.
          cache.set(key, hit)
          return hit
        }
        const shown: SpecsShown = []
        const answer = yield* make(shown)
        if ((answer.kind === "Html" && answer.status === 200) || answer.kind === "Text") {
          let kept = key
          const conditions = answer.conditions ?? []
          if (conditions.length > 0) {
            // Readers its conditions tell apart get answers of their own from now on.
            const own = Audience.claimsReadBy(conditions)
            pageReads.set(pageKey, own)
            kept = `${pageKey}|${Audience.audienceKey(claims, own)}`
          }
          cache.set(kept, answer)
          if (shown.length > 0) pageSpecs.set(kept, shown)
          else pageSpecs.delete(kept)
        }
        return answer
      })
  }
})
