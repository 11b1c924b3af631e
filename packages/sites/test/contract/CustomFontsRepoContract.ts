/** The behaviour every CustomFontsRepo and HostnameChecksRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import type { CustomFont } from "../../src/fonts/CustomFont.ts"
import { CustomFontsRepo } from "../../src/fonts/CustomFontsRepo.ts"
import { HostnameChecksRepo } from "../../src/hostnames/HostnameChecksRepo.ts"

const font = (id: string, organizationId: string, overrides: Partial<CustomFont> = {}): CustomFont => ({
  id,
  organizationId,
  fontFamily: `Family ${id}`,
  faces: [{ weight: 400, storageKey: `key-${id}`, blobHash: `hash-${id}`, format: "woff2" }],
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

export const customFontsRepoContract = (it: Vitest.MethodsNonLive<CustomFontsRepo | HostnameChecksRepo | Transactor.Transactor>) =>
  describe("CustomFontsRepo and HostnameChecksRepo", () => {
    it.effect("keeps fonts by organization in creation order, replaces and removes them", () =>
      Effect.gen(function*() {
        const repo = yield* CustomFontsRepo
        yield* repo.put(font("cf-2", "cf-org", { createdAt: at(2) }))
        yield* repo.put(font("cf-1", "cf-org", { createdAt: at(1), faces: [{ weight: 400, storageKey: "a", blobHash: "ha", format: "woff2" }, { weight: 700, storageKey: "b", blobHash: "hb", format: "woff" }] }))
        yield* repo.put(font("cf-3", "cf-other"))
        assert.deepStrictEqual((yield* repo.list("cf-org")).map((f) => f.id), ["cf-1", "cf-2"])
        assert.deepStrictEqual(some(yield* repo.find("cf-1")).faces.map((f) => [f.weight, f.blobHash, f.format]), [[400, "ha", "woff2"], [700, "hb", "woff"]])
        yield* repo.put(font("cf-1", "cf-org", { createdAt: at(1), fontFamily: "Renamed «é»", updatedAt: at(5) }))
        assert.strictEqual(some(yield* repo.find("cf-1")).fontFamily, "Renamed «é»")
        yield* repo.remove("cf-1")
        assertNone(yield* repo.find("cf-1"))
        assert.deepStrictEqual((yield* repo.list("cf-org")).map((f) => f.id), ["cf-2"])
      }))

    it.effect("an upload belongs to its organization alone, and the same bytes again are one upload", () =>
      Effect.gen(function*() {
        const repo = yield* CustomFontsRepo
        const upload = { organizationId: "up-org", storageKey: "fonts/u1/a.woff2", blobHash: "hash-1", name: "a.woff2", format: "woff2" as const, size: 12, createdAt: at(0) }
        yield* repo.putUpload(upload)
        yield* repo.putUpload({ ...upload, name: "again.woff2" })
        assert.deepStrictEqual(some(yield* repo.findUpload("up-org", "fonts/u1/a.woff2")), upload)
        assertNone(yield* repo.findUpload("up-other", "fonts/u1/a.woff2"))
      }))

    it.effect("a hostname's last check is kept, replaced, and rolled back with its transaction", () =>
      Effect.gen(function*() {
        const repo = yield* HostnameChecksRepo
        const transactor = yield* Transactor.Transactor
        const check = { hostname: "docs.hc.example.com", siteId: "s1", status: "dns_no_cname" as const, target: "t.example.com", found: [], checkedAt: at(1) }
        yield* repo.put(check)
        yield* repo.put({ ...check, status: "live", found: ["t.example.com"], checkedAt: at(2) })
        assert.deepStrictEqual(some(yield* repo.find(check.hostname)), { ...check, status: "live", found: ["t.example.com"], checkedAt: at(2) })
        yield* transactor.transaction(Effect.andThen(repo.remove(check.hostname), Effect.fail("undo"))).pipe(Effect.ignore)
        assert.strictEqual(some(yield* repo.find(check.hostname)).status, "live")
        yield* repo.remove(check.hostname)
        assertNone(yield* repo.find(check.hostname))
      }))
  })
