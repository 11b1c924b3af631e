/**
 * Audit events of changes to who can reach what, through the real server: invite links created
 * and changed (an admin link above all), a space transferred to another organization (in both
 * organizations' logs), a site's custom hostname changed, and the site's visitor-auth signing key
 * read in full. Each appears with its actor and target; reads that do not answer the key record
 * nothing, and the link's secret never enters the log.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { type Client, memoryAndPostgres, organizationWith } from "./Harness.ts"

/** The organization's events newest first, after the event `since` (none given: all). */
const eventsOf = Effect.fnUntraced(function*(api: Client, organizationId: string, since?: string) {
  const page = yield* api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { limit: 100 } })
  return since === undefined ? page.items : page.items.slice(0, page.items.findIndex((e) => e.id === since))
})

const triples = (items: ReadonlyArray<{ readonly action: string; readonly actor: { readonly id: string }; readonly target: { readonly type: string; readonly id: string } }>) =>
  items.map((e) => [e.action, e.actor.id, `${e.target.type}:${e.target.id}`])

/** The id of the newest event now (none in a new organization): what follows it is what the test did next. */
const mark = Effect.fnUntraced(function*(api: Client, organizationId: string) {
  return (yield* api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { limit: 1 } })).items[0]?.id
})

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`audit events of access on ${backend.name}`, (it) => {
    it.effect("invite links: created (an admin link too) and changed, by their stored id, never their secret", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const since = yield* mark(alice.api, organizationId)
        const admin = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "admin" } })
        const reader = yield* alice.api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "read" } })
        yield* alice.api.organizations.updateOrganizationInviteById({ params: { organizationId, inviteId: reader.id }, payload: { role: "admin" } })

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(events.map((e) => [e.action, e.actor.id, e.target.type]), [
          ["invite-link.changed", alice.user.id, "invite-link"],
          ["invite-link.created", alice.user.id, "invite-link"],
          ["invite-link.created", alice.user.id, "invite-link"]
        ])
        // The changed link is the second one created, named the same way.
        assert.strictEqual(events[0]!.target.id, events[1]!.target.id)
        assert.notStrictEqual(events[1]!.target.id, events[2]!.target.id)
        const details = yield* Effect.forEach(events, (e) => alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: e.id } }))
        assert.deepStrictEqual(details.map((d) => d.payload), [
          { from: "read", to: "admin", expiresAt: null },
          { role: "read", expiresAt: null },
          { role: "admin", expiresAt: null }
        ])
        const logged = JSON.stringify([events, details])
        assert.notInclude(logged, admin.id)
        assert.notInclude(logged, reader.id)
      }))

    it.effect("a space transferred to another organization: in the log of the one it leaves and of the one it joins", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const target = yield* alice.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const space = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Moving" } })
        const sinceHere = yield* mark(alice.api, organizationId)
        const sinceThere = yield* mark(alice.api, target.id)
        yield* alice.api.spaces.transferSpace({ params: { spaceId: space.id }, payload: { organization: target.id } })

        for (const [organization, since] of [[organizationId, sinceHere], [target.id, sinceThere]] as const) {
          const events = yield* eventsOf(alice.api, organization, since)
          assert.deepStrictEqual(triples(events), [["space.transferred", alice.user.id, `space:${space.id}`]])
          assert.strictEqual(events[0]!.target.label, "Moving")
          const detail = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId: organization, auditEventId: events[0]!.id } })
          assert.deepStrictEqual(detail.payload, { from: organizationId, to: target.id })
        }
      }))

    it.effect("a site's custom hostname set, changed and removed; the same hostname again records nothing", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith()
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook" } })
        const params = { organizationId, siteId: site.id }
        const since = yield* mark(alice.api, organizationId)
        yield* alice.api.sites.updateSiteById({ params, payload: { hostname: "docs.handbook.test" } })
        yield* alice.api.sites.updateSiteById({ params, payload: { hostname: "docs.handbook.test", title: "Handbook" } })
        yield* alice.api.sites.updateSiteById({ params, payload: { hostname: "help.handbook.test" } })
        yield* alice.api.sites.updateSiteById({ params, payload: { hostname: null } })

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events), [
          ["site.hostname-changed", alice.user.id, `site:${site.id}`],
          ["site.hostname-changed", alice.user.id, `site:${site.id}`],
          ["site.hostname-changed", alice.user.id, `site:${site.id}`]
        ])
        const payloads = yield* Effect.forEach(events, (e) => Effect.map(alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: e.id } }), (d) => d.payload))
        assert.deepStrictEqual(payloads, [
          { from: "help.handbook.test", to: null },
          { from: "docs.handbook.test", to: "help.handbook.test" },
          { from: null, to: "docs.handbook.test" }
        ])
      }))

    it.effect("the visitor-auth signing key: each read that answers it in full is recorded; reads of the site without it are not", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook" } })
        const params = { organizationId, siteId: site.id }
        const since = yield* mark(alice.api, organizationId)
        // Reads that do not answer the key.
        yield* alice.api.sites.getSiteById({ params })
        yield* alice.api.sites.getSiteCustomizationById({ params, query: {} })
        assert.deepStrictEqual(yield* eventsOf(alice.api, organizationId, since), [])

        const auth = yield* alice.api.sites.getSitePublishingAuthById({ params })
        assert.isAtLeast(auth.privateKey.length, 32)
        // A member who may not see the key reads nothing and records nothing.
        yield* Effect.flip(members.edit!.api.sites.getSitePublishingAuthById({ params }))
        yield* alice.api.sites.getSitePublishingAuthById({ params })

        const events = yield* eventsOf(alice.api, organizationId, since)
        assert.deepStrictEqual(triples(events), [
          ["site.visitor-key-read", alice.user.id, `site:${site.id}`],
          ["site.visitor-key-read", alice.user.id, `site:${site.id}`]
        ])
        assert.notInclude(JSON.stringify(events), auth.privateKey)
      }))
  })
}
