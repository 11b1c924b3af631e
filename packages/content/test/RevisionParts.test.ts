/**
 * How the SQL adapter stores a large revision: in parts, none near the client's 16 MiB message,
 * written and removed with their revision, and rows written before parts (even one too large to
 * read) readable after the migration. The round trip of the part format itself, without a database.
 *
 * The database client here reads at most `maxMessageBytes` (2 MiB) a message, so that a tree or a
 * row just over that is "too large for one row"; that every bounded row stays far under the real
 * limit is checked without a database below, and `pnpm bench --scale` reads 100,000 pages back.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Database, Migrations, SqlTransactor } from "@quire/db"
import * as Testing from "@quire/db/Testing"
import { Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import { migrations, RevisionsRepo } from "../src/index.ts"
import { documentHash, type PageNode, type Revision } from "../src/domain/Revision.ts"
import { defaultRevisionLimits, partBytes } from "../src/domain/RevisionLimits.ts"
import { assemblePages, layoutTree, partLists, RunCache, split, type TreeLayout } from "../src/RevisionParts.ts"
import * as SqlRevisionsRepo from "../src/SqlRevisionsRepo.ts"
import { largeTree } from "./contract/LargeTree.ts"

const revision = (id: string, spaceId: string, tree: Pick<Revision, "pages" | "files">): Revision => ({
  id,
  spaceId,
  parents: [],
  type: "edits",
  ...tree,
  variables: { v: "1" },
  git: null,
  createdAt: at(5)
})

/** What the tests' database client reads in one message: a row over it cannot be read back. */
const maxMessageBytes = 2 * 1024 * 1024

const stamp = "2024-01-01T00:00:00.000Z"
const legacyTitle = "Übersicht des Kapitels « réglages » ".repeat(15)

/** The migrations before parts existed, under the same table: a database as the previous release left it. */
const beforeParts = {
  table: migrations.table,
  migrations: Object.fromEntries(Object.entries(migrations.migrations).filter(([key]) => key < "0010"))
}

/** The migrations before revisions named their parts in their own row: each part had a row naming its body. */
const beforePartLists = {
  table: migrations.table,
  migrations: Object.fromEntries(Object.entries(migrations.migrations).filter(([key]) => key < "0015"))
}

/** The migrations before part lists: a revision's row named every part. */
const beforeLists = {
  table: migrations.table,
  migrations: Object.fromEntries(Object.entries(migrations.migrations).filter(([key]) => key < "0020"))
}

/** What the space's revisions have stored: rows of each table, and the bytes of the revision rows' lists. */
const footprint = (spaceId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ parts: number; lists: number; listBytes: number; rowBytes: number }>`
      SELECT (SELECT count(*)::int FROM content_tree_parts WHERE space_id = ${spaceId}) AS parts,
        (SELECT count(*)::int FROM content_tree_part_lists WHERE space_id = ${spaceId}) AS lists,
        (SELECT coalesce(sum(octet_length(body)), 0)::int FROM content_tree_part_lists WHERE space_id = ${spaceId}) AS "listBytes",
        (SELECT coalesce(sum(octet_length(r::text)), 0)::int FROM content_revisions r WHERE space_id = ${spaceId}) AS "rowBytes"`
    return row!
  })

const leaf = (id: string, pages: ReadonlyArray<PageNode> = []): PageNode => ({ id, type: "group", title: id, slug: id, createdAt: stamp, updatedAt: stamp, pages })

/** A page whose own JSON grows with `size`. */
const sized = (id: string, size: number, pages: ReadonlyArray<PageNode> = []): PageNode => ({ ...leaf(id, pages), title: `${id} ${"x".repeat(size)}` })

describe("the part format", () => {
  it("puts a deep and a wide tree back together exactly, every part under partBytes", () => {
    let deep: PageNode = leaf("d-bottom")
    for (let i = 0; i < 400; i++) deep = leaf(`d${i}`, [deep])
    const { pages: wide, files } = largeTree("wide", 3_000, 10)
    const pages = [deep, ...wide, leaf("last")]
    const parts = split(pages, files, partBytes)
    assert.isAbove(parts.length, 10)
    for (const part of parts) assert.isAtMost(Buffer.byteLength(part.body), partBytes)
    const read = (kind: string) => parts.filter((p) => p.kind === kind).flatMap((p) => JSON.parse(p.body) as Array<unknown>)
    assert.deepStrictEqual(assemblePages(read("pages")), pages as unknown)
    assert.deepStrictEqual(read("files"), files as unknown)
    assert.isUndefined(assemblePages([{ depth: 1, page: { id: "orphan" } }]))
  })

  it("makes the same parts from remembered runs as from scratch, through edits, moves and size cuts", () => {
    // A small bound cuts runs by size as often as at boundaries; nodes of varied sizes move the cuts.
    const maxBytes = 2_000
    let pages: ReadonlyArray<PageNode> = Array.from({ length: 40 }, (_, a) =>
      sized(`g${a}`, (a * 37) % 300, Array.from({ length: 12 }, (_, b) => sized(`g${a}-${b}`, (a * 11 + b * 53) % 500))))
    let files = largeTree("f", 60).files
    const cache = new RunCache()
    // The layout of the previous step's tree, as the SQL adapter keeps it for the next write.
    let layout: TreeLayout | undefined
    let lists = 0
    const pagesIn = (page: PageNode): number => 1 + page.pages.reduce((sum, child) => sum + pagesIn(child), 0)
    const same = (step: string) => {
      const fresh = split(pages, files, maxBytes)
      const remembered = split(pages, files, maxBytes, undefined, cache)
      assert.deepStrictEqual(remembered, fresh, step)
      for (const part of remembered) assert.strictEqual(part.bytes, Buffer.byteLength(part.body), step)
      layout = layoutTree(pages, files, maxBytes, undefined, new RunCache(), layout === undefined ? undefined : { layout, size: pagesIn })
      assert.deepStrictEqual(layout.parts, fresh, `${step}, from the previous layout`)
      const hashes = (kind: string) => fresh.filter((part) => part.kind === kind).map((part) => part.hash)
      assert.deepStrictEqual(layout.lists, { pages: partLists(hashes("pages")), files: partLists(hashes("files")) }, `${step}: the part lists`)
      lists = Math.max(lists, layout.lists.pages.length)
    }
    same("first split")
    let random = 7
    const next = (n: number) => (random = (random * 1103515245 + 12345) % 2147483648) % n
    /** `pages` with top-level page `a`'s children changed by `change`. */
    const withChildren = (a: number, change: (children: Array<PageNode>) => void) =>
      pages.map((page, i) => {
        if (i !== a) return page
        const children = [...page.pages]
        change(children)
        return { ...page, pages: children }
      })
    for (let step = 0; step < 300; step++) {
      const a = next(pages.length)
      const kind = next(8)
      if (kind === 0) pages = withChildren(a, (c) => c.length > 0 && c.splice(next(c.length), 1, sized(`e${step}`, next(900))))
      else if (kind === 1) pages = withChildren(a, (c) => c.splice(next(c.length + 1), 0, sized(`n${step}`, next(400))))
      else if (kind === 2) pages = withChildren(a, (c) => c.length > 0 && c.splice(next(c.length), 1))
      else if (kind === 3) {
        // A subtree moves a level down, under another top-level page's first child.
        const moved = pages[a]!
        const rest = pages.filter((_, i) => i !== a)
        const host = next(rest.length)
        pages = rest.map((page, i) => i !== host || page.pages.length === 0 ? page : { ...page, pages: [{ ...page.pages[0]!, pages: [...page.pages[0]!.pages, moved] }, ...page.pages.slice(1)] })
      } else if (kind === 4) pages = [...pages, sized(`t${step}`, next(300))]
      else if (kind === 5) files = files.map((file, i) => i === next(files.length) ? { ...file, size: step } : file)
      // In place (the same ids where they were): a page's own size changes, so cuts by size move.
      else if (kind === 6) pages = withChildren(a, (c) => c.length > 0 && ((i) => c.splice(i, 1, sized(c[i]!.id, next(900))))(next(c.length)))
      else pages = pages.map((page, i) => i === a ? sized(page.id, next(600), page.pages) : page)
      same(`step ${step}`)
    }
    assert.isAtLeast(lists, 3)
  })

  it("makes the same parts after more in-place edits than a layout carries before copying its nodes", () => {
    let pages: ReadonlyArray<PageNode> = Array.from({ length: 40 }, (_, a) => sized(`g${a}`, 50, Array.from({ length: 30 }, (_, b) => sized(`g${a}-${b}`, 80))))
    const pagesIn = (page: PageNode): number => 1 + page.pages.reduce((sum, child) => sum + pagesIn(child), 0)
    let layout = layoutTree(pages, [], 1_500)
    // Each edit replaces a page and its parent in place: 1,300 edits replace 1,240 distinct indices.
    for (let step = 0; step < 1_300; step++) {
      const a = step % 40
      const b = Math.floor(step / 40) % 30
      pages = pages.map((page, i) => i === a ? { ...page, pages: page.pages.map((child, j) => j === b ? sized(child.id, 40 + (step % 90)) : child) } : page)
      layout = layoutTree(pages, [], 1_500, undefined, undefined, { layout, size: pagesIn })
      if (step % 50 === 49 || step > 1_000) assert.deepStrictEqual(layout.parts, split(pages, [], 1_500), `edit ${step}`)
    }
  })

  it("keeps the database client's message limit well above every bounded row", () => {
    assert.isAtMost(partBytes * 8, Database.clientMaxMessageBytes)
    // The suites below read with a lower limit, which still holds a part and a node with room.
    assert.isAtMost(partBytes * 4, maxMessageBytes)
    assert.isAtMost(defaultRevisionLimits.nodeBytes, partBytes)
    assert.isAtMost(defaultRevisionLimits.metadataBytes * 8, Database.clientMaxMessageBytes)
    assert.isAtMost(defaultRevisionLimits.documentBytes * 2, Database.clientMaxMessageBytes)
  })
})

for (const database of Testing.backendsMigrated([], { maxMessageBytes })) {
  // No revision cache: every find reads the store.
  const repos = Layer.merge(SqlRevisionsRepo.layerWith({ cachedPages: 0 }), SqlTransactor.layer).pipe(Layer.provideMerge(database.layer))

  layer(repos, { timeout: "120 seconds" })(`${database.name}: revisions in parts`, (it) => {
    it.effect("stores a tree larger than one row may hold in parts of at most 512 KiB, and removes them with the space", () =>
      Effect.gen(function*() {
        yield* Migrations.run(migrations)
        const sql = yield* SqlClient.SqlClient
        const repo = yield* RevisionsRepo
        const large = revision("parts-1", "parts-space", largeTree("p", 3_000, 12))
        assert.isAbove(Buffer.byteLength(JSON.stringify(large.pages)), maxMessageBytes)
        yield* repo.insert(large, new Map())
        // The revision's row names its part lists, which name its parts by hash; lists and bodies are the space's.
        const [stored] = yield* sql<{ parts: number; largest: number; pages: number; files: number }>`
          SELECT r.parts,
            (SELECT sum(json_array_length(l.body::json))::int FROM content_tree_part_lists l
              WHERE l.space_id = r.space_id AND l.hash IN (SELECT json_array_elements_text(r.part_lists::json -> 'pages'))) AS pages,
            (SELECT sum(json_array_length(l.body::json))::int FROM content_tree_part_lists l
              WHERE l.space_id = r.space_id AND l.hash IN (SELECT json_array_elements_text(r.part_lists::json -> 'files'))) AS files,
            (SELECT max(octet_length(t.body))::int FROM content_tree_parts t WHERE t.space_id = 'parts-space') AS largest
          FROM content_revisions r WHERE r.id = 'parts-1'`
        assert.isAtLeast(stored!.pages, 30)
        assert.isAtLeast(stored!.files, 2)
        assert.isAtMost(stored!.largest, partBytes)
        const [row] = yield* sql<{ parts: number; inline: number }>`
          SELECT parts, octet_length(pages::text) + octet_length(files::text) AS inline FROM content_revisions WHERE id = 'parts-1'`
        assert.deepStrictEqual(row, { parts: stored!.pages + stored!.files, inline: 4 })
        assert.deepStrictEqual(some(yield* repo.find("parts-1")), large)
        // A revision that changes one page shares every other part with its parent.
        const [first, ...rest] = large.pages
        const edited = revision("parts-2", "parts-space", { pages: [{ ...first!, title: "Edited" }, ...rest], files: large.files })
        const bodies = sql<{ n: number }>`SELECT count(*)::int AS n FROM content_tree_parts WHERE space_id = 'parts-space'`
        const [held] = yield* bodies
        yield* repo.insert(edited, new Map())
        const [shared] = yield* bodies
        assert.strictEqual(shared!.n, held!.n + 1)
        assert.deepStrictEqual(some(yield* repo.find("parts-2")), edited)

        yield* repo.removeForSpace("parts-space")
        assert.strictEqual((yield* bodies)[0]!.n, 0)
        const [lists] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_tree_part_lists WHERE space_id = 'parts-space'`
        assert.strictEqual(lists!.n, 0)
        assertNone(yield* repo.find("parts-1"))
        const [left] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_revision_parts WHERE revision_id = 'parts-1'`
        assert.strictEqual(left!.n, 0)
      }))

    it.effect("stores a revision that introduces 30,000 documents, and more markdown than one statement takes, in statements of bounded size", () =>
      Effect.gen(function*() {
        yield* Migrations.run(migrations)
        const repo = yield* RevisionsRepo
        // More rows than one statement's parameters may carry (65,535), and more bytes than a
        // statement of documents takes (8 MiB), in documents the client can read back.
        const documents = new Map(Array.from({ length: 30_000 }, (_, i) => {
          const markdown = i < 6 ? `# Big ${i}\n\n${"Lorem ipsum dolor sit amet. ".repeat(65_000)}` : `# Page ${i}\n`
          return [documentHash(markdown), markdown] as const
        }))
        const pages = Array.from(documents.keys(), (hash, i): PageNode => ({ ...leaf(`d${i}`), type: "document", document: hash }))
        yield* repo.insert(revision("docs-1", "docs-space", { pages, files: [] }), documents)
        const hashes = Array.from(documents.keys())
        const some = hashes.filter((_, i) => i < 6 || i % 997 === 0)
        const read = yield* repo.documents(some)
        assert.strictEqual(read.size, some.length)
        for (const [hash, markdown] of read) assert.strictEqual(markdown, documents.get(hash))
        const sql = yield* SqlClient.SqlClient
        const [held] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_space_documents WHERE space_id = 'docs-space'`
        assert.strictEqual(held!.n, 30_000)
      }), 180_000)

    it.effect("writes no part when the transaction of the revision fails", () =>
      Effect.gen(function*() {
        yield* Migrations.run(migrations)
        const sql = yield* SqlClient.SqlClient
        const repo = yield* RevisionsRepo
        const { transaction } = yield* Transactor.Transactor
        const exit = yield* Effect.exit(transaction(Effect.andThen(repo.insert(revision("parts-lost", "parts-lost", largeTree("l", 0, 5)), new Map()), Effect.fail("abort"))))
        assert.isTrue(Exit.isFailure(exit))
        assertNone(yield* repo.find("parts-lost"))
        const [left] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_tree_parts WHERE space_id = 'parts-lost'`
        assert.strictEqual(left!.n, 0)
      }))
  })

  layer(repos, { timeout: "120 seconds" })(`${database.name}: revisions named through part lists`, (it) => {
    it.effect("writes one part, at most two short part lists and a row of a few kilobytes for a one-page commit to a large revision", () =>
      Effect.gen(function*() {
        yield* Migrations.run(migrations)
        const repo = yield* RevisionsRepo
        const tree = largeTree("b", 0, 60)
        const base = revision("lists-1", "lists", tree)
        yield* repo.insert(base, new Map())
        const before = yield* footprint("lists")
        // Hundreds of parts, named through a few dozen lists.
        assert.isAbove(before.parts, 200)
        assert.isAtLeast(before.lists, 4)
        assert.isBelow(before.lists, before.parts / 8)
        let parent = base
        for (let i = 0; i < 5; i++) {
          const at = (i * 13) % parent.pages.length
          const group = parent.pages[at]!
          const pages = parent.pages.map((page, p) => p === at ? { ...group, pages: [{ ...group.pages[0]!, title: `Edited ${i}` }, ...group.pages.slice(1)] } : page)
          const child: Revision = { ...revision(`lists-${i + 2}`, "lists", { pages, files: parent.files }), parents: [parent.id] }
          const was = yield* footprint("lists")
          yield* repo.insert(child, new Map())
          const now = yield* footprint("lists")
          assert.strictEqual(now.parts, was.parts + 1, `commit ${i}: one part`)
          assert.isAtMost(now.lists - was.lists, 2, `commit ${i}: the lists around the part`)
          assert.isBelow(now.listBytes - was.listBytes, 2 * 12 * 1024, `commit ${i}: short lists`)
          // The row names its lists, not its hundreds of parts (45 bytes a hash).
          assert.isBelow(now.rowBytes - was.rowBytes, 45 * before.lists + 1024, `commit ${i}: a short row`)
          assert.deepStrictEqual(some(yield* repo.find(child.id)), child)
          parent = child
        }
        assert.deepStrictEqual(some(yield* repo.find("lists-1")), base)
      }))
  })

  layer(repos, { timeout: "120 seconds" })(`${database.name}: revisions stored with every part hash in their row`, (it) => {
    it.effect("reads a revision that named every part in its row the same once the migration moved it to part lists, which its children share", () =>
      Effect.gen(function*() {
        yield* Migrations.run(beforeLists)
        const sql = yield* SqlClient.SqlClient
        const stored = revision("named-1", "named", largeTree("n", 40, 40))
        const parts = split(stored.pages, stored.files, partBytes)
        const list = JSON.stringify({
          pages: parts.filter((part) => part.kind === "pages").map((part) => part.hash),
          files: parts.filter((part) => part.kind === "files").map((part) => part.hash)
        })
        yield* sql`
          INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, git, created_at, parts, part_hashes)
          VALUES (${stored.id}, ${stored.spaceId}, '[]'::jsonb, 'edits', '[]'::jsonb, '[]'::jsonb, '{"v":"1"}'::jsonb, NULL, ${stored.createdAt},
            ${parts.length}, ${list})`
        for (const part of parts) {
          yield* sql`INSERT INTO content_tree_parts (space_id, hash, body) VALUES (${stored.spaceId}, ${part.hash}, ${part.body}) ON CONFLICT DO NOTHING`
        }
        yield* Migrations.run(migrations)
        const repo = yield* RevisionsRepo
        assert.deepStrictEqual(some(yield* repo.find("named-1")), stored)
        const [moved] = yield* sql<{ hashes: string | null; lists: string | null }>`SELECT part_hashes AS hashes, part_lists AS lists FROM content_revisions WHERE id = 'named-1'`
        assert.isNull(moved!.hashes)
        assert.isNotNull(moved!.lists)
        // The same tree written now names the same lists: a child of a migrated revision shares them.
        const again = { ...revision("named-2", "named", { pages: stored.pages, files: stored.files }), parents: ["named-1"] }
        const was = yield* footprint("named")
        yield* repo.insert(again, new Map())
        const now = yield* footprint("named")
        assert.deepStrictEqual({ parts: now.parts, lists: now.lists }, { parts: was.parts, lists: was.lists })
        assert.deepStrictEqual(some(yield* repo.find("named-2")), again)
      }))
  })

  layer(repos, { timeout: "120 seconds" })(`${database.name}: revisions stored with a row per part`, (it) => {
    it.effect("reads a revision whose part rows named shared bodies, once the migration moved its list into its row", () =>
      Effect.gen(function*() {
        yield* Migrations.run(beforePartLists)
        const sql = yield* SqlClient.SqlClient
        const stored = revision("listed-1", "listed", largeTree("m", 2_000, 10))
        const parts = split(stored.pages, stored.files, partBytes)
        assert.isAbove(parts.length, 3)
        yield* sql`
          INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, git, created_at, parts)
          VALUES (${stored.id}, ${stored.spaceId}, '[]'::jsonb, 'edits', '[]'::jsonb, '[]'::jsonb, '{"v":"1"}'::jsonb, NULL, ${stored.createdAt}, ${parts.length})`
        for (const part of parts) {
          yield* sql`INSERT INTO content_tree_parts (space_id, hash, body) VALUES (${stored.spaceId}, ${part.hash}, ${part.body}) ON CONFLICT DO NOTHING`
          yield* sql`INSERT INTO content_revision_parts (revision_id, kind, position, hash) VALUES (${stored.id}, ${part.kind}, ${part.position}, ${part.hash})`
        }
        yield* Migrations.run(migrations)
        const repo = yield* RevisionsRepo
        assert.deepStrictEqual(some(yield* repo.find("listed-1")), stored)
        const [left] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM content_revision_parts`
        assert.strictEqual(left!.n, 0)
      }))
  })

  layer(repos, { timeout: "120 seconds" })(`${database.name}: revisions stored before parts`, (it) => {
    it.effect("reads a small inline row as before, and a row too large to read once the migration moved it into parts", () =>
      Effect.gen(function*() {
        yield* Migrations.run(beforeParts)
        const sql = yield* SqlClient.SqlClient
        // Two top-level pages of 301 each (about 360 KB): under one part, left inline.
        const smallTree = largeTree("s", 3)
        const small = revision("legacy-small", "legacy", { pages: smallTree.pages.slice(0, 2), files: smallTree.files })
        yield* sql`
          INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, git, created_at)
          VALUES (${small.id}, ${small.spaceId}, '[]'::jsonb, 'edits', ${JSON.stringify(small.pages)}::jsonb,
            ${JSON.stringify(small.files)}::jsonb, '{"v":"1"}'::jsonb, NULL, ${small.createdAt})`
        // Built by the server, as a Git import of the previous release wrote it: 45 pages of 99 children.
        yield* sql`
          INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, git, created_at)
          SELECT 'legacy-large', 'legacy', '[]'::jsonb, 'edits',
            (SELECT jsonb_agg(jsonb_build_object('id', 'g' || a, 'type', 'group', 'title', ${legacyTitle}::text || a, 'slug', 'g' || a,
              'createdAt', ${stamp}::text, 'updatedAt', ${stamp}::text,
              'pages', (SELECT jsonb_agg(jsonb_build_object('id', 'g' || a || '-' || b, 'type', 'group', 'title', ${legacyTitle}::text || b,
                'slug', 'c' || b, 'createdAt', ${stamp}::text, 'updatedAt', ${stamp}::text, 'pages', '[]'::jsonb) ORDER BY b)
                FROM generate_series(1, 99) b)) ORDER BY a)
              FROM generate_series(1, 45) a),
            '[]'::jsonb, '{"v":"1"}'::jsonb, NULL, ${small.createdAt}`
        const [size] = yield* sql<{ bytes: number }>`SELECT octet_length(pages::text)::int AS bytes FROM content_revisions WHERE id = 'legacy-large'`
        assert.isAbove(size!.bytes, maxMessageBytes)

        yield* Migrations.run(migrations)
        const repo = yield* RevisionsRepo
        assert.deepStrictEqual(some(yield* repo.find("legacy-small")), small)
        const large = some(yield* repo.find("legacy-large"))
        assert.strictEqual(large.pages.length, 45)
        assert.deepStrictEqual(large.pages.map((p) => p.pages.length), Array.from({ length: 45 }, () => 99))
        assert.deepStrictEqual(large.pages[44]?.pages[98], {
          id: "g45-99", type: "group", title: `${legacyTitle}99`, slug: "c99", createdAt: stamp, updatedAt: stamp, pages: []
        })
        assert.deepStrictEqual(large.pages.map((p) => p.id), Array.from({ length: 45 }, (_, a) => `g${a + 1}`))
        const [moved] = yield* sql<{ parts: number | null; largest: number }>`
          SELECT r.parts, (SELECT max(octet_length(body))::int FROM content_revision_parts p WHERE p.revision_id = r.id) AS largest
          FROM content_revisions r WHERE r.id = 'legacy-large'`
        assert.isAbove(moved!.parts ?? 0, 4)
        // jsonb prints a space after each colon and comma: a moved part stays within twice the bound.
        assert.isAtMost(moved!.largest, 2 * partBytes)
        const [kept] = yield* sql<{ parts: number | null }>`SELECT parts FROM content_revisions WHERE id = 'legacy-small'`
        assert.isNull(kept!.parts)
      }))
  })
}
