/**
 * Purging a space removes everything of it in every package (content's revisions and search rows,
 * reviews' change requests, comments, replies, reactions, conflicts and counters, the site spaces
 * that publish it), on memory,
 * PostgreSQL and PGlite; a failure inside the purge leaves the space whole.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { flattenPages, RevisionsRepo, SearchIndex, Spaces, SpacesRepo } from "@quire/content"
import { Organizations, Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { ChangeRequests, ChangeRequestsRepo, Comments, CommentsRepo, Merges, SpaceCountersRepo } from "@quire/reviews"
import { Sites, SiteStructureRepo } from "@quire/sites"
import { asInstanceAdmin, Backends } from "@quire/testkit"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"
import * as Live from "./Live.ts"

const text = (body: string) => `intro\n\n${body}\n\nend`

/** A space with merged and conflicted change requests, comments, replies and reactions; answers what it holds. */
const busySpace = Effect.gen(function*() {
  const users = yield* Users
  const organizations = yield* Organizations
  const spaces = yield* Spaces
  const changeRequests = yield* ChangeRequests
  const merges = yield* Merges
  const comments = yield* Comments
  const { user: admin } = yield* users.bootstrapAdmin("admin@quire.test", "quire_test_admin_token")
  const asAdmin = asInstanceAdmin(admin.id)
  return yield* Effect.gen(function*() {
    const org = yield* organizations.create({ title: "Acme" })
    const { space } = yield* spaces.create(org.organization.id, { title: "Handbook" })
    const seed = yield* changeRequests.create(space.id, { subject: "Seed" })
    const seeded = yield* changeRequests.updateContent(space.id, seed.changeRequest.id, [
      { operation: "insert_page", title: "Guide", markdown: text("zeppelin body") }
    ])
    const pageId = seeded.outcomes[0]!.pageId
    assert.strictEqual((yield* merges.merge(space.id, seed.changeRequest.id)).result, "merge")

    const first = yield* changeRequests.create(space.id, { subject: "First" })
    const second = yield* changeRequests.create(space.id, { subject: "Second" })
    yield* changeRequests.updateContent(space.id, first.changeRequest.id, [{ operation: "update_page", page: pageId, markdown: text("body (1)") }])
    const edited = yield* changeRequests.updateContent(space.id, second.changeRequest.id, [
      { operation: "update_page", page: pageId, markdown: text("body (2)") }
    ])
    const merged = yield* merges.merge(space.id, first.changeRequest.id)
    const conflicted = yield* merges.merge(space.id, second.changeRequest.id)
    assert.strictEqual(conflicted.result, "conflicts")

    const onSpace = { spaceId: space.id, changeRequestId: null }
    const comment = yield* comments.post(onSpace, { markdown: "Is this right?", page: pageId })
    const reply = yield* comments.postReply(onSpace, comment.comment.id, "Yes.")
    yield* comments.update(onSpace, comment.comment.id, { addedReactions: ["👍"] })
    yield* comments.updateReply(onSpace, comment.comment.id, reply.reply.id, { addedReactions: ["🎉"] })
    const onChangeRequest = { spaceId: space.id, changeRequestId: second.changeRequest.id }
    const crComment = yield* comments.post(onChangeRequest, { markdown: "Resolve the conflict, please." })
    yield* (yield* Sites).create(org.organization.id, { title: "Acme docs", spaces: [space.id] })

    const revisionIds = [space.revisionId, seeded.changeRequest.revision, edited.changeRequest.revision, merged.revision]
    const documentHashes = new Set<string>()
    const revisions = yield* RevisionsRepo
    for (const id of revisionIds) {
      const revision = yield* revisions.find(id)
      for (const { page } of flattenPages(Option.getOrThrow(revision).pages)) if (page.document !== undefined) documentHashes.add(page.document)
    }
    assert.strictEqual(documentHashes.size, 3, "the seed, first and second versions of the page")
    return {
      asAdmin,
      space,
      changeRequestIds: [seed.changeRequest.id, first.changeRequest.id, second.changeRequest.id],
      revisionIds,
      documentHashes: Array.from(documentHashes),
      commentIds: [comment.comment.id, crComment.comment.id],
      reply: { commentId: comment.comment.id, replyId: reply.reply.id }
    }
  }).pipe(asAdmin)
})

/** Deletes the space and lets the trash's 7 days pass; answers how many spaces the purge removed. */
const deleteAndPurge = (spaceId: string, asAdmin: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, Exclude<R, Actor.Actor>>) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    yield* spaces.remove(spaceId).pipe(asAdmin)
    yield* TestClock.adjust("8 days")
    return yield* spaces.purgeDeleted
  })

/** What the ports still find of the space: nothing, once it is purged. */
const portsFind = (busy: Effect.Success<typeof busySpace>) =>
  Effect.gen(function*() {
    const found: Array<string> = []
    if (Option.isSome(yield* (yield* SpacesRepo).find(busy.space.id))) found.push("space")
    const revisions = yield* RevisionsRepo
    for (const id of busy.revisionIds) if (Option.isSome(yield* revisions.find(id))) found.push(`revision ${id}`)
    for (const hash of (yield* revisions.documents(busy.documentHashes)).keys()) found.push(`document ${hash}`)
    const changeRequests = yield* ChangeRequestsRepo
    for (const id of busy.changeRequestIds) if (Option.isSome(yield* changeRequests.find(id))) found.push(`change request ${id}`)
    if (Option.isSome(yield* changeRequests.findByNumber(busy.space.id, 1))) found.push("change request number 1")
    const comments = yield* CommentsRepo
    for (const id of busy.commentIds) if (Option.isSome(yield* comments.find(id))) found.push(`comment ${id}`)
    if (Option.isSome(yield* comments.findReply(busy.reply.commentId, busy.reply.replyId))) found.push("reply")
    const counters = (yield* (yield* SpaceCountersRepo).forSpaces([busy.space.id])).get(busy.space.id)
    if (counters !== undefined && Object.values(counters).some((n) => n !== 0)) found.push(`counters ${JSON.stringify(counters)}`)
    const hits = yield* (yield* SearchIndex).search({
      spaceIds: [busy.space.id],
      query: "zeppelin",
      offset: 0,
      limit: 10,
      sectionsPerPage: 1
    })
    if (hits.pages.length > 0) found.push("search rows")
    if ((yield* (yield* SiteStructureRepo).siteSpacesOfSpace(busy.space.id)).length > 0) found.push("site spaces")
    return found
  })


/** Purging a space whose duplicate shares its documents keeps the duplicate's content whole. */
const duplicateOutlivesItsSource = Effect.gen(function*() {
  const busy = yield* busySpace
  const spaces = yield* Spaces
  const duplicate = yield* spaces.duplicate(busy.space.id).pipe(busy.asAdmin)
  const revisions = yield* RevisionsRepo
  const held = Option.getOrThrow(yield* revisions.find(duplicate.space.revisionId))
  const hashes = flattenPages(held.pages).flatMap(({ page }) => (page.document === undefined ? [] : [page.document]))
  assert.strictEqual(hashes.length, 1)
  assert.strictEqual(yield* deleteAndPurge(busy.space.id, busy.asAdmin), 1)
  assert.deepStrictEqual(Array.from((yield* revisions.documents(hashes)).keys()), hashes)
})

const memory = Live.layerMemory.pipe(Layer.provide(Queue.layerEnqueueOnly), Layer.provideMerge(Services.layerMemoryRepos))

layer(memory)("space purge on memory", (it) => {
  it.effect("leaves nothing of the space in any package", () =>
    Effect.gen(function*() {
      const busy = yield* busySpace
      assert.strictEqual((yield* portsFind(busy)).length, 17, "the ports find the space, its revisions, change requests, comments and site space")
      assert.strictEqual(yield* deleteAndPurge(busy.space.id, busy.asAdmin), 1)
      assert.deepStrictEqual(yield* portsFind(busy), [])
    }))

  it.effect("keeps the documents a duplicate of the space shares", () => duplicateOutlivesItsSource)
})

/** Rows of every content and reviews table, by table (tables without rows are left out). */
const rowsLeft = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{ readonly tableName: string }>`
    SELECT table_name AS "tableName" FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
      AND (table_name LIKE 'content\\_%' OR table_name LIKE 'review%')
    ORDER BY table_name`
  assert.isAbove(tables.length, 5, "the content and reviews tables exist")
  const left: Record<string, number> = {}
  for (const { tableName } of tables) {
    const [row] = yield* sql<{ readonly count: number }>`SELECT COUNT(*)::int AS count FROM ${sql(tableName)}`
    if (row !== undefined && row.count > 0) left[tableName] = row.count
  }
  return left
}).pipe(Effect.orDie)

for (const database of Backends.databasesMigrated(Services.migrations)) {
  // Each backend gets a database of its own, so that the only rows are those of the purged space.
  const onDatabase = Live.layerSql.pipe(
    Layer.provide(Queue.layerEnqueueOnly),
    Layer.provideMerge(Services.layerSqlRepos),
    Layer.provideMerge(database.layer),
    Layer.orDie
  )
  layer(onDatabase, { timeout: "60 seconds" })(`space purge on ${database.name}`, (it) => {
    it.effect("leaves no row of the space in any package's tables", () =>
      Effect.gen(function*() {
        const busy = yield* busySpace
        const before = yield* rowsLeft
        for (const table of ["content_spaces", "content_revisions", "reviews_change_requests", "review_comments", "review_comment_replies"]) {
          assert.isAbove(before[table] ?? 0, 0, `${table} has rows before the purge`)
        }
        assert.strictEqual(yield* deleteAndPurge(busy.space.id, busy.asAdmin), 1)
        assert.deepStrictEqual(yield* rowsLeft, {})
        assert.deepStrictEqual(yield* portsFind(busy), [])
      }))

    it.effect("keeps the documents a duplicate of the space shares", () => duplicateOutlivesItsSource)
  })
}
