/**
 * Migration 0016 turns each document's recorded links from jsonb (`[{url, kind}]`) into text (a JSON
 * list: the links' kind letters, then their URLs): the links read back are those recorded before,
 * in their order, and documents with none recorded still have none.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Migrations, SqlTransactor } from "@quire/db"
import * as Testing from "@quire/db/Testing"
import { migrations, RevisionsRepo } from "../src/index.ts"
import * as SqlRevisionsRepo from "../src/SqlRevisionsRepo.ts"

/** The migrations before the links were text: a database as the previous release left it. */
const beforeLinkText = {
  table: migrations.table,
  migrations: Object.fromEntries(Object.entries(migrations.migrations).filter(([key]) => key < "0016"))
}

const recorded = [
  { url: "../guide/install.md#step-2", kind: "link" },
  { url: "<../.gitbook/assets/image (3).png>", kind: "image" },
  { url: "https://example.com/a?b=\"c\"&d=\\e", kind: "link" },
  { url: "réglages/übersicht.md", kind: "link" },
  { url: "", kind: "link" },
  { url: "i", kind: "image" }
] as const

for (const database of Testing.backends) {
  const repos = Layer.merge(SqlRevisionsRepo.layerWith({ cachedPages: 0 }), SqlTransactor.layer).pipe(Layer.provideMerge(database.layer))

  layer(repos, { timeout: "120 seconds" })(`${database.name}: links recorded before migration 0016`, (it) => {
    it.effect("reads them back as recorded, in order; a document with none recorded has none, and records them as text", () =>
      Effect.gen(function*() {
        yield* Migrations.run(beforeLinkText)
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO content_documents (hash, markdown, links) VALUES ('h-links', 'x', ${JSON.stringify(recorded)}::jsonb)`
        yield* sql`INSERT INTO content_documents (hash, markdown, links) VALUES ('h-none', 'y', '[]'::jsonb)`
        yield* sql`INSERT INTO content_documents (hash, markdown, links) VALUES ('h-unrecorded', 'z', NULL)`
        yield* Migrations.run(migrations)
        const repo = yield* RevisionsRepo
        const read = yield* repo.documentLinks(["h-links", "h-none", "h-unrecorded"])
        assert.deepStrictEqual(Object.fromEntries(read), { "h-links": recorded, "h-none": [] })
        yield* repo.recordLinks(new Map([["h-unrecorded", [{ url: "x.md", kind: "link" as const }]]]))
        const [stored] = yield* sql<{ links: string }>`SELECT links FROM content_documents WHERE hash = 'h-unrecorded'`
        assert.strictEqual(stored!.links, "[\"l\",\"x.md\"]")
        assert.deepStrictEqual((yield* repo.documentLinks(["h-unrecorded"])).get("h-unrecorded"), [{ url: "x.md", kind: "link" }])
      }))
  })
}
