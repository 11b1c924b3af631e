/** The behaviour every SamlProvidersRepo adapter must have. */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { allPages, assertNone, at, some } from "@quire/testkit"
import type { SamlProvider } from "../../src/domain/Saml.ts"
import { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import { SamlProvidersRepo } from "../../src/SamlProvidersRepo.ts"
import { TeamsRepo } from "../../src/TeamsRepo.ts"
import { insertUsers, makeOrganization, type ReposTest } from "./Fixtures.ts"

const provider = (id: string, organizationId: string, ms: number, overrides: Partial<SamlProvider> = {}): SamlProvider => ({
  id,
  organizationId,
  label: `Provider ${id}`,
  entityID: null,
  ssoURL: null,
  certificate: null,
  defaultTeamId: null,
  defaultRole: null,
  createdAt: at(ms),
  ...overrides
})

export const samlProvidersRepoContract = (it: ReposTest) =>
  describe("SamlProvidersRepo", () => {
    it.effect("stores, finds, pages, patches and removes providers within their organization", () =>
      Effect.gen(function*() {
        const organizations = yield* OrganizationsRepo
        const teams = yield* TeamsRepo
        const saml = yield* SamlProvidersRepo
        yield* insertUsers("saml-admin")
        yield* organizations.insert(makeOrganization("saml-org", at(5000)), "saml-admin")
        yield* organizations.insert(makeOrganization("saml-other", at(5000)), "saml-admin")
        yield* teams.insert({ id: "saml-team", organizationId: "saml-org", title: "Staff", createdAt: at(5000) }, [])
        const first = provider("saml-b", "saml-org", 5001, { defaultTeamId: "saml-team", defaultRole: "read" })
        yield* saml.insert(first)
        yield* saml.insert(provider("saml-a", "saml-org", 5001))
        yield* saml.insert(provider("saml-c", "saml-org", 5002))
        yield* saml.insert(provider("saml-x", "saml-other", 5000))

        assert.deepStrictEqual(some(yield* saml.find("saml-org", "saml-b")), first)
        assertNone(yield* saml.find("saml-other", "saml-b"))

        const pages = yield* allPages((after) => saml.list("saml-org", after, 2))
        assert.deepStrictEqual(pages.map((page) => page.map((p) => p.id)), [["saml-a", "saml-b"], ["saml-c"]])

        const patched = some(yield* saml.update("saml-org", "saml-b", {
          ssoURL: "https://idp.example.com/sso",
          entityID: "https://idp.example.com",
          defaultTeamId: null
        }))
        assert.deepStrictEqual(patched, {
          ...first,
          ssoURL: "https://idp.example.com/sso",
          entityID: "https://idp.example.com",
          defaultTeamId: null
        })
        assertNone(yield* saml.update("saml-other", "saml-b", { label: "Stolen" }))
        assert.strictEqual(some(yield* saml.find("saml-org", "saml-b")).label, first.label)

        yield* saml.remove("saml-other", "saml-a")
        assert.strictEqual(some(yield* saml.find("saml-org", "saml-a")).id, "saml-a")
        yield* saml.remove("saml-org", "saml-a")
        assertNone(yield* saml.find("saml-org", "saml-a"))
      }))
  })
