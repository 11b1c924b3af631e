/** The behaviour every CollabUpdatesRepo adapter must have. */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { at } from "@quire/testkit"
import { Transactor } from "@quire/kernel"
import { CollabUpdatesRepo, type CollabDocumentKey, maxStoredBytes } from "../../src/CollabUpdatesRepo.ts"

const key = (name: string, spaceId = `${name}-space`): CollabDocumentKey => ({ name, spaceId, changeRequestId: `${name}-cr`, pageId: `${name}-page` })
const agreed = { pageSha: "p".repeat(64), docSha: "d".repeat(64) }
const bytes = (...values: Array<number>) => Uint8Array.from(values)
const plain = (value: Uint8Array) => Array.from(value)

/** Whether `effect` failed (a defect included). */
const refused = (effect: Effect.Effect<unknown>) => Effect.map(Effect.exit(effect), Exit.isFailure)

const loaded = (name: string) =>
  Effect.flatMap(Effect.service(CollabUpdatesRepo), (repo) => repo.load(name)).pipe(Effect.map(Option.getOrThrow))

export const collabUpdatesRepoContract = (it: Vitest.MethodsNonLive<CollabUpdatesRepo | Transactor.Transactor>) =>
  describe("CollabUpdatesRepo", () => {
    it.effect("keeps a document's first state, and only the first when two servers create it", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        assert.isTrue(Option.isNone(yield* repo.load("cu-create/p")))
        assert.isTrue(yield* repo.create(key("cu-create/p"), bytes(1, 2, 3), agreed, at(0)))
        assert.isFalse(yield* repo.create(key("cu-create/p"), bytes(9), agreed, at(1)))
        const doc = yield* loaded("cu-create/p")
        assert.deepStrictEqual({ ...doc, state: plain(doc.state) }, { ...key("cu-create/p"), ...agreed, state: [1, 2, 3], version: 1, updates: [], writtenThrough: 0 })
      }))

    it.effect("claims a new agreement only from the page hash it expects: of two servers, one claims", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        yield* repo.create(key("cu-claim/p"), bytes(0, 0), agreed, at(0))
        const next = { pageSha: "q".repeat(64), docSha: "e".repeat(64) }
        assert.isTrue(yield* repo.claim("cu-claim/p", agreed.pageSha, next, at(1)))
        assert.isFalse(yield* repo.claim("cu-claim/p", agreed.pageSha, { pageSha: "r".repeat(64), docSha: "f".repeat(64) }, at(2)))
        assert.isFalse(yield* repo.claim("cu-claim/none", agreed.pageSha, next, at(2)))
        const doc = yield* loaded("cu-claim/p")
        assert.deepStrictEqual({ pageSha: doc.pageSha, docSha: doc.docSha }, next)
      }))

    it.effect("answers the updates appended, oldest first, byte for byte", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        yield* repo.create(key("cu-append/p"), bytes(0, 0), agreed, at(0))
        yield* repo.append("cu-append/p", bytes(1, 255, 0), undefined, at(1))
        yield* repo.append("cu-append/p", bytes(2), undefined, at(2))
        yield* repo.append("cu-append/p", new Uint8Array(70_000).fill(7), undefined, at(3))
        const doc = yield* loaded("cu-append/p")
        assert.deepStrictEqual(doc.updates.slice(0, 2).map((u) => plain(u.update)), [[1, 255, 0], [2]])
        assert.strictEqual(doc.updates[2]!.update.length, 70_000)
        assert.isTrue(doc.updates[2]!.update.every((b) => b === 7))
        const ids = doc.updates.map((u) => Number(u.id))
        assert.deepStrictEqual(ids, ids.toSorted((a, b) => a - b))
      }))

    it.effect("answers who sent each update, none for the server's own", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        yield* repo.create(key("cu-author/p"), bytes(0), agreed, at(0))
        yield* repo.append("cu-author/p", bytes(1), "user-ada", at(1))
        yield* repo.append("cu-author/p", bytes(2), undefined, at(2))
        yield* repo.append("cu-author/p", bytes(3), "user-bea", at(3))
        const doc = yield* loaded("cu-author/p")
        assert.deepStrictEqual(doc.updates.map((u) => [plain(u.update), u.author]), [[[1], "user-ada"], [[2], undefined], [[3], "user-bea"]])
      }))

    it.effect("refuses a state or an update over the bound of a row, storing nothing of it: each stays readable", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        const over = new Uint8Array(maxStoredBytes + 1).fill(1)
        assert.isTrue(yield* refused(repo.create(key("cu-bound/over"), over, agreed, at(0))))
        assert.isTrue(Option.isNone(yield* repo.load("cu-bound/over")))
        yield* repo.create(key("cu-bound/p"), bytes(0), agreed, at(0))
        assert.isTrue(yield* refused(repo.append("cu-bound/p", over, "user-ada", at(1))))
        assert.isTrue(yield* refused(repo.compact("cu-bound/p", 1, over, [], at(2))))
        assert.isTrue(yield* refused(repo.reset("cu-bound/p", over, agreed, at(3))))
        const doc = yield* loaded("cu-bound/p")
        assert.deepStrictEqual([plain(doc.state), doc.version, doc.updates.length], [[0], 1, 0])
        // The bound itself is stored.
        yield* repo.append("cu-bound/p", new Uint8Array(maxStoredBytes).fill(2), "user-ada", at(4))
        assert.strictEqual((yield* loaded("cu-bound/p")).updates[0]!.update.length, maxStoredBytes)
      }))

    it.effect("compacts: the new state replaces the merged updates, and a stale compaction changes nothing", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        yield* repo.create(key("cu-compact/p"), bytes(0), agreed, at(0))
        yield* repo.append("cu-compact/p", bytes(1), undefined, at(1))
        yield* repo.append("cu-compact/p", bytes(2), undefined, at(2))
        const before = yield* loaded("cu-compact/p")
        // An update stored after the compaction read the document stays.
        yield* repo.append("cu-compact/p", bytes(3), undefined, at(3))
        assert.isTrue(yield* repo.compact("cu-compact/p", before.version, bytes(0, 1, 2), before.updates.map((u) => u.id), at(4)))
        const after = yield* loaded("cu-compact/p")
        assert.deepStrictEqual(plain(after.state), [0, 1, 2])
        assert.strictEqual(after.version, before.version + 1)
        assert.deepStrictEqual(after.updates.map((u) => plain(u.update)), [[3]])
        assert.isFalse(yield* repo.compact("cu-compact/p", before.version, bytes(9), after.updates.map((u) => u.id), at(5)))
        const unchanged = yield* loaded("cu-compact/p")
        assert.deepStrictEqual(plain(unchanged.state), [0, 1, 2])
        assert.deepStrictEqual(unchanged.updates.map((u) => plain(u.update)), [[3]])
      }))

    it.effect("records a new agreement, and a reset replaces the state and drops every update", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        yield* repo.create(key("cu-reset/p"), bytes(0), agreed, at(0))
        const first = yield* repo.append("cu-reset/p", bytes(1), undefined, at(1))
        const second = yield* repo.append("cu-reset/p", bytes(2), undefined, at(1))
        const later = { pageSha: "a".repeat(64), docSha: "b".repeat(64) }
        // The page holds the updates up to the one given, not those stored after.
        yield* repo.agree("cu-reset/p", later, Number(first), at(2))
        const agreedNow = yield* loaded("cu-reset/p")
        assert.deepStrictEqual([agreedNow.pageSha, agreedNow.docSha, agreedNow.updates.map((u) => u.id)], [later.pageSha, later.docSha, [first, second]])
        assert.strictEqual(agreedNow.writtenThrough, Number(first))
        // It never goes back, and none leaves it as it is.
        yield* repo.agree("cu-reset/p", later, 0, at(2))
        yield* repo.agree("cu-reset/p", later, undefined, at(2))
        assert.strictEqual((yield* loaded("cu-reset/p")).writtenThrough, Number(first))
        yield* repo.reset("cu-reset/p", bytes(7, 7), agreed, at(3))
        const reset = yield* loaded("cu-reset/p")
        assert.deepStrictEqual(
          { state: plain(reset.state), pageSha: reset.pageSha, docSha: reset.docSha, updates: reset.updates, version: reset.version },
          { state: [7, 7], pageSha: agreed.pageSha, docSha: agreed.docSha, updates: [], version: agreedNow.version + 1 }
        )
      }))

    it.effect("an update appended in a transaction that rolls back is not stored", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        const transactor = yield* Transactor.Transactor
        yield* repo.create(key("cu-rollback/p"), bytes(0), agreed, at(0))
        yield* transactor.transaction(Effect.andThen(repo.append("cu-rollback/p", bytes(5), undefined, at(1)), Effect.fail("refused"))).pipe(Effect.ignore)
        assert.deepStrictEqual((yield* loaded("cu-rollback/p")).updates, [])
      }))

    it.effect("lists a change request's documents and removes them one by one or with their space", () =>
      Effect.gen(function*() {
        const repo = yield* CollabUpdatesRepo
        yield* repo.create({ ...key("cu-rm/a", "cu-rm-space"), changeRequestId: "cu-rm-cr" }, bytes(0), agreed, at(0))
        yield* repo.create({ ...key("cu-rm/b", "cu-rm-space"), changeRequestId: "cu-rm-cr" }, bytes(0), agreed, at(0))
        yield* repo.create(key("cu-rm-other/c", "cu-rm-other-space"), bytes(0), agreed, at(0))
        yield* repo.append("cu-rm/a", bytes(1), undefined, at(1))
        assert.deepStrictEqual(yield* repo.namesOf("cu-rm-cr"), ["cu-rm/a", "cu-rm/b"])
        yield* repo.remove("cu-rm/b")
        assert.deepStrictEqual(yield* repo.namesOf("cu-rm-cr"), ["cu-rm/a"])
        yield* repo.removeForSpace("cu-rm-space")
        assert.isTrue(Option.isNone(yield* repo.load("cu-rm/a")))
        assert.isTrue(Option.isSome(yield* repo.load("cu-rm-other/c")))
      }))
  })
