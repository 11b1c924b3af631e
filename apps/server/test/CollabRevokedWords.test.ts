/**
 * Someone whose access is removed while they type keeps their socket until the next check of
 * access, and what they type meanwhile is acknowledged; their write back is refused, another
 * person's write back takes it out, and a merge by someone else must not write it either. What
 * they typed while they could, and was written to the page, stays; so does what the others typed.
 * On PostgreSQL and on PGlite.
 */
import { assert, describe, it as live, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { client as apiClient, spaceWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventually, eventuallyEffect, settled, sharedPage } from "./CollabSupport.ts"

for (const database of Backends.databasesMigrated(Services.migrations)) {
  // Access is checked again only after a minute (or a write refused): the removed member types on until then.
  const server = collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", {
    recheckInterval: "60 seconds",
    recheckEveryUpdates: 10_000
  }).pipe(Layer.provide(database.layer))

  layer(server, { timeout: 120_000, excludeTestServices: true })(`a member removed while typing, on ${database.name}`, (it) => {
    it.effect("what they typed after they were removed is not in main once another person merges; what was written before, and the others' words, are", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId, space } = yield* spaceWith(["edit"])
        const bea = members.edit!
        const page = yield* sharedPage(alice.api, space.id)
        const url = yield* collabUrl
        const a = yield* connect({ url, name: page.name, token: alice.token })
        const b = yield* connect({ url, name: page.name, token: bea.token })
        yield* settled(a)
        yield* settled(b)
        a.type(a.text().length, "Alice wrote this.\n")
        yield* settled(a)
        yield* eventuallyEffect(page.markdown, (markdown) => markdown.includes("Alice wrote this."))
        b.type(b.text().length, "Bea wrote this while a member.\n")
        yield* settled(b)
        yield* eventuallyEffect(page.markdown, (markdown) => markdown.includes("Bea wrote this while a member."))

        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: bea.user.id } })
        b.type(b.text().length, "Bea typed this once removed.\n")
        // Acknowledged, and everyone connected sees it: it is in the stored document. (The notice of
        // the last write back checks access at once when it arrives; on a loaded machine it can
        // arrive after the removal and close Bea's connection before her edit: nothing is stored.)
        yield* eventually("Bea's edit is acknowledged, or her connection closed", () => (b.provider.synced && !b.provider.hasUnsyncedChanges) || b.closed.length > 0)
        if (b.closed.length === 0) yield* eventuallyEffect(Effect.sync(() => a.text()), (text) => text.includes("Bea typed this once removed."))

        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
        assert.strictEqual(merged.result, "merge")
        const main = yield* alice.api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: page.pageId }, query: { format: "markdown" } })
        const markdown = (main as { readonly markdown?: string }).markdown ?? ""
        assert.include(markdown, "Alice wrote this.")
        assert.include(markdown, "Bea wrote this while a member.")
        assert.notInclude(markdown, "Bea typed this once removed.")
      }).pipe(Effect.scoped))

    it.effect("when someone else types too, the write back takes out what the removed member typed: no one sees it any more, and neither the page nor main has it", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId, space } = yield* spaceWith(["edit"])
        const bea = members.edit!
        const page = yield* sharedPage(alice.api, space.id)
        const url = yield* collabUrl
        const a = yield* connect({ url, name: page.name, token: alice.token })
        const b = yield* connect({ url, name: page.name, token: bea.token })
        yield* settled(a)
        yield* settled(b)
        b.type(b.text().length, "Bea wrote this while a member.\n")
        yield* settled(b)
        yield* eventuallyEffect(page.markdown, (markdown) => markdown.includes("Bea wrote this while a member."))

        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: bea.user.id } })
        b.type(b.text().length, "Bea typed this once removed.\n")
        // (As above: a late notice of the last write may close her connection before her edit.)
        yield* eventually("Bea's edit is acknowledged, or her connection closed", () => (b.provider.synced && !b.provider.hasUnsyncedChanges) || b.closed.length > 0)
        if (b.closed.length === 0) yield* eventuallyEffect(Effect.sync(() => a.text()), (text) => text.includes("Bea typed this once removed."))
        a.type(0, "Alice typed this meanwhile.\n")
        yield* settled(a)

        const written = yield* eventuallyEffect(page.markdown, (markdown) => markdown.includes("Alice typed this meanwhile."))
        assert.notInclude(written, "Bea typed this once removed.")
        assert.include(written, "Bea wrote this while a member.")
        const seen = yield* eventuallyEffect(Effect.sync(() => a.text()), (text) => !text.includes("Bea typed this once removed."))
        assert.notInclude(seen, "Bea typed this once removed.")

        const merged = yield* alice.api.changeRequests.mergeChangeRequest({ params: page.params })
        assert.strictEqual(merged.result, "merge")
        const main = yield* alice.api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: page.pageId }, query: { format: "markdown" } })
        const markdown = (main as { readonly markdown?: string }).markdown ?? ""
        assert.include(markdown, "Alice typed this meanwhile.")
        assert.include(markdown, "Bea wrote this while a member.")
        assert.notInclude(markdown, "Bea typed this once removed.")
      }).pipe(Effect.scoped))
  })
}

describe("a member removed while typing, then the server stops before writing", () => {
  for (const database of Backends.databasesMigrated(Services.migrations)) {
    live.live(`the next person to open the page has what the removed member typed taken out, and so has the page, on ${database.name}`, () =>
      Effect.gen(function*() {
        const built = yield* Layer.build(database.layer)
        // Nothing is written before the stop, and access is checked again only after a minute.
        const server = () =>
          collabServerOn(Services.layerSql, database.name === "pglite" ? "embedded" : "postgres", {
            writeDebounceMs: 60_000,
            writeMaxDebounceMs: 60_000,
            recheckInterval: "60 seconds",
            recheckEveryUpdates: 10_000
          }).pipe(Layer.provide(Layer.succeedContext(built)))
        const before = yield* Effect.gen(function*() {
          const { alice, members, organizationId, space } = yield* spaceWith(["edit"])
          const bea = members.edit!
          const page = yield* sharedPage(alice.api, space.id)
          const url = yield* collabUrl
          const a = yield* connect({ url, name: page.name, token: alice.token })
          const b = yield* connect({ url, name: page.name, token: bea.token })
          yield* settled(a)
          yield* settled(b)
          a.type(a.text().length, "Alice typed this.\n")
          yield* settled(a)
          yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: bea.user.id } })
          b.type(b.text().length, "Bea typed this once removed.\n")
          yield* settled(b)
          assert.notInclude(yield* page.markdown, "Alice typed this.", "the markdown was written before the stop")
          return { alice, page }
        }).pipe(Effect.provide(server()), Effect.scoped)

        yield* Effect.gen(function*() {
          const a = yield* connect({ url: yield* collabUrl, name: before.page.name, token: before.alice.token })
          yield* settled(a)
          const api = yield* apiClient(before.alice.token)
          const markdownNow = Effect.map(
            api.changeRequestContent.getPageInChangeRequestById({ params: { ...before.page.params, pageId: before.page.pageId }, query: { format: "markdown" } }),
            (page) => (page as { readonly markdown?: string }).markdown ?? ""
          )
          const written = yield* eventuallyEffect(markdownNow, (markdown) => markdown.includes("Alice typed this."))
          assert.notInclude(written, "Bea typed this once removed.")
          const seen = yield* eventuallyEffect(Effect.sync(() => a.text()), (text) => !text.includes("Bea typed this once removed."))
          assert.include(seen, "Alice typed this.")
        }).pipe(Effect.provide(server()), Effect.scoped)
      }).pipe(Effect.scoped), { timeout: 120_000 })
  }
})
