/**
 * A page moved through the API keeps the links to it, on every backend: the change request's edit
 * rewrites them in its revision, and its merge rewrites the links main gained meanwhile.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, spaceWith } from "./Harness.ts"

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`moved pages' links on ${backend.name}`, (it) => {
    it.effect("a move in a change request rewrites the links to the page there, and its merge those main gained since", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        const spaceId = space.id
        const merged = (changes: Parameters<typeof api.changeRequestContent.updateChangeRequestContent>[0]["payload"]["changes"]) =>
          Effect.gen(function*() {
            const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: {} })
            yield* api.changeRequestContent.updateChangeRequestContent({ params: { spaceId, changeRequestId: cr.id }, payload: { changes } })
            yield* api.changeRequests.mergeChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
          })
        yield* merged([
          { operation: "insert_page", slug: "home", title: "Home", document: { markdown: "See [the FAQ](faq.md).\n" } },
          { operation: "insert_page", slug: "faq", title: "FAQ", document: { markdown: "Questions.\n" } },
          { operation: "insert_page", slug: "reference", title: "Reference", document: { markdown: "Reference.\n" } }
        ])
        const idOf = (slug: string) =>
          Effect.map(api.spaceContent.listPages({ params: { spaceId }, query: {} }), ({ pages }) => pages.find((page) => page.slug === slug)!.id)
        const faq = yield* idOf("faq")
        const reference = yield* idOf("reference")

        // The move, in a change request: the link of the page it has is rewritten there.
        const move = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Move the FAQ" } })
        const params = { spaceId, changeRequestId: move.id }
        yield* api.changeRequestContent.updateChangeRequestContent({ params, payload: { changes: [{ operation: "update_page", page: faq, into: reference, slug: "questions" }] } })
        const home = yield* idOf("home")
        const inCr = yield* api.changeRequestContent.getPageInChangeRequestById({ params: { ...params, pageId: home }, query: { format: "markdown" } })
        assert.strictEqual((inCr as { markdown?: string }).markdown, "See [the FAQ](reference/questions.md).\n")

        // Meanwhile main gains a page linking to the FAQ where it was; the merge rewrites that link too.
        yield* merged([{ operation: "insert_page", slug: "news", title: "News", document: { markdown: "Read the [FAQ](/faq) first.\n" } }])
        yield* api.changeRequests.mergeChangeRequest({ params })
        const news = yield* api.spaceContent.getPageById({ params: { spaceId, pageId: yield* idOf("news") }, query: { format: "markdown" } })
        assert.strictEqual((news as { markdown?: string }).markdown, "Read the [FAQ](/reference/questions) first.\n")
        const links = yield* api.links.listSpaceLinks({ params: { spaceId }, query: { status: "broken" } })
        assert.strictEqual(links.stats.broken.total, 0)
      }))
  })
}
