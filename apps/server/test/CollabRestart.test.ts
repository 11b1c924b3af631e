/**
 * What the server acknowledged is in PostgreSQL: a server stopped before it wrote the page's
 * markdown (as a crash would stop it) loses nothing; the next one serves every acknowledged
 * edit and writes the markdown they lack.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import { client as apiClient, spaceWith } from "./Harness.ts"
import { collabServerOn, collabUrl, connect, eventuallyEffect, settled, sharedPage } from "./CollabSupport.ts"

const postgres = Backends.databasesMigrated(Services.migrations).find((database) => database.name === "postgres")!

describe("live editing across a restart", () => {
  it.live("acknowledged edits survive a server stopped without writing the markdown", () =>
    Effect.gen(function*() {
      const database = yield* Layer.build(postgres.layer)
      // The first server would write the markdown only after a minute: it stops long before.
      const server = (writeDebounceMs: number) =>
        collabServerOn(Services.layerSql, "postgres", { writeDebounceMs, writeMaxDebounceMs: writeDebounceMs }).pipe(
          Layer.provide(Layer.succeedContext(database))
        )

      const before = yield* Effect.scoped(Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const page = yield* sharedPage(alice.api, space.id)
        const client = yield* connect({ url: yield* collabUrl, name: page.name, token: alice.token })
        yield* settled(client)
        for (let i = 0; i < 20; i++) client.type(client.text().length, `Line ${i} typed live.\n`)
        yield* settled(client)
        const markdown = yield* page.markdown
        assert.notInclude(markdown, "typed live", "the markdown was written before the stop")
        return { alice, page, acknowledged: client.text() }
      }).pipe(Effect.provide(server(60_000))))

      yield* Effect.scoped(Effect.gen(function*() {
        const client = yield* connect({ url: yield* collabUrl, name: before.page.name, token: before.alice.token })
        yield* settled(client)
        assert.strictEqual(client.text(), before.acknowledged)
        // The first server's API client is gone with it: read through the second.
        const api = yield* apiClient(before.alice.token)
        const read = Effect.map(
          api.changeRequestContent.getPageInChangeRequestById({ params: { ...before.page.params, pageId: before.page.pageId }, query: { format: "markdown" } }),
          (page) => (page as { readonly markdown?: string }).markdown ?? ""
        )
        const markdown = yield* eventuallyEffect(read, (markdown) => markdown === before.acknowledged)
        assert.strictEqual(markdown, before.acknowledged)
      }).pipe(Effect.provide(server(100))))
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
