/** The behaviour every OidcProvidersRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { allPages, assertNone, at, some } from "@quire/testkit"
import type { OidcProvider, OidcRequest } from "../../src/domain/Oidc.ts"
import { OidcProvidersRepo } from "../../src/OidcProvidersRepo.ts"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { TeamsRepo } from "../../src/TeamsRepo.ts"
import { insertUsers, makeOrganization, type ReposTest } from "./Fixtures.ts"

const provider = (id: string, organizationId: string, ms: number, overrides: Partial<OidcProvider> = {}): OidcProvider => ({
  id,
  organizationId,
  label: `Provider ${id}`,
  discoveryURL: "https://idp.example.com",
  clientId: `client-${id}`,
  clientSecret: "v1.sealed.secret",
  scopes: [],
  defaultTeamId: null,
  defaultRole: null,
  createdAt: at(ms),
  ...overrides
})

const request = (state: string, providerId: string, expiresMs: number): OidcRequest => ({
  stateHash: state,
  organizationId: "oidc-org",
  providerId,
  sealedCodeVerifier: `verifier-${state}`,
  nonce: `nonce-${state}`,
  relayState: "http://quire.test/o/oidc-org",
  expiresAt: at(expiresMs)
})

export const oidcProvidersRepoContract = (it: ReposTest) =>
  describe("OidcProvidersRepo", () => {
    it.effect("stores, finds, pages, patches and removes providers within their organization", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const teams = yield* TeamsRepo
        const oidc = yield* OidcProvidersRepo
        yield* insertUsers("oidc-admin")
        yield* organizations.insert(makeOrganization("oidc-org", at(5000)), "oidc-admin")
        yield* organizations.insert(makeOrganization("oidc-other", at(5000)), "oidc-admin")
        yield* teams.insert({ id: "oidc-team", organizationId: "oidc-org", title: "Staff", createdAt: at(5000) }, [])
        const first = provider("oidc-b", "oidc-org", 5001, { defaultTeamId: "oidc-team", defaultRole: "read", scopes: ["groups"] })
        yield* oidc.insert(first)
        yield* oidc.insert(provider("oidc-a", "oidc-org", 5001))
        yield* oidc.insert(provider("oidc-c", "oidc-org", 5002))
        yield* oidc.insert(provider("oidc-x", "oidc-other", 5000))

        assert.deepStrictEqual(some(yield* oidc.find("oidc-org", "oidc-b")), first)
        assertNone(yield* oidc.find("oidc-other", "oidc-b"))
        const pages = yield* allPages((after) => oidc.list("oidc-org", after, 2))
        assert.deepStrictEqual(pages.map((page) => page.map((p) => p.id)), [["oidc-a", "oidc-b"], ["oidc-c"]])

        const patched = some(yield* oidc.update("oidc-org", "oidc-b", { clientId: "new-client", scopes: ["groups", "offline"], defaultTeamId: null }))
        assert.deepStrictEqual(patched, { ...first, clientId: "new-client", scopes: ["groups", "offline"], defaultTeamId: null })
        assertNone(yield* oidc.update("oidc-other", "oidc-b", { label: "Stolen" }))
        assert.strictEqual(some(yield* oidc.find("oidc-org", "oidc-b")).label, first.label)

        yield* oidc.remove("oidc-other", "oidc-a")
        assert.strictEqual(some(yield* oidc.find("oidc-org", "oidc-a")).id, "oidc-a")
        yield* oidc.remove("oidc-org", "oidc-a")
        assertNone(yield* oidc.find("oidc-org", "oidc-a"))
      }))

    it.effect("answers a sign-in's state once, until it expires; a removed provider's sign-ins go with it", () =>
      Effect.gen(function*() {
        const oidc = yield* OidcProvidersRepo
        yield* oidc.saveRequest(request("state-1", "oidc-b", 9000), at(6000))
        yield* oidc.saveRequest(request("state-2", "oidc-b", 7000), at(6000))
        yield* oidc.saveRequest(request("state-3", "oidc-c", 9000), at(6000))
        assert.deepStrictEqual(some(yield* oidc.takeRequest("state-1", at(6500))), request("state-1", "oidc-b", 9000))
        assertNone(yield* oidc.takeRequest("state-1", at(6500)))
        assertNone(yield* oidc.takeRequest("state-2", at(7000)))
        assertNone(yield* oidc.takeRequest("unknown", at(6500)))
        yield* oidc.remove("oidc-org", "oidc-c")
        assertNone(yield* oidc.takeRequest("state-3", at(6500)))
      }))
  })
