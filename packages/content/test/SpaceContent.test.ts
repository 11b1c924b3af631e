/**
 * The space content use cases over the memory adapters: reads of the current revision, the commit
 * path (races, locks, shared documents), templates, website imports and files.
 */
import { AuditLayers } from "@quire/audit"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Exit, Fiber, Latch, Layer, Option, Result } from "effect"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { as, LocalServer, memberRoles } from "@quire/testkit"
import { BlobStore } from "../src/BlobStore.ts"
import { CollectionsRepo } from "../src/CollectionsRepo.ts"
import { ContentLayers, ContentLinks, MainObservers, Memberships, ParsePool, RevisionWriter, SpaceContent, SpaceDependents, Spaces, SpacesRepo } from "../src/index.ts"
import { linkItems } from "../src/ContentLinks.ts"
import { documentHash, flattenPages, type PageNode, type Revision } from "../src/domain/Revision.ts"
import { OutboundFetch } from "@quire/outbound"
import { classifyLinks } from "@quire/markdown"
import { htmlLinks } from "../src/markdown/Dom.ts"
import { PermissionsRepo } from "../src/PermissionsRepo.ts"
import { RevisionsRepo } from "../src/RevisionsRepo.ts"
import { ImportRunsRepo } from "../src/ImportRunsRepo.ts"
import { SearchIndex } from "../src/SearchIndex.ts"
import { StorageUsageRepo } from "../src/StorageUsageRepo.ts"
import { rewriteLinks } from "../src/SpaceContent.ts"

const org = "org-1"

const roles = memberRoles({ [org]: { admin: "admin", editor: "edit", reader: "read" } })

/** The documents each `RevisionsRepo.insert` was given, in order. */
class Inserts extends Context.Service<Inserts, { readonly documents: Array<ReadonlyMap<string, string>> }>()("test/Inserts") {
  static readonly layer = Layer.sync(Inserts, () => ({ documents: [] }))
}

const recordingRevisions = Layer.effect(
  RevisionsRepo,
  Effect.gen(function*() {
    const inner = yield* RevisionsRepo
    const inserts = yield* Inserts
    return RevisionsRepo.of({
      ...inner,
      insert: (revision, documents, shared, links) => Effect.andThen(Effect.sync(() => inserts.documents.push(documents)), inner.insert(revision, documents, shared, links))
    })
  })
).pipe(Layer.provide(RevisionsRepo.layerMemory))

const layerWith = (options: Parameters<typeof RevisionWriter.layerWith>[0] = {}) =>
  SpaceContent.layer.pipe(
    Layer.provideMerge(RevisionWriter.layerWith(options)),
    Layer.provideMerge(ContentLayers.layerServices),
    Layer.provideMerge(Layer.mergeAll(SpacesRepo.layerMemory, CollectionsRepo.layerMemory, recordingRevisions, BlobStore.layerMemory, SearchIndex.layerMemory, ImportRunsRepo.layerMemory, StorageUsageRepo.layerMemory, PermissionsRepo.layerMemory, AuditLayers.layerMemory)),
    Layer.provideMerge(Inserts.layer),
    Layer.provide([
      Memberships.layerTest(roles),
      SpaceDependents.layerNone,
      MainObservers.layerNone,
      Ids.Ids.layerTest,
      Transactor.Transactor.layerMemory,
      OutboundFetch.layer({ allow: ["127.0.0.1"] }),
      ParsePool.layerMainThread
    ])
  )

const layer = layerWith()

/** The tag and message of the error `self` fails with. */
const flip = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(self), (e) => {
    const { _tag: tag, message } = e as { readonly _tag: string; readonly message: string }
    return { tag, message }
  })

const newSpace = (title = "Docs") =>
  Effect.map(Effect.flatMap(Effect.service(Spaces), (spaces) => spaces.create(org, { title })), (a) => a.space.id).pipe(as("admin"))

/** A document page with its markdown. */
const documentPage = (id: string, title: string, markdown: string, pages: ReadonlyArray<PageNode> = []) => ({
  page: {
    id,
    type: "document" as const,
    title,
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    document: documentHash(markdown),
    createdAt: "2024-01-01T00:00:00.000Z",
    updatedAt: "2024-01-01T00:00:00.000Z",
    pages
  },
  documents: new Map([[documentHash(markdown), markdown]])
})

/** A commit that appends one page. */
const appendPage = (id: string, title: string, markdown: string) => (current: Revision) =>
  Effect.sync(() => {
    const { documents, page } = documentPage(id, title, markdown)
    return { pages: [...current.pages, page], documents }
  })

/** `current` with page `id` changed by `change`, every node copied (as a change set builds) or only the path to it. */
const editing = (id: string, change: (page: PageNode) => PageNode, copied: boolean) => (current: Revision) => {
  const edit = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
    nodes.map((node) => node.id === id ? change(node) : node.pages.length === 0 && !copied ? node : { ...node, pages: edit(node.pages) })
  return Effect.succeed({ pages: edit(copied ? structuredClone(current.pages) : current.pages) })
}

const markdownOf = (spaceId: string, pageId: string) =>
  Effect.flatMap(Effect.service(SpaceContent), (content) => content.page(spaceId, pageId)).pipe(
    Effect.map((page) => page.markdown),
    as("admin")
  )

describe("SpaceContent.commit", () => {
  it.effect("records the links of the documents a commit introduces, which the link graph then reads; older documents are parsed once and recorded", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const repo = yield* RevisionsRepo
      const links = yield* ContentLinks
      const spaceId = yield* newSpace()
      const guide = "See [install](install.md), ![the chart](https://example.com/chart.png) and <a href=\"https://example.com/faq\">the FAQ</a>."
      yield* content.commit(spaceId, appendPage("p1", "Guide", guide)).pipe(as("editor"))
      yield* content.commit(spaceId, appendPage("p2", "Install", "No links.")).pipe(as("editor"))
      const recorded = yield* repo.documentLinks([documentHash(guide), documentHash("No links.")])
      assert.deepStrictEqual(recorded.get(documentHash(guide)), [
        { url: "install.md", kind: "link" },
        { url: "https://example.com/chart.png", kind: "image" },
        { url: "https://example.com/faq", kind: "link" }
      ])
      assert.deepStrictEqual(recorded.get(documentHash("No links.")), [])
      const listed = yield* links.spaceLinks(spaceId, { appBaseUrl: "https://app.example.com" }).pipe(as("reader"))
      assert.deepStrictEqual(listed.list.items.items.map((item) => [item.url, item.status]), [
        ["install.md", "ok"],
        ["https://example.com/chart.png", "ok"],
        ["https://example.com/faq", "ok"]
      ])

      // A document stored without its links (before they were recorded) is parsed for the graph, and recorded.
      const older = "Back to the [guide](guide.md)."
      const current = (yield* content.revision(spaceId).pipe(as("reader"))).revision
      const { page } = documentPage("p3", "Older", older)
      yield* repo.insert({ ...current, id: "rv-older", parents: [current.id], pages: [...current.pages, page] }, new Map([[documentHash(older), older]]))
      assert.isFalse((yield* repo.documentLinks([documentHash(older)])).has(documentHash(older)))
      const graph = yield* links.graph("rv-older", "https://app.example.com")
      assert.deepStrictEqual(linkItems(graph, "p3").map((item) => [item.url, item.status]), [["guide.md", "ok"]])
      assert.deepStrictEqual((yield* repo.documentLinks([documentHash(older)])).get(documentHash(older)), [{ url: "guide.md", kind: "link" }])
    }).pipe(Effect.provide(layer)))

  it.effect("stores a revision's link graph when first built: another server lists, pages and backlinks alike without the documents' links", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const repo = yield* RevisionsRepo
      const links = yield* ContentLinks
      const spaceId = yield* newSpace()
      const guide = "See [install](install.md#steps), [a page gone](gone.md), ![the chart](https://example.com/chart.png) and [the app](https://app.example.com/x)."
      yield* content.commit(spaceId, appendPage("p1", "Guide", guide)).pipe(as("editor"))
      yield* content.commit(spaceId, appendPage("p2", "Install", "Back to the [guide](guide.md), and [install](./install.md).")).pipe(as("editor"))
      const request = { appBaseUrl: "https://app.example.com" }
      const listings = Effect.gen(function*() {
        const service = yield* ContentLinks
        const all = yield* service.spaceLinks(spaceId, request)
        const ofPage = yield* service.pageLinks(spaceId, "p2", request)
        const backlinks = yield* service.pageBacklinks(spaceId, "p1", request)
        return {
          items: all.list.items.items,
          stats: all.list.stats,
          ofPage: ofPage.list.items.items,
          backlinks: backlinks.list.items.items.map(({ page }) => page.id)
        }
      }).pipe(as("reader"))
      const built = yield* listings.pipe(Effect.provideService(ContentLinks, links))
      assert.deepStrictEqual(built.items.map((item) => [item.url, item.status, item.locations]), [
        ["install.md#steps", "ok", ["p1", "p2"]],
        ["gone.md", "broken", ["p1"]],
        ["https://example.com/chart.png", "ok", ["p1"]],
        ["https://app.example.com/x", "in-app", ["p1"]],
        ["guide.md", "ok", ["p2"]]
      ])
      assert.deepStrictEqual(built.ofPage.map((item) => item.url), ["guide.md", "./install.md"])
      assert.deepStrictEqual(built.backlinks, ["p2"])

      // Another server: a link graph service of its own, over a store that can no longer give the documents or their links.
      const withoutDocuments = Layer.succeed(RevisionsRepo, RevisionsRepo.of({
        ...repo,
        documents: () => Effect.die(new Error("read the documents")),
        documentLinks: () => Effect.die(new Error("read the documents' links"))
      }))
      const read = yield* listings.pipe(Effect.provide(ContentLinks.layer.pipe(Layer.provide([withoutDocuments, ParsePool.layerMainThread])), { local: true }))
      assert.deepStrictEqual(read, built)
    }).pipe(Effect.provide(layer)))

  it.effect("makes an immutable revision whose parent is the current one and moves the space to it", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const before = yield* content.revision(spaceId).pipe(as("editor"))
      const next = yield* content.commit(spaceId, appendPage("p1", "Intro", "Hello")).pipe(as("editor"))
      assert.deepStrictEqual(next.parents, [before.revision.id])
      assert.strictEqual(next.type, "edits")
      const after = yield* content.revision(spaceId).pipe(as("reader"))
      assert.strictEqual(after.revision.id, next.id)
      assert.strictEqual(after.access.space.revisionId, next.id)
      assert.deepStrictEqual(after.revision.pages.map((p) => p.title), ["Intro"])
      assert.strictEqual(yield* markdownOf(spaceId, "p1"), "Hello")
      // The parent is untouched.
      const parent = Option.getOrThrow(yield* (yield* RevisionsRepo).find(before.revision.id))
      assert.deepStrictEqual(parent.pages, [])
    }).pipe(Effect.provide(layer)))

  it.effect("writes only the documents a revision introduces: one page changed out of 50 is one document", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const inserts = yield* Inserts
      const spaceId = yield* newSpace()
      yield* content.commit(spaceId, () =>
        Effect.sync(() => {
          const made = Array.from({ length: 50 }, (_, i) => documentPage(`p${i}`, `Page ${i}`, `# Page ${i}\n\nBody ${i}.`))
          return { pages: made.map((m) => m.page), documents: new Map(made.flatMap((m) => Array.from(m.documents))) }
        })).pipe(as("editor"))
      assert.strictEqual(inserts.documents.at(-1)?.size, 50)

      const changed = "# Page 7\n\nA better body."
      yield* content.commit(spaceId, (current) =>
        Effect.sync(() => ({
          pages: current.pages.map((p) => p.id === "p7" ? { ...p, document: documentHash(changed) } : p),
          // A builder that hands over every document still only writes the new one.
          documents: new Map([[documentHash(changed), changed], [documentHash("# Page 8\n\nBody 8."), "# Page 8\n\nBody 8."]])
        }))).pipe(as("editor"))
      assert.deepStrictEqual(Array.from(inserts.documents.at(-1)!.values()), [changed])
      assert.strictEqual(yield* markdownOf(spaceId, "p7"), changed)
      assert.strictEqual(yield* markdownOf(spaceId, "p8"), "# Page 8\n\nBody 8.")

      // A commit that changes no document writes none.
      yield* content.commit(spaceId, (current) => Effect.succeed({ pages: current.pages.toReversed() })).pipe(as("editor"))
      assert.strictEqual(inserts.documents.at(-1)?.size, 0)
    }).pipe(Effect.provide(layer)))

  it.effect("writes the same documents when its builder copies every node: none a kept page already had, a new one once", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const inserts = yield* Inserts
      const spaceId = yield* newSpace()
      const made = ["One", "Two", "Three"].map((title) => documentPage(title.toLowerCase(), title, `# ${title}`))
      yield* content.commit(spaceId, () => Effect.succeed({ pages: made.map((m) => m.page), documents: new Map(made.flatMap((m) => Array.from(m.documents))) })).pipe(as("editor"))
      /** A commit whose builder copies the whole tree (as a change set does) and gives the documents of `set`. */
      const copying = (set: Record<string, string>, documents: Record<string, string> = {}) =>
        content.commit(spaceId, (current) =>
          Effect.succeed({
            pages: structuredClone(current.pages).map((p) => set[p.id] === undefined ? p : { ...p, document: documentHash(set[p.id]!) }),
            documents: new Map(Object.values(documents).map((markdown) => [documentHash(markdown), markdown]))
          })).pipe(as("editor"))
      // Page one takes page two's text: a document the parent has, written again by nobody.
      yield* copying({ one: "# Two" }, { a: "# Two" })
      assert.strictEqual(inserts.documents.at(-1)?.size, 0)
      // Two pages take one new text: one document.
      yield* copying({ one: "# New", two: "# New" }, { a: "# New" })
      assert.deepStrictEqual(Array.from(inserts.documents.at(-1)!.values()), ["# New"])
      // Page two goes back to its first text, which only an older revision has: found in the store, not given.
      yield* copying({ two: "# Two" })
      assert.strictEqual(inserts.documents.at(-1)?.size, 0)
      // Page one's first text was dropped two revisions ago: given again, it is written again (the store keeps it, once).
      yield* copying({ one: "# One" }, { a: "# One" })
      assert.deepStrictEqual(Array.from(inserts.documents.at(-1)!.values()), ["# One"])
      assert.deepStrictEqual(
        yield* Effect.forEach(["one", "two", "three"], (id) => markdownOf(spaceId, id)),
        ["# One", "# Two", "# Three"]
      )
      assert.isTrue(Exit.isFailure(yield* Effect.exit(copying({ three: "# Never stored" }))))
      assert.strictEqual(yield* markdownOf(spaceId, "three"), "# Three")
    }).pipe(Effect.provide(layer)))

  it.effect("refuses an edit that breaks a rule of the tree after valid writes, however the builder made the tree", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const child = documentPage("child", "Child", "c")
      const sibling = documentPage("sibling", "Sibling", "s")
      const parent = documentPage("parent", "Parent", "p", [child.page, sibling.page])
      yield* content.commit(spaceId, () =>
        Effect.succeed({ pages: [parent.page], documents: new Map([...parent.documents, ...child.documents, ...sibling.documents]) })).pipe(as("editor"))
      for (const copied of [false, true]) {
        const refused = (id: string, change: (page: PageNode) => PageNode) => flip(content.commit(spaceId, editing(id, change, copied)).pipe(as("editor")))
        assert.match((yield* refused("sibling", (p) => ({ ...p, slug: "child" }))).message, /two sibling pages have the slug "child"/)
        assert.match((yield* refused("sibling", (p) => ({ ...p, slug: "a/b" }))).message, /"a\/b" is not a valid slug/)
        assert.match((yield* refused("parent", (p) => ({ ...p, slug: "" }))).message, /"" is not a valid slug/)
        assert.match((yield* refused("child", (p) => ({ ...p, document: undefined }))).message, /document page "child" has no document/)
        assert.match((yield* refused("child", (p) => ({ ...p, id: "sibling" }))).message, /page id "sibling" appears twice/)
      }
      // A rename to a free slug is a valid edit, and the page's path follows it.
      yield* content.commit(spaceId, editing("sibling", (p) => ({ ...p, slug: "renamed" }), false)).pipe(as("editor"))
      assert.strictEqual((yield* content.page(spaceId, "sibling").pipe(as("reader"))).path, "parent/renamed")
    }).pipe(Effect.provide(layer)))

  it.effect("loses no write when two commits race from the same revision: the loser is rebuilt on the winner", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const base = (yield* content.revision(spaceId).pipe(as("admin"))).revision.id
      const bothBuilding = yield* Latch.make(false)
      let builds = 0
      const racing = (id: string, title: string) => (current: Revision) =>
        Effect.gen(function*() {
          if (++builds === 2) yield* bothBuilding.open
          yield* bothBuilding.await
          return yield* appendPage(id, title, title)(current)
        })
      const [a, b] = yield* Effect.all([
        content.commit(spaceId, racing("a", "Alpha")).pipe(as("editor")),
        content.commit(spaceId, racing("b", "Beta")).pipe(as("admin"))
      ], { concurrency: 2 })
      assert.strictEqual(builds, 3)
      const [first, second] = a.parents[0] === base ? [a, b] : [b, a]
      assert.deepStrictEqual(first.parents, [base])
      assert.deepStrictEqual(second.parents, [first.id])
      const final = yield* content.revision(spaceId).pipe(as("reader"))
      assert.strictEqual(final.revision.id, second.id)
      assert.sameMembers(final.revision.pages.map((p) => p.title), ["Alpha", "Beta"])
    }).pipe(Effect.provide(layer)))

  it.effect("fails a commit that keeps losing the race with Conflict, and keeps the winner's content", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const bothBuilding = yield* Latch.make(false)
      let builds = 0
      const racing = (id: string) => (current: Revision) =>
        Effect.gen(function*() {
          if (++builds === 2) yield* bothBuilding.open
          yield* bothBuilding.await
          return yield* appendPage(id, id, id)(current)
        })
      const fibers = [
        yield* Effect.forkChild(Effect.result(content.commit(spaceId, racing("one")).pipe(as("editor")))),
        yield* Effect.forkChild(Effect.result(content.commit(spaceId, racing("two")).pipe(as("editor"))))
      ]
      const results = yield* Effect.forEach(fibers, Fiber.join)
      const failures = results.filter(Result.isFailure).map((r) => r.failure)
      assert.deepStrictEqual(failures.map((e) => e instanceof Errors.Conflict), [true])
      const final = yield* content.revision(spaceId).pipe(as("reader"))
      const winners = results.filter(Result.isSuccess).map((r) => r.success.id)
      assert.deepStrictEqual([final.revision.id], winners)
      assert.strictEqual(final.revision.pages.length, 1)
    }).pipe(Effect.provide(layerWith({ attempts: 1 }))))

  it.effect("refuses writes to a locked space, except system writes, and needs the edit permission", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaces = yield* Spaces
      const spaceId = yield* newSpace()
      yield* spaces.update(spaceId, { editMode: "locked" }).pipe(as("admin"))
      const locked = yield* flip(content.commit(spaceId, appendPage("p", "Page", "x")).pipe(as("admin")))
      assert.strictEqual(locked.tag, "Forbidden")
      assert.match(locked.message, /is locked/)
      assert.strictEqual((yield* flip(content.applyTemplate(spaceId, "runbook").pipe(as("admin")))).tag, "Forbidden")
      assert.strictEqual((yield* flip(content.importWebsite(spaceId, "http://127.0.0.1:1/").pipe(as("admin")))).tag, "Forbidden")
      const system = yield* content.commit(spaceId, appendPage("p", "Page", "x"), { system: true }).pipe(as("admin"))
      assert.strictEqual((yield* content.revision(spaceId).pipe(as("reader"))).revision.id, system.id)

      yield* spaces.update(spaceId, { editMode: "live" }).pipe(as("admin"))
      const reader = yield* flip(content.commit(spaceId, appendPage("q", "Other", "y")).pipe(as("reader")))
      assert.strictEqual(reader.tag, "Forbidden")
      assert.strictEqual((yield* flip(content.commit(spaceId, appendPage("q", "Other", "y")).pipe(as("outsider")))).tag, "NotFound")
      assert.strictEqual((yield* flip(content.revision(spaceId).pipe(as("outsider")))).tag, "NotFound")
    }).pipe(Effect.provide(layer)))

  it.effect("refuses trees a revision may not hold", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const one = documentPage("same", "Twin", "a")
      const two = documentPage("other", "Twin", "b")
      const duplicateSlug = yield* flip(content.commit(spaceId, () =>
        Effect.succeed({ pages: [one.page, two.page], documents: new Map([...one.documents, ...two.documents]) })).pipe(as("admin")))
      assert.strictEqual(duplicateSlug.tag, "InvalidInput")
      assert.match(duplicateSlug.message, /slug "twin"/)
      const duplicateId = yield* flip(content.commit(spaceId, () =>
        Effect.succeed({ pages: [one.page, { ...one.page, slug: "x" }], documents: one.documents })).pipe(as("admin")))
      assert.match(duplicateId.message, /appears twice/)
      // Siblings may share a slug only across different parents.
      const nested = documentPage("parent", "Twin", "a", [documentPage("child", "Twin", "a").page])
      yield* content.commit(spaceId, () => Effect.succeed({ pages: [nested.page], documents: nested.documents })).pipe(as("admin"))
      const page = yield* content.page(spaceId, "child").pipe(as("reader"))
      assert.strictEqual(page.path, "twin/twin")
      // Added to a tree that holds it already (deeper down), a page's id is refused as on a first write.
      const again = yield* flip(content.commit(spaceId, appendPage("child", "Again", "c")).pipe(as("admin")))
      assert.match(again.message, /appears twice/)
      const twice = yield* flip(content.commit(spaceId, (current) =>
        Effect.sync(() => {
          const { documents, page } = documentPage("new", "New", "n")
          return { pages: [...current.pages, page, { ...page, slug: "new-too" }], documents }
        })).pipe(as("admin")))
      assert.match(twice.message, /appears twice/)
      yield* content.commit(spaceId, appendPage("fresh", "Fresh", "f")).pipe(as("admin"))
      assert.strictEqual((yield* content.page(spaceId, "fresh").pipe(as("reader"))).path, "fresh")
    }).pipe(Effect.provide(layer)))
})

describe("SpaceContent reads", () => {
  it.effect("answers a page with its path and markdown, and NotFound for a page of no revision", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const child = documentPage("c", "Install", "Run it.")
      const parent = documentPage("p", "Guide", "Read me.", [child.page])
      yield* content.commit(spaceId, () => Effect.succeed({ pages: [parent.page], documents: new Map([...parent.documents, ...child.documents]) })).pipe(as("editor"))
      const page = yield* content.page(spaceId, "c").pipe(as("reader"))
      assert.strictEqual(page.path, "guide/install")
      assert.strictEqual(page.markdown, "Run it.")
      assert.strictEqual((yield* flip(content.page(spaceId, "nope").pipe(as("reader")))).tag, "NotFound")
    }).pipe(Effect.provide(layer)))

  it.effect("stores files in the blob store with their size and image dimensions, and lists them page by page", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const gif = Uint8Array.from([..."GIF89a"].map((c) => c.charCodeAt(0)).concat([40, 0, 30, 0, 0, 0, 0]))
      yield* content.commit(spaceId, (current) =>
        Effect.gen(function*() {
          const files = [
            yield* content.storeFile("org-1", { name: "c.txt", contentType: "text/plain", bytes: new TextEncoder().encode("hello") }),
            yield* content.storeFile("org-1", { name: "a.gif", contentType: "image/gif", bytes: gif }),
            yield* content.storeFile("org-1", { name: "b.txt", contentType: "text/plain", bytes: new TextEncoder().encode("hello") })
          ]
          return { pages: current.pages, files }
        })).pipe(as("editor"))
      const first = yield* content.files(spaceId, { limit: 2 }).pipe(as("reader"))
      assert.deepStrictEqual(first.files.items.map((f) => f.name), ["a.gif", "b.txt"])
      assert.deepStrictEqual(first.files.items[0]?.dimensions, { width: 40, height: 30 })
      assert.strictEqual(first.files.items[1]?.size, 5)
      assert.isUndefined(first.files.items[1]?.dimensions)
      const rest = yield* content.files(spaceId, { limit: 2, page: first.files.next }).pipe(as("reader"))
      assert.deepStrictEqual(rest.files.items.map((f) => f.name), ["c.txt"])
      assert.isUndefined(rest.files.next)
      assert.strictEqual((yield* flip(content.files(spaceId, { page: "garbage" }).pipe(as("reader")))).tag, "InvalidInput")

      const txt = first.files.items[1]!
      assert.strictEqual((yield* content.file(spaceId, txt.id).pipe(as("reader"))).file.blob, txt.blob)
      assert.strictEqual(new TextDecoder().decode(yield* content.download(spaceId, txt.blob)), "hello")
      assert.strictEqual((yield* flip(content.file(spaceId, "nope").pipe(as("reader")))).tag, "NotFound")
      yield* (yield* Spaces).remove(spaceId).pipe(as("admin"))
      assert.strictEqual((yield* flip(content.download(spaceId, txt.blob))).tag, "NotFound")
    }).pipe(Effect.provide(layer)))
})

describe("SpaceContent.applyTemplate", () => {
  it.effect("adds a template's pages, nested pages and files, and keeps slugs unique when applied again", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      yield* content.applyTemplate(spaceId, "product-docs").pipe(as("editor"))
      const { revision } = yield* content.revision(spaceId).pipe(as("reader"))
      const paths = flattenPages(revision.pages).map((entry) => entry.path)
      assert.deepStrictEqual(paths, ["overview", "quickstart", "guides", "guides/configuration", "guides/deployment", "faq", "changelog"])
      assert.strictEqual(revision.pages[2]?.type, "group")
      const [banner] = revision.files
      assert.deepStrictEqual([banner?.name, banner?.contentType, banner?.dimensions], ["banner.png", "image/png", { width: 96, height: 32 }])
      const overview = yield* markdownOf(spaceId, revision.pages[0]!.id)
      assert.include(overview, `/files/${banner?.id}`)
      // Every link of the template resolves inside the space.
      const pagesByPath = new Map(flattenPages(revision.pages).map((entry) => [entry.path, entry.page.id]))
      const links = classifyLinks(overview ?? "", { pagePath: "overview", pagesByPath, fileIds: new Set([banner!.id]), appBaseUrl: "http://app" }, htmlLinks)
      assert.isAbove(links.length, 3)
      assert.deepStrictEqual(links.filter((l) => l.status !== "ok"), [])

      yield* content.applyTemplate(spaceId, "product-docs").pipe(as("editor"))
      const again = (yield* content.revision(spaceId).pipe(as("reader"))).revision
      assert.deepStrictEqual(again.pages.map((p) => p.slug).slice(5), ["overview-2", "quickstart-2", "guides-2", "faq-2", "changelog-2"])
      assert.strictEqual(again.files.length, 2)
      const overview2 = yield* markdownOf(spaceId, again.pages[5]!.id)
      assert.include(overview2, "(quickstart-2.md)")
      assert.include(overview2, "(guides-2/configuration.md)")
    }).pipe(Effect.provide(layer)))

  it.effect("knows every template of the catalogue and refuses an unknown one, naming the field", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      for (const id of ["blank", "product-docs", "api-reference", "knowledge-base", "runbook"]) {
        const spaceId = yield* newSpace(id)
        yield* content.applyTemplate(spaceId, id).pipe(as("admin"))
        const { revision } = yield* content.revision(spaceId).pipe(as("admin"))
        assert.isAbove(revision.pages.length, 0, id)
      }
      const spaceId = yield* newSpace()
      const unknown = yield* flip(content.applyTemplate(spaceId, "nope").pipe(as("admin")))
      assert.strictEqual(unknown.tag, "InvalidInput")
      assert.match(unknown.message, /^id: no template "nope"/)
      assert.strictEqual((yield* flip(content.applyTemplate(spaceId, "blank").pipe(as("reader")))).tag, "Forbidden")
    }).pipe(Effect.provide(layer)))
})

describe("SpaceContent.importWebsite", () => {
  it.live("imports a local site as pages after the existing ones, with unique slugs and working links", () =>
    Effect.gen(function*() {
      const server = yield* LocalServer.serveRoutes({
        "/": { body: `<title>Home</title><h1>Home</h1><p>See <a href="/a.html">A</a> and <a href="/b.html">B</a>.</p>` },
        "/a.html": { body: `<title>A</title><h1>Alpha</h1><p>Next: <a href="/b.html">B</a>.</p>` },
        "/b.html": { body: `<title>B</title><h1>Beta</h1><p>Back <a href="/">home</a>.</p>` }
      })
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      yield* content.commit(spaceId, appendPage("mine", "A", "My own page a.")).pipe(as("editor"))
      const result = yield* content.importWebsite(spaceId, `${server.origin}/`).pipe(as("editor"))
      assert.strictEqual(result.importedResources, 3)
      assert.strictEqual(result.totalResources, 3)
      const { revision } = yield* content.revision(spaceId).pipe(as("reader"))
      assert.strictEqual(revision.id, result.revision.id)
      assert.deepStrictEqual(revision.pages.map((p) => [p.slug, p.title]), [["a", "A"], ["home", "Home"], ["a-2", "Alpha"], ["b", "Beta"]])
      const home = yield* markdownOf(spaceId, revision.pages[1]!.id)
      assert.include(home, "[A](a-2.md)")
      assert.include(home, "[B](b.md)")
      const pagesByPath = new Map(revision.pages.map((p) => [p.slug, p.id]))
      for (const page of revision.pages.slice(1)) {
        const markdown = (yield* markdownOf(spaceId, page.id)) ?? ""
        const links = classifyLinks(markdown, { pagePath: page.slug, pagesByPath, fileIds: new Set(), appBaseUrl: "http://app" }, htmlLinks)
        assert.deepStrictEqual(links.map((l) => l.status).filter((s) => s !== "ok"), [], page.slug)
      }
    }).pipe(Effect.provide(layer)))

  it.live("a page nested past the imports' HTML-nesting limit is skipped (the start page: refused, naming the limit), never parsed", () =>
    Effect.gen(function*() {
      const deep = `<title>Deep</title><main>${"<div>".repeat(20_000)}x${"</div>".repeat(20_000)}</main>`
      const server = yield* LocalServer.serveRoutes({
        "/": { body: `<title>Home</title><h1>Home</h1><p><a href="/deep.html">Deep</a></p>` },
        "/deep.html": { body: deep },
        "/start.html": { body: deep }
      })
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const started = performance.now()
      const result = yield* content.importWebsite(spaceId, `${server.origin}/`).pipe(as("editor"))
      assert.strictEqual(result.importedResources, 1)
      const refused = yield* flip(content.importWebsite(spaceId, `${server.origin}/start.html`).pipe(as("editor")))
      assert.include(refused.message, "HTML-nesting limit of imports")
      // Converting the page took 21 s before it overflowed the stack.
      assert.isBelow(performance.now() - started, 5_000)
    }).pipe(Effect.provide(layer)))

  it.live("refuses private addresses that are not allowed, naming the url", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* newSpace()
      const blocked = yield* flip(content.importWebsite(spaceId, "http://10.1.2.3/").pipe(as("editor")))
      assert.strictEqual(blocked.tag, "InvalidInput")
      assert.match(blocked.message, /^url: .*not a public address/)
      const reader = yield* flip(content.importWebsite(spaceId, "http://127.0.0.1:1/").pipe(as("reader")))
      assert.strictEqual(reader.tag, "Forbidden")
    }).pipe(Effect.provide(layer)))
})

describe("rewriteLinks", () => {
  it("renames the first segment of relative .md links only", () => {
    const renames = new Map([["guide", "guide-2"]])
    assert.strictEqual(
      rewriteLinks("[a](guide.md) [b](./guide.md#x) [c](guide/setup.md) [d](guides.md) [e](https://x/guide.md) [f](/guide.md) `guide.md`", renames),
      "[a](guide-2.md) [b](./guide-2.md#x) [c](guide-2/setup.md) [d](guides.md) [e](https://x/guide.md) [f](/guide.md) `guide.md`"
    )
  })
})
