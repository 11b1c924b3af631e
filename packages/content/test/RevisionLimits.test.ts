/**
 * What one revision may store, through the one write path (RevisionWriter) on memory, PostgreSQL
 * and PGlite: a write over a limit is refused with InvalidInput naming the limit and stores
 * nothing; a tree too large for one row is written and read back in parts.
 *
 * The writer here holds lower counts and tree size than the defaults (`limits`), and the database
 * client reads at most 2 MiB a message, so that no test builds a revision of 100,000 pages or
 * 64 MiB; the default limits themselves are checked without a database.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlTransactor } from "@quire/db"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { at, Backends, some } from "@quire/testkit"
import { ContentLayers, defaultRevisionLimits, MainObservers, migrations, ParsePool, RevisionsRepo, RevisionWriter, SpacesRepo } from "../src/index.ts"
import { documentHash, type FileNode, type PageNode, type Revision } from "../src/domain/Revision.ts"
import { checkRevisionLimits, type RevisionLimits } from "../src/domain/RevisionLimits.ts"
import type { ContentChange } from "../src/RevisionWriter.ts"
import { spaceHead } from "./contract/Fixtures.ts"
import { largeTree } from "./contract/LargeTree.ts"

/** The writer's limits here: the defaults, with counts and a tree size that a test reaches in a moment. */
const limits: RevisionLimits = { ...defaultRevisionLimits, pages: 5_000, files: 2_000, treeBytes: 8 * 1024 * 1024 }

/** What the database client reads in one message here: a row over it could not be read back. */
const maxMessageBytes = 2 * 1024 * 1024

const writerOver = <A, E, R>(repos: Layer.Layer<A, E, R>) =>
  RevisionWriter.layerWith({ limits }).pipe(Layer.provideMerge(repos), Layer.provide([Ids.Ids.layer, ParsePool.layerMainThread, MainObservers.layerNone]))

const backends = Backends.make({
  client: { maxMessageBytes },
  memory: writerOver(Layer.merge(ContentLayers.layerReposMemory, Transactor.Transactor.layerMemory)),
  sql: () => writerOver(Layer.merge(ContentLayers.layerReposSql, SqlTransactor.layer)),
  migrations: [migrations]
})

const stamp = "2024-01-01T00:00:00.000Z"
const page = (id: string, overrides: Partial<PageNode> = {}): PageNode => ({
  id,
  type: "link",
  title: `Page ${id}`,
  slug: id,
  target: { kind: "url", url: "https://example.com" },
  createdAt: stamp,
  updatedAt: stamp,
  pages: [],
  ...overrides
})

/** A space on a first revision holding `pages`, and the head of its main content (outside search). */
const spaceWith = (id: string, pages: ReadonlyArray<PageNode> = [page(`${id}-home`)]) => spaceHead(id, "org-limits", pages)

/** The message of the InvalidInput `write` fails with; the space still points at its first revision, unchanged. */
const refused = Effect.fnUntraced(function*(id: string, change: ContentChange) {
  const writer = yield* RevisionWriter
  const { head, first } = yield* spaceWith(id)
  const error = yield* Effect.flip(writer.write(head, () => Effect.succeed(change)))
  assert.instanceOf(error, Errors.InvalidInput)
  const space = some(yield* (yield* SpacesRepo).find(id))
  assert.strictEqual(space.revisionId, first.id)
  assert.deepStrictEqual(some(yield* (yield* RevisionsRepo).find(first.id)), first)
  return error.message
})

Backends.each(backends, (it) => {
  it.effect("refuses a revision of more pages than the pages-per-revision limit, storing nothing", () =>
    Effect.gen(function*() {
      const pages = Array.from({ length: limits.pages + 1 }, (_, i) => page(`p${i}`))
      const message = yield* refused("lim-pages", { pages })
      assert.include(message, "pages-per-revision limit")
      assert.include(message, `at most ${limits.pages} pages`)
    }), { timeout: 60_000 })

  it.effect("refuses a revision of more files than the files-per-revision limit, storing nothing", () =>
    Effect.gen(function*() {
      const files = Array.from({ length: limits.files + 1 }, (_, i): FileNode => ({
        id: `f${i}`, name: `f${i}.png`, contentType: "image/png", size: 1, blob: "0".repeat(64)
      }))
      const message = yield* refused("lim-files", { pages: [page("home")], files })
      assert.include(message, "files-per-revision limit")
    }), { timeout: 60_000 })

  it.effect("refuses a page whose own fields are over the page-size limit, and a tree over the tree-size limit", () =>
    Effect.gen(function*() {
      const oneLarge = yield* refused("lim-node", { pages: [page("huge", { description: "d".repeat(limits.nodeBytes) })] })
      assert.include(oneLarge, "page-size limit")
      assert.include(oneLarge, "\"huge\"")
      // Each page under the page-size limit, together over the tree-size limit.
      const description = "é".repeat(limits.nodeBytes / 2 - 1_000)
      const count = Math.ceil(limits.treeBytes / limits.nodeBytes) + 2
      const tree = yield* refused("lim-tree", { pages: Array.from({ length: count }, (_, i) => page(`t${i}`, { description })) })
      assert.include(tree, "tree-size limit")
      assert.include(tree, "8 MiB")
    }), { timeout: 60_000 })

  it.effect("refuses markdown over the page-markdown limit and a Git origin over the metadata limit, storing neither", () =>
    Effect.gen(function*() {
      const markdown = "é".repeat(limits.documentBytes / 2 + 1)
      const hash = documentHash(markdown)
      const message = yield* refused("lim-doc", {
        pages: [page("big", { type: "document", title: "Big page", document: hash, target: undefined })],
        documents: new Map([[hash, markdown]])
      })
      assert.include(message, "page-markdown limit")
      assert.include(message, "\"Big page\"")
      assert.strictEqual((yield* (yield* RevisionsRepo).documents([hash])).size, 0)

      const git = { oid: "abc", message: "m".repeat(limits.metadataBytes), createdByService: true }
      const metadata = yield* refused("lim-git", { pages: [page("home")], git })
      assert.include(metadata, "revision-metadata limit")
    }), { timeout: 60_000 })

  it.effect("refuses markdown nested past a markdown limit (every writer: edits, merges, imports), naming the limit and storing nothing", () =>
    Effect.gen(function*() {
      for (const [name, markdown, limit] of [
        ["brackets", `${"[".repeat(16_384)}x${"]".repeat(16_384)}`, "bracket-nesting limit"],
        ["list", Array.from({ length: 600 }, (_, i) => `${"  ".repeat(i)}- x`).join("\n"), "list-and-quote-nesting limit"],
        ["hints", `${"{% hint %}\n".repeat(3_000)}x\n${"{% endhint %}\n".repeat(3_000)}`, "GitBook-block-nesting limit"],
        ["quote", `${">".repeat(20_000)} x`, "list-and-quote-nesting limit"]
      ] as const) {
        const hash = documentHash(markdown)
        const message = yield* refused(`lim-md-${name}`, {
          pages: [page(name, { type: "document", title: `Hostile ${name}`, document: hash, target: undefined })],
          documents: new Map([[hash, markdown]])
        })
        assert.include(message, limit)
        assert.include(message, `"Hostile ${name}"`)
        assert.strictEqual((yield* (yield* RevisionsRepo).documents([hash])).size, 0)
      }
    }), { timeout: 60_000 })

  it.effect("writes a tree larger than one row may hold and reads it back in full", () =>
    Effect.gen(function*() {
      const writer = yield* RevisionWriter
      const { head } = yield* spaceWith("lim-large")
      const tree = largeTree("w", 1_000, 12)
      const revisions = yield* RevisionsRepo
      // Read back inside the write's transaction, before the adapter's cache has it: from the store itself.
      const written = yield* writer.write(head, () => Effect.succeed({ pages: tree.pages, files: tree.files }), {
        within: ({ revision }) => Effect.map(revisions.find(revision.id), some)
      })
      const space = some(yield* (yield* SpacesRepo).find("lim-large"))
      assert.strictEqual(space.revisionId, written.revision.id)
      assert.deepStrictEqual([written.result.pages, written.result.files], [tree.pages, tree.files])
      assert.isAbove(Buffer.byteLength(JSON.stringify(tree.pages)), maxMessageBytes)
    }), { timeout: 120_000 })
})

/** A revision of `pages` and `files`, for the limits' own check. */
const revisionOf = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode> = []): Revision => ({
  id: "r", spaceId: "s", parents: [], type: "edits", pages, files, variables: {}, git: null, createdAt: at(5)
})

const fileNode = (i: number): FileNode => ({ id: `f${i}`, name: `f${i}.png`, contentType: "image/png", size: 1, blob: "0".repeat(64) })

/** The message the default limits refuse a revision of `pages` and `files` with. */
const refusal = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode> = []) =>
  Effect.map(Effect.flip(checkRevisionLimits(revisionOf(pages, files), new Map())), (error) => error.message)

describe("the default limits", () => {
  it.effect("hold 100,000 pages and refuse one more, and refuse 100,001 files and a tree over 64 MiB, naming each limit", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(
        [defaultRevisionLimits.pages, defaultRevisionLimits.files, defaultRevisionLimits.treeBytes],
        [100_000, 100_000, 64 * 1024 * 1024]
      )
      const pages = Array.from({ length: defaultRevisionLimits.pages }, (_, i) => page(`p${i}`))
      yield* checkRevisionLimits(revisionOf(pages), new Map())
      const tooMany = yield* refusal([...pages, page("one-more")])
      assert.include(tooMany, `at most ${defaultRevisionLimits.pages} pages (the pages-per-revision limit)`)
      const files = yield* refusal([page("home")], Array.from({ length: defaultRevisionLimits.files + 1 }, (_, i) => fileNode(i)))
      assert.include(files, `at most ${defaultRevisionLimits.files} files (the files-per-revision limit)`)
      const description = "é".repeat(defaultRevisionLimits.nodeBytes / 2 - 1_000)
      const count = Math.ceil(defaultRevisionLimits.treeBytes / defaultRevisionLimits.nodeBytes) + 2
      const tree = yield* refusal(Array.from({ length: count }, (_, i) => page(`t${i}`, { description })))
      assert.include(tree, "at most 64 MiB (the tree-size limit)")
    }))
})
