/**
 * An organization's storage count follows the files its spaces hold, on memory, PostgreSQL and
 * PGlite: a write counts the bytes of the files it adds with its revision (a refused write counts
 * nothing), a blob shared by a space and its duplicate counts once, a purge gives back what only
 * the purged space held, and a transfer moves the count to the organization the space joins.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Spaces, StorageUsageRepo } from "@quire/content"
import { Organizations, Users } from "@quire/identity"
import { Errors } from "@quire/kernel"
import { ChangeRequests, Merges } from "@quire/reviews"
import { asInstanceAdmin, Backends } from "@quire/testkit"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"
import * as Live from "./Live.ts"

const file = (name: string, size: number, fill: number) => ({ name, contentType: "application/octet-stream", bytes: new Uint8Array(size).fill(fill) })

const followsTheFiles = Effect.gen(function*() {
  const users = yield* Users
  const organizations = yield* Organizations
  const spaces = yield* Spaces
  const changeRequests = yield* ChangeRequests
  const merges = yield* Merges
  const usage = yield* StorageUsageRepo
  const { user: admin } = yield* users.bootstrapAdmin("admin@quire.test", "quire_test_admin_token")
  const asAdmin = asInstanceAdmin(admin.id)
  yield* Effect.gen(function*() {
    const org = (yield* organizations.create({ title: "Acme" })).organization.id
    const { space } = yield* spaces.create(org, { title: "Handbook" })
    const used = usage.used(org)
    assert.strictEqual(yield* used, 0)

    // Uploaded in a change request and merged: 1,500 bytes, counted when the branch got them.
    const seed = yield* changeRequests.create(space.id, { subject: "Files" })
    yield* changeRequests.updateContent(space.id, seed.changeRequest.id, [
      { operation: "insert_files", files: [file("a.bin", 1000, 1), file("b.bin", 500, 2)] }
    ])
    assert.strictEqual(yield* used, 1500)
    assert.strictEqual((yield* merges.merge(space.id, seed.changeRequest.id)).result, "merge")
    assert.strictEqual(yield* used, 1500)

    // The same bytes again, under another name: no more.
    const again = yield* changeRequests.create(space.id, { subject: "Again" })
    yield* changeRequests.updateContent(space.id, again.changeRequest.id, [{ operation: "insert_files", files: [file("a-copy.bin", 1000, 1)] }])
    assert.strictEqual(yield* used, 1500)

    // A refused batch stores its file's bytes but counts nothing.
    const refused = yield* changeRequests.updateContent(space.id, again.changeRequest.id, [
      { operation: "insert_files", files: [file("c.bin", 700, 3)] },
      { operation: "delete_page", page: "no-such-page" }
    ]).pipe(Effect.flip)
    assert.instanceOf(refused, Errors.InvalidInput)
    assert.strictEqual(yield* used, 1500)

    // Only on the branch of the source: 300 bytes the duplicate does not hold.
    yield* changeRequests.updateContent(space.id, again.changeRequest.id, [{ operation: "insert_files", files: [file("d.bin", 300, 4)] }])
    assert.strictEqual(yield* used, 1800)

    const duplicate = yield* spaces.duplicate(space.id)
    assert.strictEqual(yield* used, 1800, "the duplicate's files are the source's: counted once")

    const purge = (spaceId: string) =>
      Effect.gen(function*() {
        yield* spaces.remove(spaceId)
        yield* TestClock.adjust("8 days")
        assert.strictEqual(yield* spaces.purgeDeleted, 1)
      })
    yield* purge(space.id)
    assert.strictEqual(yield* used, 1500, "the duplicate still holds a.bin and b.bin; d.bin went with the source")
    yield* purge(duplicate.space.id)
    assert.strictEqual(yield* used, 0)

    // A transferred space's files count against the organization it joins.
    const other = (yield* organizations.create({ title: "Beta" })).organization.id
    const { space: moving } = yield* spaces.create(org, { title: "Moving" })
    const upload = yield* changeRequests.create(moving.id, { subject: "File" })
    yield* changeRequests.updateContent(moving.id, upload.changeRequest.id, [{ operation: "insert_files", files: [file("e.bin", 400, 5)] }])
    assert.strictEqual(yield* used, 400)
    yield* spaces.transfer(moving.id, other)
    assert.deepStrictEqual([yield* used, yield* usage.used(other)], [0, 400])
  }).pipe(asAdmin)
})

const memory = Live.layerMemory.pipe(Layer.provide(Queue.layerEnqueueOnly), Layer.provideMerge(Services.layerMemoryRepos))

layer(memory)("storage usage on memory", (it) => {
  it.effect("follows the files the organization's spaces hold: a refused write counts nothing, a duplicate's files count once, a purge gives back", () =>
    followsTheFiles)
})

for (const database of Backends.databasesMigrated(Services.migrations)) {
  const onDatabase = Live.layerSql.pipe(
    Layer.provide(Queue.layerEnqueueOnly),
    Layer.provideMerge(Services.layerSqlRepos),
    Layer.provideMerge(database.layer),
    Layer.orDie
  )
  layer(onDatabase, { timeout: "60 seconds" })(`storage usage on ${database.name}`, (it) => {
    it.effect("follows the files the organization's spaces hold: a refused write counts nothing, a duplicate's files count once, a purge gives back", () =>
      followsTheFiles)
  })
}
