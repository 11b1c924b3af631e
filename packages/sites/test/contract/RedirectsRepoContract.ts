/** The behaviour every RedirectsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { allIds, assertNone, at, some } from "@quire/testkit"
import { matchRedirect, RedirectTaken, type SiteRedirect } from "../../src/domain/Redirect.ts"
import { RedirectsRepo } from "../../src/RedirectsRepo.ts"

const redirect = (id: string, siteId: string, source: string, overrides: Partial<SiteRedirect> = {}): SiteRedirect => ({
  id,
  siteId,
  source,
  draft: false,
  captureWildcard: false,
  permanent: false,
  destination: { kind: "external", url: `https://example.com/${id}` },
  createdAt: at(0),
  updatedAt: null,
  ...overrides
})

export const redirectsRepoContract = (it: Vitest.MethodsNonLive<RedirectsRepo>) =>
  describe("RedirectsRepo", () => {
    it.effect("stores a redirect, finds it by id and by source, and refuses a second one of the same source and kind", () =>
      Effect.gen(function*() {
        const repo = yield* RedirectsRepo
        const full = redirect("rf-1", "rf-site", "/old/%C3%A9t%C3%A9", {
          permanent: true,
          captureWildcard: true,
          destination: { kind: "site-page", siteSpaceId: "ss-1", pageId: "pg-1" },
          createdAt: at(5)
        })
        yield* repo.insert(full)
        assert.deepStrictEqual(some(yield* repo.find("rf-1")), full)
        assert.deepStrictEqual(some(yield* repo.findBySource("rf-site", "/old/%C3%A9t%C3%A9", false)), full)
        assertNone(yield* repo.findBySource("rf-site", "/old/%C3%A9t%C3%A9", true))
        assertNone(yield* repo.findBySource("rf-other", "/old/%C3%A9t%C3%A9", false))
        const again = yield* Effect.flip(repo.insert(redirect("rf-2", "rf-site", "/old/%C3%A9t%C3%A9")))
        assert.instanceOf(again, RedirectTaken)
        // A draft of the same source, and the same source on another site, are other slots.
        yield* repo.insert(redirect("rf-3", "rf-site", "/old/%C3%A9t%C3%A9", { draft: true }))
        yield* repo.insert(redirect("rf-4", "rf-other", "/old/%C3%A9t%C3%A9"))
        assertNone(yield* repo.find("rf-2"))
      }))

    it.effect("lists live or draft redirects newest first, by update, or by source, page by page, and searches sources", () =>
      Effect.gen(function*() {
        const repo = yield* RedirectsRepo
        yield* repo.insert(redirect("rl-a", "rl-site", "/b", { createdAt: at(1), updatedAt: at(9) }))
        yield* repo.insert(redirect("rl-b", "rl-site", "/c/Guide", { createdAt: at(3) }))
        yield* repo.insert(redirect("rl-c", "rl-site", "/a", { createdAt: at(2) }))
        yield* repo.insert(redirect("rl-d", "rl-site", "/a", { createdAt: at(2), draft: true }))
        yield* repo.insert(redirect("rl-e", "rl-other", "/a"))
        yield* repo.insert(redirect("rl-f", "rl-site", "/100%25_x", { createdAt: at(0) }))
        const ids = (filter: Parameters<typeof repo.list>[1], limit: number) => allIds((after) => repo.list("rl-site", filter, after, limit))
        assert.deepStrictEqual(yield* ids({ draft: false, orderBy: "createdAt" }, 2), ["rl-b", "rl-c", "rl-a", "rl-f"])
        assert.deepStrictEqual(yield* ids({ draft: false, orderBy: "createdAt" }, 1), ["rl-b", "rl-c", "rl-a", "rl-f"])
        assert.deepStrictEqual(yield* ids({ draft: false, orderBy: "updatedAt" }, 1), ["rl-a", "rl-b", "rl-c", "rl-f"])
        assert.deepStrictEqual(yield* ids({ draft: false, orderBy: "source" }, 3), ["rl-f", "rl-c", "rl-a", "rl-b"])
        assert.deepStrictEqual(yield* ids({ draft: true, orderBy: "createdAt" }, 5), ["rl-d"])
        assert.deepStrictEqual(yield* ids({ draft: false, orderBy: "createdAt", search: "guide" }, 5), ["rl-b"])
        // `%` and `_` in a search are characters, not patterns.
        assert.deepStrictEqual(yield* ids({ draft: false, orderBy: "createdAt", search: "%25_" }, 5), ["rl-f"])
        assert.deepStrictEqual(yield* ids({ draft: false, orderBy: "createdAt", search: "_" }, 5), ["rl-f"])
      }))

    it.effect("gives the live redirects a path may answer to: exact, without its trailing slash, or under a wildcard", () =>
      Effect.gen(function*() {
        const repo = yield* RedirectsRepo
        yield* repo.insert(redirect("rc-1", "rc-site", "/guide"))
        yield* repo.insert(redirect("rc-2", "rc-site", "/docs/*"))
        yield* repo.insert(redirect("rc-3", "rc-site", "/docs/api*"))
        yield* repo.insert(redirect("rc-4", "rc-site", "/docs/api/v1", { draft: true }))
        yield* repo.insert(redirect("rc-5", "rc-other", "/guide"))
        const ids = (path: string) => Effect.map(repo.candidates("rc-site", path), (rs) => rs.map((r) => r.id))
        assert.deepStrictEqual(yield* ids("/guide"), ["rc-1"])
        assert.deepStrictEqual(yield* ids("/guide/"), ["rc-1"])
        assert.deepStrictEqual(yield* ids("/guides"), [])
        assert.deepStrictEqual(yield* ids("/docs/api/v1"), ["rc-2", "rc-3"])
        assert.deepStrictEqual(yield* ids("/docs"), [])
        const best = matchRedirect(yield* repo.candidates("rc-site", "/docs/api/v1"), "/docs/api/v1")
        assert.strictEqual(best?.redirect.id, "rc-3")
        assert.strictEqual(best?.rest, "/v1")
      }))

    it.effect("updates a redirect, not onto a taken source, and removes one or a site's", () =>
      Effect.gen(function*() {
        const repo = yield* RedirectsRepo
        yield* repo.insert(redirect("ru-1", "ru-site", "/one"))
        yield* repo.insert(redirect("ru-2", "ru-site", "/two"))
        yield* repo.insert(redirect("ru-3", "ru-other", "/one"))
        const updated = some(yield* repo.update("ru-1", { source: "/uno", permanent: true, updatedAt: at(7), destination: { kind: "site-space", siteSpaceId: "ss-9" } }))
        assert.deepStrictEqual(updated, redirect("ru-1", "ru-site", "/uno", { permanent: true, updatedAt: at(7), destination: { kind: "site-space", siteSpaceId: "ss-9" } }))
        assert.deepStrictEqual(some(yield* repo.find("ru-1")), updated)
        const clash = yield* Effect.flip(repo.update("ru-1", { source: "/two" }))
        assert.instanceOf(clash, RedirectTaken)
        assert.strictEqual(some(yield* repo.find("ru-1")).source, "/uno")
        assertNone(yield* repo.update("ru-missing", { permanent: true }))
        yield* repo.remove("ru-2")
        assertNone(yield* repo.find("ru-2"))
        yield* repo.removeSite("ru-site")
        assertNone(yield* repo.find("ru-1"))
        assert.strictEqual(some(yield* repo.find("ru-3")).source, "/one")
      }))
  })
