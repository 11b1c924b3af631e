/**
 * The one write path is all or nothing on every backend: a write whose later step fails inside its
 * transaction (after the head moved) leaves main, the search index and the change request as they
 * were, on memory as on PostgreSQL and PGlite.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { documentHash, RevisionsRepo, RevisionWriter, SearchIndex, SpaceContent, Spaces, SpacesRepo } from "@quire/content"
import { Organizations, Users } from "@quire/identity"
import { Errors } from "@quire/kernel"
import { ChangeRequests, ChangeRequestsRepo, Merges } from "@quire/reviews"
import { asInstanceAdmin, Backends } from "@quire/testkit"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"
import * as Live from "./Live.ts"

const backends = Backends.make({
  memory: Live.layerMemory.pipe(Layer.provide(Queue.layerEnqueueOnly), Layer.provideMerge(Services.layerMemoryRepos)),
  sql: () => Live.layerSql.pipe(Layer.provide(Queue.layerEnqueueOnly), Layer.provideMerge(Services.layerSqlRepos)),
  // A copy of a database migrated once: the services' own migrate then finds nothing to apply.
  migrations: Services.migrations
})

/** A document page holding `markdown`, with its document. */
const documentPage = (id: string, title: string, markdown: string) => ({
  page: { id, type: "document" as const, title, slug: title.toLowerCase(), pages: [], document: documentHash(markdown), createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-01T00:00:00.000Z" },
  documents: new Map([[documentHash(markdown), markdown]])
})

/** A space whose main holds one page, as its organization's admin. */
const spaceWithPage = (title: string) =>
  Effect.gen(function*() {
    const { user } = yield* (yield* Users).bootstrapAdmin("admin@quire.test", "quire_test_admin_token")
    const asAdmin = asInstanceAdmin(user.id)
    return yield* Effect.gen(function*() {
      const org = yield* (yield* Organizations).create({ title })
      const { space } = yield* (yield* Spaces).create(org.organization.id, { title })
      const intro = documentPage(`${space.id}-page`, "Intro", "Stay.")
      const revision = yield* (yield* SpaceContent).commit(space.id, () => Effect.succeed({ pages: [intro.page], documents: intro.documents }))
      return { asAdmin, spaceId: space.id, revision }
    }).pipe(asAdmin)
  })

const searchHits = (spaceId: string, query: string) =>
  Effect.gen(function*() {
    const hits = yield* (yield* SearchIndex).search({ spaceIds: [spaceId], query, offset: 0, limit: 10, sectionsPerPage: 1 })
    return hits.pages.length
  })

for (const backend of backends) {
  layer(backend.layer, { timeout: "60 seconds" })(`the write path rolls back on ${backend.name}`, (it) => {
    it.effect("a write of main whose last step fails leaves main, its revisions and its search rows as they were", () =>
      Effect.gen(function*() {
        const { asAdmin, revision, spaceId } = yield* spaceWithPage("Rollback main")
        const writer = yield* RevisionWriter
        const content = yield* SpaceContent
        let written: string | undefined
        const failed = yield* writer.write(
          content.mainHead(spaceId),
          (parent) => {
            const added = documentPage(`${spaceId}-new`, "Quasar", "Quasar notes.")
            return Effect.succeed({ pages: [...parent.pages, added.page], documents: added.documents })
          },
          {
            within: ({ revision: next }) => {
              written = next.id
              return Effect.fail(new Errors.Conflict({ reason: "a later step of the same transaction failed" }))
            }
          }
        ).pipe(asAdmin, Effect.flip)
        assert.instanceOf(failed, Errors.Conflict)
        assert.isDefined(written)

        const space = Option.getOrThrow(yield* (yield* SpacesRepo).find(spaceId))
        assert.strictEqual(space.revisionId, revision.id)
        assert.isTrue(Option.isNone(yield* (yield* RevisionsRepo).find(written!)), "the new revision is gone with the transaction")
        assert.strictEqual(yield* searchHits(spaceId, "quasar"), 0)
        assert.deepStrictEqual((yield* content.revision(spaceId).pipe(asAdmin)).revision.pages.map((p) => p.title), ["Intro"])
      }))

    it.effect("a merge that fails after main moved leaves main and the change request untouched", () =>
      Effect.gen(function*() {
        const { asAdmin, revision, spaceId } = yield* spaceWithPage("Rollback merge")
        const changeRequests = yield* ChangeRequests
        const repo = yield* ChangeRequestsRepo
        const cr = yield* changeRequests.create(spaceId, { subject: "Nebula" }).pipe(asAdmin)
        yield* changeRequests.updateContent(spaceId, cr.changeRequest.id, [{ operation: "insert_page", title: "Nebula", markdown: "Nebula notes." }]).pipe(asAdmin)
        // The status change expects an open change request, but it is a draft: it fails after main moved.
        const archived = Option.getOrThrow(yield* repo.find(cr.changeRequest.id))
        const writer = yield* RevisionWriter
        const content = yield* SpaceContent
        const failed = yield* writer.write(
          content.mainHead(spaceId, "merge"),
          () => Effect.flatMap(changeRequests.content(spaceId, cr.changeRequest.id).pipe(asAdmin), (head) =>
            Effect.succeed({ pages: head.revision.pages, files: head.revision.files, type: "merge" as const, otherParents: [head.revision.id] })),
          {
            within: () =>
              Effect.flatMap(repo.setStatus(archived.id, "open", "merged", new Date()), (moved) =>
                Option.isNone(moved) ? Effect.fail(new Errors.Conflict({ reason: "the change request changed during the merge" })) : Effect.void)
          }
        ).pipe(asAdmin, Effect.flip)
        assert.instanceOf(failed, Errors.Conflict)
        assert.strictEqual(Option.getOrThrow(yield* (yield* SpacesRepo).find(spaceId)).revisionId, revision.id)
        assert.strictEqual(yield* searchHits(spaceId, "nebula"), 0)
        const after = Option.getOrThrow(yield* repo.find(cr.changeRequest.id))
        assert.deepStrictEqual([after.status, after.revision, after.revisionMerged], [archived.status, archived.revision, null])

        // The real merge then lands, and only once.
        const merged = yield* (yield* Merges).merge(spaceId, cr.changeRequest.id).pipe(asAdmin)
        assert.strictEqual(merged.result, "merge")
        assert.strictEqual(yield* searchHits(spaceId, "nebula"), 1)
      }))
  })
}
