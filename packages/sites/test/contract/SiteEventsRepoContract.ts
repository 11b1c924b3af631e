/** The behaviour every SiteEventsRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { at } from "@quire/testkit"
import type { SiteEvent } from "../../src/domain/SiteEvent.ts"
import { SiteEventsRepo } from "../../src/insights/SiteEventsRepo.ts"

export const siteEvent = (id: string, siteId: string, ms: number, overrides: Partial<SiteEvent> = {}): SiteEvent => ({
  id,
  organizationId: "org-ev",
  siteId,
  type: "page_view",
  at: at(ms),
  visitor: "v1",
  session: "s1",
  url: "https://docs.example.com/guide?utm_source=news",
  urlPath: "/guide",
  displayContext: "site",
  siteSection: null,
  siteSpace: "ss-1",
  siteShareKey: null,
  spaceId: "sp-1",
  pageId: "pg-1",
  referrer: null,
  language: "en",
  data: {},
  ...overrides
})

export const siteEventsRepoContract = (it: Vitest.MethodsNonLive<SiteEventsRepo>) =>
  describe("SiteEventsRepo", () => {
    it.effect("keeps a site's events with their fields and answers those of a time range, oldest first", () =>
      Effect.gen(function*() {
        const repo = yield* SiteEventsRepo
        const search = siteEvent("ev-2", "ev-site", 20, {
          type: "search_type_query",
          data: { query: "zqxj", resultsCount: 0 },
          referrer: "https://example.org/",
          pageId: null
        })
        yield* repo.append([siteEvent("ev-3", "ev-site", 30), search, siteEvent("ev-1", "ev-site", 10), siteEvent("ev-o", "ev-other", 20)])
        yield* repo.append([])
        const all = yield* repo.inRange("ev-site", at(0), at(100), 10)
        assert.deepStrictEqual(all.map((e) => e.id), ["ev-1", "ev-2", "ev-3"])
        assert.deepStrictEqual(all[1], search)
        // `from` is in the range, `to` is not; `limit` keeps the oldest.
        assert.deepStrictEqual((yield* repo.inRange("ev-site", at(20), at(30), 10)).map((e) => e.id), ["ev-2"])
        assert.deepStrictEqual((yield* repo.inRange("ev-site", at(0), at(100), 2)).map((e) => e.id), ["ev-1", "ev-2"])
      }))

    it.effect("keeps one salt a day and forgets the earlier days' salts", () =>
      Effect.gen(function*() {
        const repo = yield* SiteEventsRepo
        const first = yield* repo.saltOf("2030-01-01", "salt-a")
        assert.strictEqual(first, "salt-a")
        // Another server asking the same day gets the stored salt, not its own.
        assert.strictEqual(yield* repo.saltOf("2030-01-01", "salt-b"), "salt-a")
        assert.strictEqual(yield* repo.saltOf("2030-01-02", "salt-c"), "salt-c")
        // The first day's salt is gone: asking for it again (a clock gone back) cannot recover it.
        assert.strictEqual(yield* repo.saltOf("2030-01-01", "salt-d"), "salt-d")
      }))

    it.effect("forgets a deleted site's events and events older than the retention", () =>
      Effect.gen(function*() {
        const repo = yield* SiteEventsRepo
        yield* repo.append([siteEvent("er-1", "er-site", 10), siteEvent("er-2", "er-site", 50), siteEvent("er-3", "er-gone", 10)])
        yield* repo.removeSite("er-gone")
        assert.deepStrictEqual(yield* repo.inRange("er-gone", at(0), at(100), 10), [])
        assert.isAtLeast(yield* repo.purgeBefore(at(20)), 1)
        assert.deepStrictEqual((yield* repo.inRange("er-site", at(0), at(100), 10)).map((e) => e.id), ["er-2"])
      }))
  })
