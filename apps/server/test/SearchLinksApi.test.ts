/** Search, links and backlinks through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { documentHash, type PageNode, SpaceContent } from "@quire/content"
import { Actor } from "@quire/kernel"
import { backends, errorCode, errorMessage, inviteAndAccept, newUser, publicUrl, raw } from "./Harness.ts"

type User = Effect.Success<ReturnType<typeof newUser>>

/** An organization administered by Alice with one space. */
const aliceWithSpace = Effect.fnUntraced(function*() {
  const alice = yield* newUser("Alice")
  const org = yield* alice.api.organizations.createOrganization({ payload: { title: "Acme" } })
  const space = yield* alice.api.spaces.createSpace({ params: { organizationId: org.id }, payload: { title: "Docs" } })
  return { alice, organizationId: org.id, spaceId: space.id }
})

/**
 * A commit through the use case (the API has no page editing yet): adds `pages` (title and
 * markdown) after the space's pages and drops the top-level pages whose titles are in `remove`.
 */
const commit = (user: User, spaceId: string, pages: ReadonlyArray<{ readonly title: string; readonly markdown: string }>, remove: ReadonlyArray<string> = []) =>
  Effect.flatMap(Effect.service(SpaceContent), (content) =>
    content.commit(spaceId, (current) => {
      const at = new Date().toISOString()
      const documents = new Map(pages.map((p) => [documentHash(p.markdown), p.markdown]))
      const added: Array<PageNode> = pages.map((p) => ({
        id: randomUUID().replaceAll("-", ""),
        type: "document",
        title: p.title,
        slug: p.title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
        document: documentHash(p.markdown),
        createdAt: at,
        updatedAt: at,
        pages: []
      }))
      return Effect.succeed({ pages: [...current.pages.filter((p) => !remove.includes(p.title)), ...added], documents })
    })).pipe(Effect.provideService(Actor.Actor, { userId: user.user.id, instanceAdmin: false }), Effect.orDie)

const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua."

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`search and links API on ${backend.name}`, (it) => {
    it.effect("finds a page by a word of its body with an excerpt around it, title matches first", () =>
      Effect.gen(function*() {
        const { alice, spaceId } = yield* aliceWithSpace()
        yield* commit(alice, spaceId, [
          { title: "Feeding", markdown: `${filler}\n\n## Morning\n\n${filler} Give the quokka fresh leaves. ${filler} ${filler}\n` },
          { title: "Quokka", markdown: "All about the animal.\n" },
          { title: "Unrelated", markdown: "Nothing to see.\n" }
        ])
        const found = yield* alice.api.search.searchSpaceContent({ params: { spaceId }, query: { query: "quokka" } })
        assert.deepStrictEqual(found.items.map((p) => p.title), ["Quokka", "Feeding"])
        assert.strictEqual(found.count, 2)
        const feeding = found.items[1]!
        assert.strictEqual(feeding.path, "feeding")
        assert.strictEqual(feeding.urls.app, `${publicUrl}/s/${spaceId}/feeding`)
        const [section] = feeding.sections
        assert.strictEqual(section?.title, "Morning")
        assert.include(section?.body, "quokka")
        assert.isAtMost(section!.body.length, 162)
        assert.isTrue(section!.body.startsWith("…"), section!.body)
        assert.strictEqual(section?.urls.app, `${publicUrl}/s/${spaceId}/feeding#morning`)

        // Pages of results follow one another without repeats.
        const first = yield* alice.api.search.searchSpaceContent({ params: { spaceId }, query: { query: "quokka", limit: 1 } })
        assert.deepStrictEqual(first.items.map((p) => p.title), ["Quokka"])
        const second = yield* alice.api.search.searchSpaceContent({ params: { spaceId }, query: { query: "quokka", limit: 1, page: first.next!.page } })
        assert.deepStrictEqual(second.items.map((p) => p.title), ["Feeding"])
        assert.isUndefined(second.next)

        for (const path of [`/v1/spaces/${spaceId}/search`, `/v1/spaces/${spaceId}/search?query=`, `/v1/spaces/${spaceId}/search?query=%20%20`]) {
          const refused = yield* raw("GET", path, { token: alice.token })
          assert.strictEqual(refused.status, 400, path)
          assert.include(errorMessage(refused.body), "query", path)
        }
      }))

    it.effect("forgets a page deleted in a new revision, and finds a duplicate's pages", () =>
      Effect.gen(function*() {
        const { alice, spaceId } = yield* aliceWithSpace()
        yield* commit(alice, spaceId, [
          { title: "Walrus", markdown: "The walrus sleeps on ice.\n" },
          { title: "Seal", markdown: "The seal sleeps on rocks.\n" }
        ])
        const before = yield* alice.api.search.searchSpaceContent({ params: { spaceId }, query: { query: "sleeps" } })
        assert.deepStrictEqual(before.items.map((p) => p.title).toSorted(), ["Seal", "Walrus"])
        yield* commit(alice, spaceId, [], ["Walrus"])
        const after = yield* alice.api.search.searchSpaceContent({ params: { spaceId }, query: { query: "sleeps" } })
        assert.deepStrictEqual(after.items.map((p) => p.title), ["Seal"])
        assert.deepStrictEqual((yield* alice.api.search.searchSpaceContent({ params: { spaceId }, query: { query: "walrus" } })).items, [])

        const copy = yield* alice.api.spaces.duplicateSpace({ params: { spaceId } })
        const copied = yield* alice.api.search.searchSpaceContent({ params: { spaceId: copy.id }, query: { query: "seal" } })
        assert.deepStrictEqual(copied.items.map((p) => p.title), ["Seal"])
      }))

    it.effect("searches across the organization's spaces the caller can view, and hides everything from outsiders", () =>
      Effect.gen(function*() {
        const { alice, organizationId, spaceId } = yield* aliceWithSpace()
        const secret = yield* alice.api.spaces.createSpace({ params: { organizationId }, payload: { title: "Secret" } })
        yield* alice.api.spaces.updateSpaceById({ params: { spaceId: secret.id }, payload: { defaultLevel: null } })
        yield* commit(alice, spaceId, [{ title: "Gecko", markdown: "The gecko climbs walls.\n" }])
        yield* commit(alice, secret.id, [{ title: "Hidden gecko", markdown: "A gecko nobody else may see.\n" }])

        const all = yield* alice.api.search.searchOrganizationContent({ params: { organizationId }, query: { query: "gecko" } })
        assert.deepStrictEqual(all.items.map((s) => [s.type, s.title, s.pages.map((p) => p.title)]).toSorted(), [
          ["space", "Docs", ["Gecko"]],
          ["space", "Secret", ["Hidden gecko"]]
        ])

        const reader = yield* newUser("Reader")
        yield* inviteAndAccept(alice.api, organizationId, reader, "read")
        const seen = yield* reader.api.search.searchOrganizationContent({ params: { organizationId }, query: { query: "gecko" } })
        assert.deepStrictEqual(seen.items.map((s) => s.id), [spaceId])
        const refused = yield* reader.api.search.searchSpaceContent({ params: { spaceId: secret.id }, query: { query: "gecko" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 404)

        const outsider = yield* newUser("Outsider")
        const hidden = yield* outsider.api.search.searchOrganizationContent({ params: { organizationId }, query: { query: "gecko" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)
      }))

    it.effect("lists links with stats, reports a link broken once its target is removed, and lists backlinks of pages and files", () =>
      Effect.gen(function*() {
        const { alice, spaceId } = yield* aliceWithSpace()
        const applied = yield* raw("POST", `/v1/spaces/${spaceId}/content/template`, { token: alice.token, body: JSON.stringify({ id: "product-docs" }) })
        assert.strictEqual(applied.status, 204)
        const { pages } = yield* alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
        const byTitle = new Map(pages.map((p) => [p.title, p]))
        const overview = byTitle.get("Overview")!
        const quickstart = byTitle.get("Quickstart")!
        const faq = byTitle.get("FAQ")!
        const revision = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} })
        const banner = revision.files[0]!

        const links = yield* alice.api.links.listSpaceLinks({ params: { spaceId }, query: {} })
        assert.strictEqual(links.stats.broken.total, 0)
        assert.strictEqual(links.stats.total, links.count)
        const toFaq = links.items.find((l) => l.targetReference.kind === "page" && l.targetReference.page.id === faq.id)
        assert.strictEqual(toFaq?.status, "ok")
        assert.strictEqual(toFaq?.relation, "reference")
        assert.includeMembers(
          toFaq!.locationReferences!.map((r) => (r.kind === "page" ? r.page.id : "")),
          [overview.id, quickstart.id]
        )
        const ref = toFaq!.targetReference
        if (ref.kind === "page") {
          assert.strictEqual(ref.space.id, spaceId)
          assert.deepStrictEqual(ref.versionContext, { type: "revision", revision: revision.id })
        }

        const fromOverview = yield* alice.api.links.listPageLinks({ params: { spaceId, pageId: overview.id }, query: {} })
        assert.deepStrictEqual(
          fromOverview.items.map((l) => l.targetReference.kind === "page" ? l.targetReference.page.title : l.targetReference.kind === "file" ? l.targetReference.file.name : l.targetReference.url),
          ["banner.png", "Quickstart", "Configuration", "FAQ"]
        )

        const backlinks = yield* alice.api.links.listPageBacklinks({ params: { spaceId, pageId: quickstart.id }, query: {} })
        assert.deepStrictEqual(backlinks.items.map((r) => (r.kind === "page" ? r.page.title : r.kind)), ["Overview"])
        const fileBacklinks = yield* alice.api.links.listFileBacklinks({ params: { spaceId, fileId: banner.id }, query: {} })
        assert.deepStrictEqual(fileBacklinks.items.map((r) => (r.kind === "page" ? r.page.title : r.kind)), ["Overview"])

        yield* commit(alice, spaceId, [], ["FAQ"])
        const broken = yield* alice.api.links.listSpaceLinks({ params: { spaceId }, query: { status: "broken" } })
        assert.strictEqual(broken.stats.broken.total, 1)
        assert.deepStrictEqual(broken.items.map((l) => [l.status, l.targetReference]), [["broken", { kind: "url", url: "faq.md" }]])
        assert.deepStrictEqual(
          broken.items[0]!.locationReferences!.map((r) => (r.kind === "page" ? r.page.title : r.kind)),
          ["Overview", "Quickstart"]
        )
        const ok = yield* alice.api.links.listSpaceLinks({ params: { spaceId }, query: { status: "ok", limit: 2 } })
        assert.strictEqual(ok.count, 2)
        const rest = yield* alice.api.links.listSpaceLinks({ params: { spaceId }, query: { status: "ok", page: ok.next!.page } })
        assert.strictEqual(ok.count + rest.count, broken.stats.total - 1)

        const missing = yield* alice.api.links.listPageBacklinks({ params: { spaceId, pageId: faq.id }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(missing), 404)
        const outsider = yield* newUser("Outsider")
        const hidden = yield* outsider.api.links.listSpaceLinks({ params: { spaceId }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(hidden), 404)
      }))
  })
}
