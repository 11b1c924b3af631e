/**
 * A space of the most pages a revision holds, written as a Git import writes it (one write of every
 * page and document, on the main content, so the search index follows) and then edited one page at
 * a time, on PostgreSQL and PGlite: both land, and no stored row and no statement's parameter comes
 * near the client's 16 MiB message (see "Bounded rows" in docs/content.md).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient, Statement } from "effect/sql"
import { Database, Migrations, SqlTransactor } from "@quire/db"
import * as Testing from "@quire/db/Testing"
import { Ids } from "@quire/kernel"
import { some } from "@quire/testkit"
import { Content, defaultRevisionLimits, migrations, ParsePool, RevisionsRepo, RevisionWriter } from "../src/index.ts"
import { documentHash, flattenPages, type PageNode } from "../src/domain/Revision.ts"
import { partBytes } from "../src/domain/RevisionLimits.ts"
import * as SqlRevisionsRepo from "../src/SqlRevisionsRepo.ts"
import { spaceHead } from "./contract/Fixtures.ts"

const stamp = "2024-01-01T00:00:00.000Z"
const areas = 100
const perArea = defaultRevisionLimits.pages / areas - 1
/**
 * Pages share their markdown every `distinct` pages: 20,000 documents still take many statements,
 * and the write parses each once on this thread (about 0.5 ms each here, so 100,000 would cost a
 * minute a backend).
 */
const distinct = 20_000

const markdownOf = (n: number, text: string) => `# Topic ${n}\n\n${text} See [the next topic](topic-${n + 1}.md).\n`

/** Page `n` of area `a` as a Git import makes it: a title, a slug, a description and the file it came from. */
const topic = (a: number, n: number, markdown: string): PageNode => ({
  id: `page-${n}`,
  type: "document",
  title: `Configuring the authentication provider, topic ${n}`,
  slug: `topic-${n}`,
  description: "How to set this up, what each setting does, and what to check when it fails.",
  document: documentHash(markdown),
  git: { oid: n.toString(16).padStart(40, "0"), path: `docs/area-${a}/topic-${n}.md` },
  createdAt: stamp,
  updatedAt: stamp,
  pages: []
})

/** `defaultRevisionLimits.pages` pages: `areas` groups of `perArea` documents each, and the markdown of their `distinct` documents. */
const importedTree = () => {
  const documents = new Map<string, string>()
  const pages = Array.from({ length: areas }, (_, a): PageNode => ({
    id: `area-${a}`,
    type: "group",
    title: `Area ${a}`,
    slug: `area-${a}`,
    createdAt: stamp,
    updatedAt: stamp,
    pages: Array.from({ length: perArea }, (_, i) => {
      const n = a * perArea + i
      const markdown = markdownOf(n % distinct, "Imported from Git.")
      documents.set(documentHash(markdown), markdown)
      return topic(a, n, markdown)
    })
  }))
  return { pages, documents }
}

/** UTF-8 bytes of a statement parameter as sent (an array: its elements). */
const paramBytes = (param: unknown): number =>
  typeof param === "string"
    ? Buffer.byteLength(param)
    : Array.isArray(param)
    ? param.reduce((sum: number, item) => sum + paramBytes(item) + 1, 2)
    : param instanceof Uint8Array
    ? param.byteLength
    : param === null || param === undefined
    ? 0
    : Buffer.byteLength(String(param))

/** Every statement `self` runs, measured: its largest parameter and its largest statement (text and parameters). */
const measured = <A, E, R>(self: Effect.Effect<A, E, R>) => {
  const largest = { param: 0, statement: 0 }
  const transformer: Statement.Transformer = (statement) =>
    Effect.sync(() => {
      const [text, params] = statement.compile()
      const sizes = params.map(paramBytes)
      largest.param = Math.max(largest.param, ...sizes)
      largest.statement = Math.max(largest.statement, sizes.reduce((sum, size) => sum + size, Buffer.byteLength(text)))
      return statement
    })
  return Effect.map(Effect.provideService(self, Statement.CurrentTransformer, transformer), (result) => ({ result, largest }))
}

/**
 * Well under the 16 MiB a message may take: what the test allows one row (1 MiB), and one statement
 * parameter or one statement (2 MiB: the search index names every page of the write in one array).
 */
const rowBound = Database.clientMaxMessageBytes / 16
const statementBound = Database.clientMaxMessageBytes / 8

for (const database of Testing.backends) {
  const repos = RevisionWriter.layer.pipe(
    Layer.provideMerge(Layer.merge(Content.layerReposSql, SqlTransactor.layer)),
    Layer.provide([Ids.Ids.layer, ParsePool.layerMainThread]),
    Layer.provideMerge(database.layer)
  )

  layer(repos, { timeout: "300 seconds" })(`${database.name}: a space of ${defaultRevisionLimits.pages} pages`, (it) => {
    it.effect("is imported in one write and edited one page at a time, no row or statement near the client's message limit", () =>
      Effect.gen(function*() {
        yield* Migrations.run(migrations)
        const sql = yield* SqlClient.SqlClient
        const writer = yield* RevisionWriter
        const { head: sideHead } = yield* spaceHead("large", "org-large", [])
        const head = { ...sideHead, main: true }

        const imported = importedTree()
        const { result: written, largest: importLargest } = yield* measured(writer.write(head, () => Effect.succeed(imported)))
        assert.strictEqual(flattenPages(written.revision.pages).length, defaultRevisionLimits.pages)

        // One page edited, as an editor writes it: the path to the page copied, the rest kept.
        const target = `page-${Math.floor(defaultRevisionLimits.pages / 2)}`
        const edited = markdownOf(distinct, "Edited once.")
        const partsBefore = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_tree_parts WHERE space_id = 'large'`
        const { result: commit, largest: commitLargest } = yield* measured(writer.write(head, (parent) =>
          Effect.succeed({
            pages: parent.pages.map((area) =>
              area.pages.some((page) => page.id === target)
                ? { ...area, pages: area.pages.map((page) => page.id === target ? { ...page, document: documentHash(edited) } : page) }
                : area
            ),
            documents: new Map([[documentHash(edited), edited]])
          })))
        const partsAfter = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_tree_parts WHERE space_id = 'large'`
        // The edit shares every part but the one holding the page.
        assert.strictEqual(partsAfter[0]!.n, partsBefore[0]!.n + 1)

        // Read back from the tables, not the cache.
        const stored = some(yield* Effect.provide(
          Effect.flatMap(Effect.service(RevisionsRepo), (repo) => repo.find(commit.revision.id)),
          SqlRevisionsRepo.layerWith({ cachedPages: 0 }).pipe(Layer.provide(Layer.succeed(SqlClient.SqlClient, sql)))
        ))
        const pages = flattenPages(stored.pages)
        assert.strictEqual(pages.length, defaultRevisionLimits.pages)
        assert.strictEqual(pages.find(({ page }) => page.id === target)?.page.document, documentHash(edited))
        const [held] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_space_documents WHERE space_id = 'large'`
        assert.strictEqual(held!.n, distinct + 1)

        const rows = yield* sql<{ name: string; rows: number; largest: number }>`
          SELECT 'content_tree_parts' AS name, count(*)::int AS rows, max(octet_length(t::text))::int AS largest FROM content_tree_parts t
          UNION ALL SELECT 'content_revision_parts', count(*)::int, max(octet_length(p::text))::int FROM content_revision_parts p
          UNION ALL SELECT 'content_revisions', count(*)::int, max(octet_length(r::text))::int FROM content_revisions r
          UNION ALL SELECT 'content_documents', count(*)::int, max(octet_length(d::text))::int FROM content_documents d
          UNION ALL SELECT 'content_space_documents', count(*)::int, max(octet_length(s::text))::int FROM content_space_documents s
          UNION ALL SELECT 'content_search_sections', count(*)::int, max(octet_length(s::text))::int FROM content_search_sections s`
        for (const row of rows) {
          assert.isAbove(row.rows, 0, row.name)
          assert.isAtMost(row.largest, rowBound, row.name)
        }
        const [part] = yield* sql<{ largest: number }>`SELECT max(octet_length(body))::int AS largest FROM content_tree_parts`
        assert.isAtMost(part!.largest, partBytes)
        for (const largest of [importLargest, commitLargest]) {
          assert.isAtMost(largest.param, statementBound)
          assert.isAtMost(largest.statement, statementBound)
        }
      }), { timeout: 300_000 })
  })
}
