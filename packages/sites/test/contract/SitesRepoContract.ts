/** The behaviour every SitesRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { Errors, Transactor } from "@quire/kernel"
import { allIds, assertNone, at, some } from "@quire/testkit"
import type { Site } from "../../src/domain/Site.ts"
import { SitesRepo } from "../../src/SitesRepo.ts"

export const makeSite = (id: string, organizationId: string, overrides: Partial<Site> = {}): Site => ({
  id,
  organizationId,
  type: "basic",
  title: `Site ${id}`,
  hostname: null,
  basename: null,
  proxy: null,
  visibility: "public",
  published: false,
  adaptiveContent: false,
  agentsContext: "included",
  defaultSectionId: null,
  defaultSiteSpaceId: null,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** Seals (in the test's own words) what is not sealed yet. */
const reseal = (stored: string) => stored.startsWith("v1.") ? Option.none<string>() : Option.some(`v1.sealed.${stored}`)

export const sitesRepoContract = (it: Vitest.MethodsNonLive<SitesRepo | Transactor.Transactor>) =>
  describe("SitesRepo", () => {
    it.effect("stores and finds every field of a site, by id and by hostname", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        const full = makeSite("sr-1", "sr-org", {
          type: "ultimate",
          title: "Full «site»",
          hostname: "docs.sr-one.example.com",
          basename: "api",
          proxy: "example.com/docs",
          visibility: "visitor-auth",
          published: true,
          adaptiveContent: true,
          agentsContext: "excluded",
          defaultSectionId: "sec-1",
          defaultSiteSpaceId: "ss-1",
          createdAt: at(5),
          updatedAt: at(6)
        })
        yield* repo.insert(full)
        assert.deepStrictEqual(some(yield* repo.find("sr-1")), full)
        assert.deepStrictEqual(some(yield* repo.findByHostname("docs.sr-one.example.com")), full)
        assertNone(yield* repo.find("sr-missing"))
        assertNone(yield* repo.findByHostname("nothing.sr.example.com"))
      }))

    it.effect("refuses a hostname another site has, on insert and update, and frees it when changed", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        yield* repo.insert(makeSite("sh-1", "sh-org", { hostname: "docs.sh.example.com" }))
        const clash = yield* Effect.flip(repo.insert(makeSite("sh-2", "sh-org", { hostname: "docs.sh.example.com" })))
        assert.instanceOf(clash, Errors.Conflict)
        assertNone(yield* repo.find("sh-2"))
        yield* repo.insert(makeSite("sh-2", "sh-org"))
        assert.instanceOf(yield* Effect.flip(repo.update("sh-2", { hostname: "docs.sh.example.com" })), Errors.Conflict)
        // Its own hostname again is no clash.
        yield* repo.update("sh-1", { hostname: "docs.sh.example.com", title: "Same" })
        yield* repo.update("sh-1", { hostname: null })
        const moved = some(yield* repo.update("sh-2", { hostname: "docs.sh.example.com" }))
        assert.strictEqual(moved.hostname, "docs.sh.example.com")
      }))

    it.effect("lists an organization's sites oldest first, page by page, filtered by title, published and ids", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        const org = "sl-org"
        yield* repo.insert(makeSite("sl-c", org, { createdAt: at(3), title: "Gamma Guide", published: true }))
        yield* repo.insert(makeSite("sl-a", org, { createdAt: at(1), title: "Alpha API" }))
        yield* repo.insert(makeSite("sl-b", org, { createdAt: at(1), title: "Beta api docs", published: true }))
        yield* repo.insert(makeSite("sl-other", "sl-other-org", { createdAt: at(0) }))
        const list = (query: Partial<Parameters<typeof repo.list>[0]> = {}, limit = 2) =>
          allIds((after) => repo.list({ organizationId: org, ...query }, after, limit))
        assert.deepStrictEqual(yield* list(), ["sl-a", "sl-b", "sl-c"])
        assert.deepStrictEqual(yield* list({}, 1), ["sl-a", "sl-b", "sl-c"])
        assert.deepStrictEqual(yield* list({ title: "API" }), ["sl-a", "sl-b"])
        assert.deepStrictEqual(yield* list({ published: true }), ["sl-b", "sl-c"])
        assert.deepStrictEqual(yield* list({ published: false }), ["sl-a"])
        assert.deepStrictEqual(yield* list({ siteIds: ["sl-c", "sl-a", "sl-other"] }), ["sl-a", "sl-c"])
        assert.deepStrictEqual(yield* list({ siteIds: [] }), [])
      }))

    it.effect("updates the fields of a patch only, and answers none for a missing site", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        yield* repo.insert(makeSite("su-1", "su-org"))
        const updated = some(yield* repo.update("su-1", { title: "New", proxy: "example.com/x", published: true, updatedAt: at(9) }))
        assert.deepStrictEqual(updated, makeSite("su-1", "su-org", { title: "New", proxy: "example.com/x", published: true, updatedAt: at(9) }))
        assert.deepStrictEqual(some(yield* repo.find("su-1")), updated)
        assertNone(yield* repo.update("su-missing", { title: "x" }))
      }))

    it.effect("keeps the adaptive schema, customization and visitor key of a site, and removes them with it", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        yield* repo.insert(makeSite("sx-1", "sx-org"))
        assertNone(yield* repo.adaptiveSchema("sx-1"))
        assert.deepStrictEqual(yield* repo.customization("sx-1"), { settings: {}, updatedAt: null })
        assertNone(yield* repo.visitorKey("sx-1"))
        const jsonSchema = { type: "object", properties: { unsigned: { type: "object", properties: {} }, beta: { type: "boolean", description: "β" } } }
        yield* repo.putAdaptiveSchema({ siteId: "sx-1", jsonSchema, updatedAt: at(1) })
        yield* repo.putAdaptiveSchema({ siteId: "sx-1", jsonSchema: { ...jsonSchema, additionalProperties: false }, updatedAt: at(2) })
        assert.deepStrictEqual(some(yield* repo.adaptiveSchema("sx-1")), {
          siteId: "sx-1",
          jsonSchema: { ...jsonSchema, additionalProperties: false },
          updatedAt: at(2)
        })
        const customization = { settings: { title: "Custom", styling: { primaryColor: { light: "#112233", dark: "#abc" } } }, updatedAt: at(3) }
        yield* repo.putCustomization("sx-1", customization)
        assert.deepStrictEqual(yield* repo.customization("sx-1"), customization)
        yield* repo.putVisitorKey("sx-1", "key-1")
        yield* repo.putVisitorKey("sx-1", "key-2")
        assert.strictEqual(some(yield* repo.visitorKey("sx-1")), "key-2")
        yield* repo.remove("sx-1")
        assertNone(yield* repo.find("sx-1"))
        assertNone(yield* repo.adaptiveSchema("sx-1"))
        assertNone(yield* repo.visitorKey("sx-1"))
      }))

    it.effect("seals stored visitor keys in one pass, leaving those it is told to", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        yield* repo.insert(makeSite("sv-1", "sv-org"))
        yield* repo.insert(makeSite("sv-2", "sv-org"))
        yield* repo.insert(makeSite("sv-3", "sv-org"))
        yield* repo.putVisitorKey("sv-1", "clear-key")
        yield* repo.putVisitorKey("sv-2", "v1.already.sealed")
        assert.strictEqual(yield* repo.sealVisitorKeys(reseal), 1)
        assert.strictEqual(some(yield* repo.visitorKey("sv-1")), "v1.sealed.clear-key")
        assert.strictEqual(some(yield* repo.visitorKey("sv-2")), "v1.already.sealed")
        assertNone(yield* repo.visitorKey("sv-3"))
        assert.strictEqual(yield* repo.sealVisitorKeys(reseal), 0)
        for (const id of ["sv-1", "sv-2", "sv-3"]) yield* repo.remove(id)
      }))

    it.effect("keeps a site's sign-in fallback URL until it is removed, or the site is", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        yield* repo.insert(makeSite("sf-1", "sf-org"))
        yield* repo.insert(makeSite("sf-2", "sf-org"))
        assertNone(yield* repo.fallbackUrl("sf-1"))
        yield* repo.putFallbackUrl("sf-1", "https://example.com/login")
        yield* repo.putFallbackUrl("sf-1", "https://example.com/sign-in?next=docs")
        yield* repo.putFallbackUrl("sf-2", "https://example.com/other")
        assert.strictEqual(some(yield* repo.fallbackUrl("sf-1")), "https://example.com/sign-in?next=docs")
        yield* repo.putFallbackUrl("sf-2", null)
        assertNone(yield* repo.fallbackUrl("sf-2"))
        // A site that does not exist keeps none.
        yield* repo.putFallbackUrl("sf-missing", "https://example.com/login")
        assertNone(yield* repo.fallbackUrl("sf-missing"))
        yield* repo.remove("sf-1")
        assertNone(yield* repo.fallbackUrl("sf-1"))
      }))

    it.effect("rolls back the writes of a failed transaction", () =>
      Effect.gen(function*() {
        const repo = yield* SitesRepo
        const transactor = yield* Transactor.Transactor
        yield* repo.insert(makeSite("st-1", "st-org"))
        const exit = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* repo.lock("st-1")
          yield* repo.insert(makeSite("st-2", "st-org"))
          yield* repo.update("st-1", { title: "Changed" })
          yield* repo.putVisitorKey("st-1", "k")
          yield* repo.putFallbackUrl("st-1", "https://example.com/login")
          return yield* Effect.fail("boom")
        })))
        assert.isTrue(Exit.isFailure(exit))
        assertNone(yield* repo.find("st-2"))
        assert.strictEqual(some(yield* repo.find("st-1")).title, "Site st-1")
        assertNone(yield* repo.visitorKey("st-1"))
        assertNone(yield* repo.fallbackUrl("st-1"))
      }))
  })
