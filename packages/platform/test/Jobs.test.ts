/** Background jobs run through the queue against the real use cases. */
import { assert, describe, it } from "@effect/vitest"
import { Clock, ConfigProvider, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { MemberInvites, Organizations, Users } from "@quire/identity"
import { purgeStaleInvites } from "@quire/identity/Jobs"
import { JobRunner } from "@quire/queue"
import { SiteEventRecorder, SiteEventsRepo, SiteInsights } from "@quire/sites"
import { purgeExpiredSiteEvents } from "@quire/sites/Jobs"
import { as, asInstanceAdmin } from "@quire/testkit"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"
import * as Live from "./Live.ts"

const layer = Queue.layerInProcessWith(Live.layerMemory).pipe(Layer.provideMerge(Services.layerMemoryRepos))

describe("identity.purgeStaleInvites", () => {
  it.effect("drops email invitations older than 30 days and keeps newer ones", () =>
    Effect.gen(function*() {
      const users = yield* Users
      const organizations = yield* Organizations
      const runner = yield* JobRunner
      const { user: admin } = yield* users.bootstrapAdmin("admin@quire.test", "token")
      const asAdmin = asInstanceAdmin(admin.id)
      const org = yield* organizations.create({ title: "Acme" }).pipe(asAdmin)
      yield* organizations.invite(org.organization.id, { emails: ["old@example.com"], role: "read", sso: false }).pipe(asAdmin)
      yield* TestClock.adjust("20 days")
      yield* organizations.invite(org.organization.id, { emails: ["new@example.com"], role: "read", sso: false }).pipe(asAdmin)
      yield* TestClock.adjust("11 days")

      yield* purgeStaleInvites.enqueue({})
      yield* runner.drain

      const old = yield* users.create({ email: "old@example.com", displayName: "Old" }).pipe(asAdmin)
      const fresh = yield* users.create({ email: "new@example.com", displayName: "New" }).pipe(asAdmin)
      // Invitations are offers (issue 18): each new account finds what still waits for it.
      const invites = yield* MemberInvites
      assert.deepStrictEqual(yield* invites.listForCaller.pipe(as(old.id)), [])
      assert.deepStrictEqual((yield* invites.listForCaller.pipe(as(fresh.id))).map((v) => v.organization.id), [org.organization.id])
    }).pipe(Effect.provide(layer)))
})

describe("insights.purgeExpired", () => {
  // Events carry their own time (GitBook's `timestamp`): no clock is moved, so no hourly schedule runs meanwhile.
  const daysAgo = (days: number) => Effect.map(Clock.currentTimeMillis, (now) => new Date(now - days * 86_400_000).toISOString())
  const view = (url: string, timestamp: string) => ({ type: "page_view" as const, timestamp, location: { url }, data: {} })
  const site = { organizationId: "org-1", siteId: "site-1" }
  // What the recorder still holds is written first, as a query does.
  const urls = Effect.gen(function*() {
    yield* (yield* SiteEventRecorder).flush
    const events = yield* (yield* SiteEventsRepo).inRange(site.siteId, new Date(-8.64e15), new Date(8.64e15), 100)
    return events.map((event) => event.url).sort()
  })

  it.effect("forgets a site's events older than QUIRE_INSIGHTS_RETENTION_DAYS (365 unless set) and keeps the newer ones", () =>
    Effect.gen(function*() {
      const insights = yield* SiteInsights
      const runner = yield* JobRunner
      yield* insights.recordPublished(site, [view("https://docs.example.com/old", yield* daysAgo(366)), view("https://docs.example.com/new", yield* daysAgo(364))], {})
      yield* purgeExpiredSiteEvents.enqueue({})
      yield* runner.drain
      assert.deepStrictEqual(yield* urls, ["https://docs.example.com/new"])
    }).pipe(Effect.provide(layer)))

  it.effect("keeps them for ever when the setting is 0, and a shorter setting forgets sooner", () =>
    Effect.gen(function*() {
      const insights = yield* SiteInsights
      yield* insights.recordPublished(site, [view("https://docs.example.com/a", yield* daysAgo(1000)), view("https://docs.example.com/b", yield* daysAgo(10))], {})
      const withDays = (days: number) => ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_INSIGHTS_RETENTION_DAYS: days }))
      assert.strictEqual(yield* insights.purgeExpired.pipe(Effect.provide(withDays(0))), 0)
      assert.deepStrictEqual(yield* urls, ["https://docs.example.com/a", "https://docs.example.com/b"])
      assert.strictEqual(yield* insights.purgeExpired.pipe(Effect.provide(withDays(30))), 1)
      assert.deepStrictEqual(yield* urls, ["https://docs.example.com/b"])
    }).pipe(Effect.provide(layer)))
})
