/** The behaviour every RevisionsRepo adapter must have, transactions included. */
import { assert, describe } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import { Transactor } from "@quire/kernel"
import { assertNone, at, some } from "@quire/testkit"
import { documentHash, type FileNode, type PageNode, type Revision } from "../../src/domain/Revision.ts"
import { keptLinkGraphs, RevisionsRepo, type StoredLinkGraph } from "../../src/RevisionsRepo.ts"
import type { ReposTest } from "./Fixtures.ts"
import { contractMaxMessageBytes, largeTree } from "./LargeTree.ts"

const page = (id: string, overrides: Partial<PageNode> = {}): PageNode => ({
  id,
  type: "document",
  title: `Page ${id}`,
  slug: id,
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-01T00:00:00.000Z",
  pages: [],
  ...overrides
})

/** A revision of `spaceId` with nothing in it but what `overrides` gives. */
export const revision = (id: string, spaceId: string, overrides: Partial<Revision> = {}): Revision => ({
  id,
  spaceId,
  parents: [],
  type: "edits",
  pages: [],
  files: [],
  variables: {},
  git: null,
  createdAt: at(0),
  ...overrides
})

/** The markdown of documents by their hash, as a writer hands them to `insert`. */
const documentsOf = (...markdowns: ReadonlyArray<string>): ReadonlyMap<string, string> =>
  new Map(markdowns.map((markdown) => [documentHash(markdown), markdown]))

/** Document pages, one per markdown, as a revision pointing to those documents holds them. */
const pointingTo = (...markdowns: ReadonlyArray<string>): ReadonlyArray<PageNode> =>
  markdowns.map((markdown, i) => page(`p${i}`, { document: documentHash(markdown) }))

/** A link graph of a revision of space `rv-graphs`, as `recordLinkGraph` takes it. */
const stored = (revisionId: string, graph: string, overrides: Partial<StoredLinkGraph> = {}): StoredLinkGraph => ({
  revisionId,
  spaceId: "rv-graphs",
  appBaseUrl: "https://app.example.com",
  format: 1,
  graph,
  ...overrides
})

/** Fails with this inside a transaction, to roll it back. */
class Abort {
  readonly _tag = "Abort"
}

export const revisionsRepoContract = (it: ReposTest) =>
  describe("RevisionsRepo", () => {
    it.effect("finds a revision exactly as inserted: parents, page tree, files, variables, Git origin and instant", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const intro = "# Intro\n\nWelcome to the 📘 handbook.  \r\nLine with trailing spaces and a CRLF.\n"
        const files: ReadonlyArray<FileNode> = [
          {
            id: "f-logo",
            name: "logo été.png",
            contentType: "image/png",
            size: 1234,
            dimensions: { width: 96, height: 32 },
            blob: "b".repeat(64),
            git: { oid: "0123abcd", path: ".gitbook/assets/logo été.png" }
          },
          { id: "f-notes", name: "notes.txt", contentType: "text/plain", size: 0, blob: "c".repeat(64) }
        ]
        const pages: ReadonlyArray<PageNode> = [
          page("intro", {
            title: "Intro « guillemets »",
            emoji: "1f4d8",
            description: "Where to start",
            document: documentHash(intro),
            layout: { width: "wide", cover: true, coverSize: "hero", tableOfContents: false },
            cover: { ref: { kind: "file", file: "f-logo" }, refDark: { kind: "url", url: "https://example.com/dark.png" }, yPos: 12.5 },
            variables: { product: "Quire" },
            git: { oid: "abc123", path: "README.md" },
            updatedAt: "2024-01-02T03:04:05.678Z",
            pages: [
              page("nested", { slug: "nested-child", hidden: true, icon: "book", pages: [page("deep")] })
            ]
          }),
          page("group", { type: "group", title: "Guides", pages: [page("guide-b"), page("guide-a")] }),
          page("link", { type: "link", title: "Elsewhere", target: { kind: "page", page: "group" } }),
          page("outside", { type: "link", target: { kind: "url", url: "https://example.com/?q=a&b=c" } })
        ]
        const full = revision("rv-find-2", "rv-find", {
          parents: ["rv-find-1", "rv-find-cr"],
          type: "merge",
          pages,
          files,
          variables: { version: "2.0", empty: "" },
          git: { oid: "deadbeef", message: "Merge branch 'docs'\n\nWith a body.", createdByService: true, url: "https://git.example/x", ref: "refs/heads/main" },
          createdAt: at(1_234_567)
        })
        const plain = revision("rv-find-1", "rv-find", {
          git: { oid: "cafe", message: "Initial", createdByService: false },
          createdAt: new Date(Date.UTC(2023, 11, 31, 23, 59, 59, 999))
        })
        yield* repo.insert(plain, new Map())
        yield* repo.insert(full, documentsOf(intro))

        const found = some(yield* repo.find("rv-find-2"))
        assert.deepStrictEqual(found, full)
        assert.instanceOf(found.createdAt, Date)
        assert.strictEqual(found.createdAt.getTime(), full.createdAt.getTime())
        assert.deepStrictEqual(found.pages[1]?.pages.map((p) => p.id), ["guide-b", "guide-a"])
        assert.deepStrictEqual(some(yield* repo.find("rv-find-1")), plain)
        assert.strictEqual((yield* repo.documents([documentHash(intro)])).get(documentHash(intro)), intro)
      }))

    it.effect("reads a line of history: a revision and its first parents, newest first, without trees", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const git = { oid: "abc", message: "Import", createdByService: false }
        yield* repo.insert(revision("hist-1", "hist-space", { pages: pointingTo("One.") }), documentsOf("One."))
        yield* repo.insert(revision("hist-branch", "hist-space", { parents: ["hist-1"] }), new Map())
        yield* repo.insert(revision("hist-2", "hist-space", { parents: ["hist-1"], git, createdAt: at(2) }), new Map())
        yield* repo.insert(revision("hist-3", "hist-space", { parents: ["hist-2", "hist-branch"], type: "merge", createdAt: at(3) }), new Map())
        const line = yield* repo.history("hist-3", 10)
        assert.deepStrictEqual(line.map((r) => r.id), ["hist-3", "hist-2", "hist-1"])
        assert.deepStrictEqual(line[0], { id: "hist-3", spaceId: "hist-space", parents: ["hist-2", "hist-branch"], type: "merge", git: null, createdAt: at(3) })
        assert.deepStrictEqual(line[1]?.git, git)
        assert.notProperty(line[2], "pages")
        assert.deepStrictEqual((yield* repo.history("hist-3", 2)).map((r) => r.id), ["hist-3", "hist-2"])
        assert.deepStrictEqual((yield* repo.history("hist-branch", 10)).map((r) => r.id), ["hist-branch", "hist-1"])
        assert.deepStrictEqual(yield* repo.history("hist-missing", 10), [])
      }))

    it.effect("reads back a tree larger than one row may hold (4,515 pages, 3,000 files), and removes it with its space", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const { transaction } = yield* Transactor.Transactor
        const tree = largeTree("big", 3_000, 15)
        assert.isAbove(Buffer.byteLength(JSON.stringify(tree)), contractMaxMessageBytes)
        const large = revision("rv-large-1", "rv-large", { ...tree, variables: { product: "Quire" }, createdAt: at(7) })
        // Read in the writing transaction, before the adapter's cache has it: from the store itself.
        const found = yield* transaction(Effect.andThen(repo.insert(large, new Map()), repo.find("rv-large-1")).pipe(Effect.map(some)))
        assert.deepStrictEqual(found, large)
        assert.deepStrictEqual(found.pages[14]?.pages[29]?.pages.map((p) => p.id), Array.from({ length: 9 }, (_, c) => `big-14-29-${c}`))
        // Other reads still answer: nothing broke the connection.
        const small = revision("rv-large-2", "rv-large", { parents: ["rv-large-1"], pages: [page("after")], createdAt: at(8) })
        yield* repo.insert(small, new Map())
        assert.deepStrictEqual(some(yield* repo.find("rv-large-2")), small)

        yield* repo.removeForSpace("rv-large")
        assertNone(yield* repo.find("rv-large-1"))
        assertNone(yield* repo.find("rv-large-2"))
      }), { timeout: 120_000 })

    it.effect("refuses, as a defect, a node or a document too large to store, writing nothing", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const huge = revision("rv-huge-node", "rv-huge", { pages: [page("big", { description: "d".repeat(600 * 1024) })] })
        const node = yield* Effect.exit(repo.insert(huge, new Map()))
        assert.isTrue(Exit.isFailure(node) && Cause.hasDies(node.cause))
        assertNone(yield* repo.find("rv-huge-node"))
        const markdown = "m".repeat(9 * 1024 * 1024)
        const document = yield* Effect.exit(repo.insert(revision("rv-huge-doc", "rv-huge", { pages: pointingTo(markdown) }), documentsOf(markdown)))
        assert.isTrue(Exit.isFailure(document) && Cause.hasDies(document.cause))
        assertNone(yield* repo.find("rv-huge-doc"))
        assert.strictEqual((yield* repo.documents([documentHash(markdown)])).size, 0)
      }))

    it.effect("answers none for an unknown revision, and leaves unknown hashes out of documents", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        assertNone(yield* repo.find("rv-unknown"))
        assert.strictEqual((yield* repo.documents([])).size, 0)
        assert.strictEqual((yield* repo.documents([documentHash("never stored")])).size, 0)
      }))

    it.effect("stores documents by the hash of their markdown, shared by the revisions that point to them", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const a = "Page A, first version."
        const b = "Page B.\n\n```ts\nconst x = `template ${1}`\n```\n"
        const a2 = "Page A, second version."
        const first = revision("rv-docs-1", "rv-docs", {
          pages: [page("a", { document: documentHash(a) }), page("b", { document: documentHash(b) })],
          createdAt: at(1)
        })
        // The next revision changes page A only: it introduces one document and reuses B's.
        const second = revision("rv-docs-2", "rv-docs", {
          parents: ["rv-docs-1"],
          pages: [page("a", { document: documentHash(a2) }), page("b", { document: documentHash(b) })],
          createdAt: at(2)
        })
        yield* repo.insert(first, documentsOf(a, b))
        yield* repo.insert(second, documentsOf(a2))

        const missing = documentHash("missing")
        const found = yield* repo.documents([documentHash(a), documentHash(b), documentHash(a2), missing])
        assert.deepStrictEqual(
          new Map(found),
          new Map([[documentHash(a), a], [documentHash(b), b], [documentHash(a2), a2]])
        )
        assert.isFalse(found.has(missing))
        for (const id of ["rv-docs-1", "rv-docs-2"]) {
          const { pages } = some(yield* repo.find(id))
          const hashes = pages.map((p) => p.document!)
          assert.deepStrictEqual(Array.from((yield* repo.documents(hashes)).keys()).toSorted(), hashes.toSorted())
        }
      }))

    it.effect("accepts a document that is already stored, from this space or another, and keeps it", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const shared = "The same text in two spaces."
        yield* repo.insert(revision("rv-twice-1", "rv-twice-a", { pages: [page("p", { document: documentHash(shared) })] }), documentsOf(shared))
        yield* repo.insert(revision("rv-twice-2", "rv-twice-b", { pages: [page("p", { document: documentHash(shared) })] }), documentsOf(shared))
        yield* repo.insert(revision("rv-twice-3", "rv-twice-a", { parents: ["rv-twice-1"] }), documentsOf(shared))

        assert.deepStrictEqual(new Map(yield* repo.documents([documentHash(shared)])), documentsOf(shared))
        for (const id of ["rv-twice-1", "rv-twice-2", "rv-twice-3"]) assert.strictEqual(some(yield* repo.find(id)).id, id)
      }))

    it.effect("records a document's links with it, fills in links a document stored without them lacks, and never rewrites them", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const linked = "See [the guide](guide.md) and ![a chart](chart.png)."
        const plain = "No links here."
        const early = "Stored before links were recorded: [home](README.md)."
        const [linkedHash, plainHash, earlyHash] = [linked, plain, early].map(documentHash) as [string, string, string]
        const linksOfLinked = [{ url: "guide.md", kind: "link" as const }, { url: "chart.png", kind: "image" as const }]
        yield* repo.insert(revision("rv-links-1", "rv-links", { pages: pointingTo(linked, plain, early) }), documentsOf(linked, plain, early), [],
          new Map([[linkedHash, linksOfLinked], [plainHash, []]]))
        assert.deepStrictEqual(new Map(yield* repo.documentLinks([linkedHash, plainHash, earlyHash, "unknown-hash"])), new Map([[linkedHash, linksOfLinked], [plainHash, []]]))

        // Recorded later, once; a second recording (or one of an unknown document) changes nothing.
        yield* repo.recordLinks(new Map([[earlyHash, [{ url: "README.md", kind: "link" as const }]], ["unknown-hash", []]]))
        yield* repo.recordLinks(new Map([[earlyHash, []], [linkedHash, []]]))
        const read = yield* repo.documentLinks([linkedHash, earlyHash, "unknown-hash"])
        assert.deepStrictEqual(read.get(earlyHash), [{ url: "README.md", kind: "link" }])
        assert.deepStrictEqual(read.get(linkedHash), linksOfLinked)
        assert.isFalse(read.has("unknown-hash"))

        // Another space storing a document again brings links it lacked, and leaves recorded ones.
        const late = "Stored first without links: [faq](faq.md)."
        yield* repo.insert(revision("rv-links-2", "rv-links", { parents: ["rv-links-1"], pages: pointingTo(late) }), documentsOf(late))
        assert.isFalse((yield* repo.documentLinks([documentHash(late)])).has(documentHash(late)))
        yield* repo.insert(revision("rv-links-3", "rv-links-other", { pages: pointingTo(late, linked) }), documentsOf(late, linked), [],
          new Map([[documentHash(late), [{ url: "faq.md", kind: "link" as const }]], [linkedHash, []]]))
        const again = yield* repo.documentLinks([documentHash(late), linkedHash])
        assert.deepStrictEqual(again.get(documentHash(late)), [{ url: "faq.md", kind: "link" }])
        assert.deepStrictEqual(again.get(linkedHash), linksOfLinked)

        // The links go with their documents.
        yield* repo.removeForSpace("rv-links")
        yield* repo.removeForSpace("rv-links-other")
        assert.strictEqual((yield* repo.documentLinks([linkedHash, plainHash, earlyHash, documentHash(late)])).size, 0)
      }))

    it.effect("stores a revision's link graph by app URL and format, whole however long, for the revisions of a space that stored one last", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        // Longer than a part, with characters outside the BMP (two UTF-16 units) across every boundary.
        const long = `[${"x".repeat(1023)}${"𝄞é".repeat(300_000)}]`
        yield* repo.recordLinkGraph(stored("rv-graph-1", long))
        assert.strictEqual(some(yield* repo.linkGraph("rv-graph-1", "https://app.example.com", 1)), long)
        assertNone(yield* repo.linkGraph("rv-graph-1", "https://other.example.com", 1))
        assertNone(yield* repo.linkGraph("rv-graph-1", "https://app.example.com", 2))
        assertNone(yield* repo.linkGraph("rv-graph-unknown", "https://app.example.com", 1))

        // A graph stored already is kept as it is; another app URL's is stored beside it.
        yield* repo.recordLinkGraph(stored("rv-graph-1", "[\"again\"]"))
        yield* repo.recordLinkGraph(stored("rv-graph-1", "[\"other\"]", { appBaseUrl: "https://other.example.com" }))
        assert.strictEqual(some(yield* repo.linkGraph("rv-graph-1", "https://app.example.com", 1)), long)
        assert.strictEqual(some(yield* repo.linkGraph("rv-graph-1", "https://other.example.com", 1)), "[\"other\"]")

        // The space keeps the graphs of the revisions that stored one last; other spaces keep theirs.
        yield* repo.recordLinkGraph(stored("rv-graph-other", "[\"theirs\"]", { spaceId: "rv-graphs-other" }))
        for (let i = 2; i <= keptLinkGraphs + 1; i++) yield* repo.recordLinkGraph(stored(`rv-graph-${i}`, `[${i}]`))
        assertNone(yield* repo.linkGraph("rv-graph-1", "https://app.example.com", 1))
        assertNone(yield* repo.linkGraph("rv-graph-1", "https://other.example.com", 1))
        for (let i = 2; i <= keptLinkGraphs + 1; i++) assert.strictEqual(some(yield* repo.linkGraph(`rv-graph-${i}`, "https://app.example.com", 1)), `[${i}]`)
        assert.strictEqual(some(yield* repo.linkGraph("rv-graph-other", "https://app.example.com", 1)), "[\"theirs\"]")

        // They go with their space.
        yield* repo.removeForSpace("rv-graphs")
        assertNone(yield* repo.linkGraph("rv-graph-2", "https://app.example.com", 1))
        assert.isTrue(Option.isSome(yield* repo.linkGraph("rv-graph-other", "https://app.example.com", 1)))
        yield* repo.removeForSpace("rv-graphs-other")
        assertNone(yield* repo.linkGraph("rv-graph-other", "https://app.example.com", 1))
      }))

    it.effect("removes a space's revisions and the documents no other space holds, keeping other spaces' revisions", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const own = "Only in the removed space."
        const both = "Introduced by both spaces."
        const copied = "Introduced by the removed space, taken by a duplicate."
        const hashes = [own, both, copied].map(documentHash)
        yield* repo.insert(revision("rv-rm-1", "rv-rm-gone", { pages: pointingTo(own, both, copied) }), documentsOf(own, both, copied))
        yield* repo.insert(revision("rv-rm-2", "rv-rm-gone", { parents: ["rv-rm-1"], pages: pointingTo(own) }), new Map())
        yield* repo.insert(revision("rv-rm-3", "rv-rm-kept", { pages: pointingTo(both) }), documentsOf(both))
        // A duplicate of the removed space: it takes the documents it points to from the store.
        yield* repo.insert(revision("rv-rm-4", "rv-rm-copy", { pages: pointingTo(copied) }), new Map(), [documentHash(copied)])

        yield* repo.removeForSpace("rv-rm-gone")
        assertNone(yield* repo.find("rv-rm-1"))
        assertNone(yield* repo.find("rv-rm-2"))
        assert.strictEqual(some(yield* repo.find("rv-rm-3")).spaceId, "rv-rm-kept")
        assert.strictEqual(some(yield* repo.find("rv-rm-4")).spaceId, "rv-rm-copy")
        assert.deepStrictEqual(new Map(yield* repo.documents(hashes)), documentsOf(both, copied))

        // Removing again, or a space without revisions, is harmless.
        yield* repo.removeForSpace("rv-rm-gone")
        yield* repo.removeForSpace("rv-rm-never")
        assert.deepStrictEqual(new Map(yield* repo.documents(hashes)), documentsOf(both, copied))

        // The last space holding a document takes it along.
        yield* repo.removeForSpace("rv-rm-kept")
        yield* repo.removeForSpace("rv-rm-copy")
        assert.strictEqual((yield* repo.documents(hashes)).size, 0)
      }))

    it.effect("writes nothing when the transaction it writes in fails, and keeps what a successful one wrote", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const { transaction } = yield* Transactor.Transactor
        const lost = "Written by a transaction that fails."
        const kept = "Written by a transaction that succeeds."

        const exit = yield* Effect.exit(transaction(Effect.gen(function*() {
          yield* repo.insert(revision("rv-tx-lost", "rv-tx", { pages: [page("p", { document: documentHash(lost) })] }), documentsOf(lost))
          assert.isTrue(Option.isSome(yield* repo.find("rv-tx-lost")), "the transaction sees its own write")
          return yield* Effect.fail(new Abort())
        })))
        assert.isTrue(Exit.isFailure(exit))
        assertNone(yield* repo.find("rv-tx-lost"))
        assert.strictEqual((yield* repo.documents([documentHash(lost)])).size, 0)

        yield* transaction(repo.insert(revision("rv-tx-kept", "rv-tx", { pages: [page("p", { document: documentHash(kept) })] }), documentsOf(kept)))
        assert.strictEqual(some(yield* repo.find("rv-tx-kept")).id, "rv-tx-kept")
        assert.strictEqual((yield* repo.documents([documentHash(kept)])).get(documentHash(kept)), kept)
      }))

    it.effect("keeps a space's revisions and documents when the transaction that removed them fails", () =>
      Effect.gen(function*() {
        const repo = yield* RevisionsRepo
        const { transaction } = yield* Transactor.Transactor
        const markdown = "Held by the space whose removal fails."
        const second = revision("rv-txrm-2", "rv-txrm", { parents: ["rv-txrm-1"], pages: [page("p", { document: documentHash(markdown) })] })
        yield* repo.insert(revision("rv-txrm-1", "rv-txrm"), new Map())
        yield* repo.insert(second, documentsOf(markdown))

        const exit = yield* Effect.exit(transaction(repo.removeForSpace("rv-txrm").pipe(Effect.andThen(Effect.fail(new Abort())))))
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(some(yield* repo.find("rv-txrm-2")), second)
        assert.strictEqual(some(yield* repo.find("rv-txrm-1")).id, "rv-txrm-1")
        assert.deepStrictEqual(new Map(yield* repo.documents([documentHash(markdown)])), documentsOf(markdown))

        // The space still holds its document: a removal that succeeds takes it.
        yield* transaction(repo.removeForSpace("rv-txrm"))
        assertNone(yield* repo.find("rv-txrm-2"))
        assert.strictEqual((yield* repo.documents([documentHash(markdown)])).size, 0)
      }))
  })
