/**
 * Pages that know when they are stale: owners, the last verification and its interval written in
 * a page's frontmatter (`quire:`) are read back per space and per organization, stale pages first,
 * with counts of never verified and unowned pages and broken links; filters by state and owner; a
 * member who may not read a space does not see it; another organization's is not there.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { errorCode, errorMessage, memoryAndPostgres, mergeIntoMain, newUser, raw, spaceWith } from "./Harness.ts"

const today = () => new Date().toISOString().slice(0, 10)

const page = (title: string, frontmatter: string, body = "Text.") => ({
  operation: "insert_page" as const,
  title,
  document: { markdown: `---\n${frontmatter}\n---\n\n${body}\n` }
})

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`freshness on ${backend.name}`, (it) => {
    it.effect("a space's pages read back with owners, verification and due day, stale first, with counts and filters", () =>
      Effect.gen(function*() {
        const { alice, space, organizationId } = yield* spaceWith()
        yield* mergeIntoMain(alice.api, space.id, [
          page("Fresh", `quire:\n  owners: [${alice.email}]\n  verified: ${today()}\n  verify-every: 90d`),
          page("Stale", `quire:\n  owners:\n    - ${alice.email}\n  verified: 2020-01-01\n  verify-every: 30`, "See [gone](missing.md)."),
          page("Never", "quire:\n  verify-every: 6m"),
          page("Plain", "icon: rocket"),
          page("Wrong", "quire:\n  verified: yesterday\n  verify-every: often")
        ])
        const read = yield* alice.api.freshness.getSpaceFreshness({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(read.object, "space-freshness")
        assert.strictEqual(read.space.id, space.id)
        assert.deepStrictEqual(read.pages.map((p) => [p.title, p.state]), [
          ["Stale", "stale"],
          ["Never", "unverified"],
          ["Plain", "untracked"],
          ["Wrong", "untracked"],
          ["Fresh", "fresh"]
        ])
        const stale = read.pages[0]!
        assert.deepStrictEqual([stale.owners, stale.verified, stale.verifyEvery, stale.due], [[alice.email], "2020-01-01", 30, "2020-01-31"])
        assert.match(stale.urls.app, new RegExp(`/s/${space.id}/stale$`))
        assert.strictEqual(read.pages.find((p) => p.title === "Never")!.verifyEvery, 180)
        const wrong = read.pages.find((p) => p.title === "Wrong")!
        assert.deepStrictEqual(wrong.problems.map((p) => p.split(" ")[0]), ["`quire.verified`", "`quire.verify-every`"])
        assert.deepStrictEqual(read.stats, { pages: 5, fresh: 1, stale: 1, unverified: 1, untracked: 2, unowned: 3, brokenLinks: 1 })

        const mine = yield* alice.api.freshness.getSpaceFreshness({ params: { spaceId: space.id }, query: { owner: "me" } })
        assert.deepStrictEqual(mine.pages.map((p) => p.title), ["Stale", "Fresh"])
        const unowned = yield* alice.api.freshness.getSpaceFreshness({ params: { spaceId: space.id }, query: { owner: "none", state: "unverified" } })
        assert.deepStrictEqual(unowned.pages.map((p) => p.title), ["Never"])
        // Counts stay over every page, whatever the filters.
        assert.strictEqual(unowned.stats.pages, 5)

        const organization = yield* alice.api.freshness.getOrganizationFreshness({ params: { organizationId }, query: { state: "stale" } })
        assert.strictEqual(organization.object, "organization-freshness")
        assert.deepStrictEqual(organization.spaces.map((s) => [s.space.title, s.pages.map((p) => p.title)]), [["Docs", ["Stale"]]])
        assert.strictEqual(organization.stats.stale, 1)
      }))

    it.effect("a bad filter is a 400 naming it; an outsider finds neither the space's nor the organization's", () =>
      Effect.gen(function*() {
        const { alice, space, organizationId } = yield* spaceWith()
        const bad = yield* raw("GET", `/v1/spaces/${space.id}/freshness?state=old`, { token: alice.token })
        assert.strictEqual(bad.status, 400)
        assert.include(errorMessage(bad.body), "state")
        const outsider = yield* newUser("Mallory")
        const space404 = yield* Effect.flip(outsider.api.freshness.getSpaceFreshness({ params: { spaceId: space.id }, query: {} }))
        assert.strictEqual(errorCode(space404), 404)
        const org404 = yield* Effect.flip(outsider.api.freshness.getOrganizationFreshness({ params: { organizationId }, query: {} }))
        assert.strictEqual(errorCode(org404), 404)
      }))
  })
}
