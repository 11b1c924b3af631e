/**
 * A space's reusable contents through the use cases (memory adapters): a write stores them with
 * their markdown, later writes keep them, a duplicate takes them, readers find them by id.
 */
import { AuditLayers } from "@quire/audit"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { as, memberRoles } from "@quire/testkit"
import { OutboundFetch } from "@quire/outbound"
import { BlobStore } from "../src/BlobStore.ts"
import { CollectionsRepo } from "../src/CollectionsRepo.ts"
import { documentHash, type ReusableContentNode } from "../src/domain/Revision.ts"
import { ContentLayers, MainObservers, Memberships, pageDocument, ParsePool, RevisionWriter, Search, SpaceContent, SpaceDependents, Spaces, SpacesRepo } from "../src/index.ts"
import { PermissionsRepo } from "../src/PermissionsRepo.ts"
import { RevisionsRepo } from "../src/RevisionsRepo.ts"
import { ImportRunsRepo } from "../src/ImportRunsRepo.ts"
import { SearchIndex } from "../src/SearchIndex.ts"
import { StorageUsageRepo } from "../src/StorageUsageRepo.ts"

const org = "org-1"

const layer = SpaceContent.layer.pipe(
  Layer.provideMerge(RevisionWriter.layer),
  Layer.provideMerge(ContentLayers.layerServices),
  Layer.provideMerge(Layer.mergeAll(
    SpacesRepo.layerMemory,
    CollectionsRepo.layerMemory,
    RevisionsRepo.layerMemory,
    BlobStore.layerMemory,
    SearchIndex.layerMemory, ImportRunsRepo.layerMemory,
    StorageUsageRepo.layerMemory,
    PermissionsRepo.layerMemory,
    AuditLayers.layerMemory
  )),
  Layer.provide([
    Memberships.layerTest(memberRoles({ [org]: { admin: "admin", editor: "edit", reader: "read" } })),
    SpaceDependents.layerNone,
    MainObservers.layerNone,
    Ids.Ids.layerTest,
    Transactor.Transactor.layerMemory,
    OutboundFetch.layer({ allow: ["127.0.0.1"] }),
    ParsePool.layerMainThread
  ])
)

const warning = "{% hint style=\"warning\" %}\nBack up first.\n{% endhint %}\n"
const nodes: ReadonlyArray<ReusableContentNode> = [
  { id: "rc-1", title: "Upgrade warning", document: documentHash(warning), git: { oid: "abc", path: ".gitbook/includes/upgrade-warning.md" } },
  { id: "rc-2", title: "Nothing yet" }
]

const newSpace = Effect.flatMap(Effect.service(Spaces), (spaces) => spaces.create(org, { title: "Docs" })).pipe(
  Effect.map((created) => created.space.id),
  as("admin")
)

/** A space whose main content holds `nodes`, written as Git import writes them. */
const withReusableContents = Effect.gen(function*() {
  const content = yield* SpaceContent
  const spaceId = yield* newSpace
  yield* content.commit(spaceId, () => Effect.succeed({ pages: [], reusableContents: nodes, documents: new Map([[documentHash(warning), warning]]) })).pipe(as("editor"))
  return spaceId
})

describe("reusable contents", () => {
  it.effect("are read by id with their markdown by anyone who may view the space", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* withReusableContents
      const found = yield* content.reusableContent(spaceId, "rc-1").pipe(as("reader"))
      assert.strictEqual(found.node.title, "Upgrade warning")
      assert.strictEqual(found.markdown, warning)
      assert.strictEqual((yield* content.reusableContent(spaceId, "rc-2").pipe(as("reader"))).markdown, "")
      const missing = yield* Effect.flip(content.reusableContent(spaceId, "rc-unknown").pipe(as("reader")))
      assert.instanceOf(missing, Errors.NotFound)
      const outsider = yield* Effect.flip(content.reusableContent(spaceId, "rc-1").pipe(as("stranger")))
      assert.instanceOf(outsider, Errors.NotFound)
    }).pipe(Effect.provide(layer)))

  it.effect("are listed in order with their markdown, to those who may view the space only", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* withReusableContents
      const listed = yield* content.reusableContents(spaceId).pipe(as("reader"))
      assert.deepStrictEqual(listed.items.map((item) => [item.node.id, item.node.title, item.markdown]), [["rc-1", "Upgrade warning", warning], ["rc-2", "Nothing yet", ""]])
      assert.deepStrictEqual((yield* content.reusableContents(yield* newSpace).pipe(as("reader"))).items, [])
      const outsider = yield* Effect.flip(content.reusableContents(spaceId).pipe(as("stranger")))
      assert.instanceOf(outsider, Errors.NotFound)
    }).pipe(Effect.provide(layer)))

  it.effect("stay through writes that do not name them, and stay readable in the revision that held them once replaced", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* withReusableContents
      const first = (yield* content.revision(spaceId).pipe(as("reader"))).revision
      yield* content.commit(spaceId, (current) => Effect.succeed({ pages: current.pages })).pipe(as("editor"))
      const kept = (yield* content.revision(spaceId).pipe(as("reader"))).revision
      assert.notStrictEqual(kept.id, first.id)
      assert.deepStrictEqual(kept.reusableContents, nodes)
      assert.strictEqual((yield* content.reusableContentIn(kept, "rc-1")).markdown, warning)

      const replaced = "Back up, then upgrade.\n"
      yield* content.commit(spaceId, () =>
        Effect.succeed({ pages: [], reusableContents: [{ id: "rc-1", title: "Upgrade warning", document: documentHash(replaced) }], documents: new Map([[documentHash(replaced), replaced]]) })
      ).pipe(as("editor"))
      assert.strictEqual((yield* content.reusableContent(spaceId, "rc-1").pipe(as("reader"))).markdown, replaced)
      assert.instanceOf(yield* Effect.flip(content.reusableContent(spaceId, "rc-2").pipe(as("reader"))), Errors.NotFound)
      assert.strictEqual((yield* content.reusableContentIn(first, "rc-1")).markdown, warning)
    }).pipe(Effect.provide(layer)))

  it.effect("are refused, naming reusableContents, when two share an id; the space is unchanged", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* withReusableContents
      const before = (yield* content.revision(spaceId).pipe(as("reader"))).revision.id
      const refused = yield* Effect.flip(content.commit(spaceId, () => Effect.succeed({ pages: [], reusableContents: [nodes[1]!, nodes[1]!] })).pipe(as("editor")))
      assert.instanceOf(refused, Errors.InvalidInput)
      assert.strictEqual((refused as Errors.InvalidInput).field, "reusableContents")
      assert.strictEqual((yield* content.revision(spaceId).pipe(as("reader"))).revision.id, before)
    }).pipe(Effect.provide(layer)))

  it.effect("go with a duplicate, whose copies survive the purge of the source", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaces = yield* Spaces
      const spaceId = yield* withReusableContents
      const copy = (yield* spaces.duplicate(spaceId).pipe(as("admin"))).space.id
      yield* (yield* RevisionsRepo).removeForSpace(spaceId)
      assert.strictEqual((yield* content.reusableContent(copy, "rc-1").pipe(as("reader"))).markdown, warning)
    }).pipe(Effect.provide(layer)))

  it.effect("are searched as part of the pages that include them, and a page's results follow an edit of the include alone", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const search = yield* Search
      const spaceId = yield* withReusableContents
      const page = "# Upgrading\n\nRead this first.\n\n{% include \".gitbook/includes/upgrade-warning.md\" %}\n"
      const at = "2026-01-01T00:00:00.000Z"
      yield* content.commit(spaceId, (current) =>
        Effect.succeed({
          pages: [{ id: "p-1", type: "document", title: "Upgrading", slug: "upgrading", document: documentHash(page), git: { oid: "p", path: "upgrading.md" }, createdAt: at, updatedAt: at, pages: [] }],
          reusableContents: current.reusableContents,
          documents: new Map([[documentHash(page), page]])
        })
      ).pipe(as("editor"))
      const found = yield* search.space(spaceId, { query: "back up" }).pipe(as("reader"))
      assert.deepStrictEqual(found.items.map((item) => item.pageId), ["p-1"])
      assert.include(found.items[0]!.sections[0]!.body, "Back up first")

      const replaced = "Take a snapshot before upgrading.\n"
      yield* content.commit(spaceId, (current) =>
        Effect.succeed({
          pages: current.pages,
          reusableContents: [{ ...nodes[0]!, document: documentHash(replaced) }],
          documents: new Map([[documentHash(replaced), replaced]])
        })
      ).pipe(as("editor"))
      assert.deepStrictEqual((yield* search.space(spaceId, { query: "snapshot" }).pipe(as("reader"))).items.map((item) => item.pageId), ["p-1"])
      assert.deepStrictEqual((yield* search.space(spaceId, { query: "back up" }).pipe(as("reader"))).items, [])
    }).pipe(Effect.provide(layer)))

  it.effect("show in a page's JSON document as GitBook's reusable-content block, found from the page's own file", () =>
    Effect.gen(function*() {
      const content = yield* SpaceContent
      const spaceId = yield* withReusableContents
      const page = "Read this first.\n\n{% include \"../.gitbook/includes/upgrade-warning.md\" %}\n"
      const at = "2026-01-01T00:00:00.000Z"
      const revision = yield* content.commit(spaceId, (current) =>
        Effect.succeed({
          pages: [{ id: "p-1", type: "document", title: "Upgrading", slug: "upgrading", document: documentHash(page), git: { oid: "p", path: "guides/upgrading.md" }, createdAt: at, updatedAt: at, pages: [] }],
          reusableContents: current.reusableContents,
          documents: new Map([[documentHash(page), page]])
        })
      ).pipe(as("editor"))
      const document = pageDocument({ revision, path: "upgrading", markdown: page })
      // Its key in document order, after the heading and the heading's text.
      const { key, ...block } = document.nodes[1] as typeof document.nodes[number] & { readonly key?: string }
      assert.strictEqual(key, "K2")
      assert.deepStrictEqual(block, {
        object: "block",
        type: "reusable-content",
        isVoid: true,
        data: { ref: { kind: "reusable-content", reusableContent: "rc-1" } }
      })
    }).pipe(Effect.provide(layer)))
})
