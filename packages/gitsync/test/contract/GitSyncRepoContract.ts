/**
 * The behaviour every GitSyncRepo adapter must have: a space's record kept whole and replaced
 * whole, runs updated column by column (the newest event kept), webhook deliveries recognised when
 * replayed and forgotten after their window, one instance key, and writes that roll back with
 * their transaction.
 */
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { InstanceSecret, Transactor } from "@quire/kernel"
import { at } from "@quire/testkit"
import { GitSyncRepo, type SyncRecord } from "../../src/GitSyncRepo.ts"
import * as SecretBox from "../../src/SecretBox.ts"
import { fresh } from "../../src/sync/SyncRecords.ts"

/** The test registrar of a backend's shared layer. */
export type GitSyncRepoTest = Vitest.MethodsNonLive<GitSyncRepo | Transactor.Transactor>

class Abort {
  readonly _tag = "Abort"
}

const record = (spaceId: string, overrides: Partial<SyncRecord> = {}): SyncRecord => ({
  ...fresh(spaceId, at(0)),
  url: "https://git.example.com/acme/docs.git",
  urlSealed: "sealed-url",
  ...overrides
})

const find = (spaceId: string) => Effect.flatMap(GitSyncRepo, (repo) => repo.find(spaceId))

export const gitSyncRepoContract = (it: GitSyncRepoTest) =>
  describe("GitSyncRepo", () => {
    it.effect("keeps a record whole (runs, instants, nulls) and replaces it whole", () =>
      Effect.gen(function*() {
        const repo = yield* GitSyncRepo
        assert.isTrue(Option.isNone(yield* repo.find("gs-space-1")))
        const full = record("gs-space-1", {
          url: "https://git.example.com/acme/Ａ😀.git",
          projectDirectory: "docs/Ａ",
          connected: true,
          actorId: "gs-user-1",
          webhookSecret: "sealed-secret",
          lastImport: { status: "succeeded", commit: "a".repeat(40), at: at(1_000), error: null },
          lastExport: { status: "failed", commit: null, at: at(2_000), error: "refused: 😀" },
          lastEventAt: at(1_500),
          exportedCommit: "b".repeat(40),
          updatedAt: at(2_000)
        })
        yield* repo.save(full)
        assert.deepStrictEqual(yield* repo.find("gs-space-1"), Option.some(full))
        const replaced = record("gs-space-1", { ref: "refs/heads/other", updatedAt: at(3_000) })
        yield* repo.save(replaced)
        assert.deepStrictEqual(yield* repo.find("gs-space-1"), Option.some(replaced))
        assert.isTrue(Option.isNone(yield* repo.find("gs-space-1 ")))
      }))

    it.effect("updates one run at a time, moves the last event only forward, and does nothing without a record", () =>
      Effect.gen(function*() {
        const repo = yield* GitSyncRepo
        yield* repo.save(record("gs-space-2", { lastExport: { status: "succeeded", commit: "c".repeat(40), at: at(10), error: null } }))
        const running = { status: "running" as const, commit: null, at: at(1_000), error: null }
        yield* repo.updateRun("gs-space-2", { kind: "import", run: running, eventAt: at(500) })
        let found = Option.getOrThrow(yield* find("gs-space-2"))
        assert.deepStrictEqual(found.lastImport, running)
        assert.deepStrictEqual(found.lastExport, { status: "succeeded", commit: "c".repeat(40), at: at(10), error: null })
        assert.deepStrictEqual([found.lastEventAt, found.updatedAt, found.exportedCommit], [at(500), at(1_000), null])
        // An older event leaves the newest one; an export records the commit it pushed.
        const pushed = { status: "succeeded" as const, commit: "d".repeat(40), at: at(2_000), error: null }
        yield* repo.updateRun("gs-space-2", { kind: "export", run: pushed, eventAt: at(100), exportedCommit: "d".repeat(40) })
        found = Option.getOrThrow(yield* find("gs-space-2"))
        assert.deepStrictEqual(found.lastImport, running)
        assert.deepStrictEqual(found.lastExport, pushed)
        assert.deepStrictEqual([found.lastEventAt, found.updatedAt, found.exportedCommit], [at(500), at(2_000), "d".repeat(40)])
        // Without an event, the last one stays as it is.
        yield* repo.updateRun("gs-space-2", { kind: "import", run: { ...running, at: at(3_000) } })
        found = Option.getOrThrow(yield* find("gs-space-2"))
        assert.deepStrictEqual([found.lastEventAt, found.updatedAt], [at(500), at(3_000)])
        yield* repo.updateRun("gs-space-2", { kind: "import", run: running, eventAt: at(4_000) })
        assert.deepStrictEqual(Option.getOrThrow(yield* find("gs-space-2")).lastEventAt, at(4_000))
        yield* repo.updateRun("gs-space-none", { kind: "import", run: running, eventAt: at(500) })
        assert.isTrue(Option.isNone(yield* repo.find("gs-space-none")))
      }))

    it.effect("recognises a replayed delivery by any of its keys, per space, exactly", () =>
      Effect.gen(function*() {
        const repo = yield* GitSyncRepo
        const since = at(0)
        assert.isTrue(yield* repo.recordDelivery("gs-space-3", ["id-Ａ", "sha-1"], at(100), since))
        assert.isFalse(yield* repo.recordDelivery("gs-space-3", ["id-Ａ", "sha-1"], at(200), since))
        // One key seen before is a replay; its other keys are remembered all the same.
        assert.isFalse(yield* repo.recordDelivery("gs-space-3", ["id-😀", "sha-1"], at(300), since))
        assert.isFalse(yield* repo.recordDelivery("gs-space-3", ["id-😀"], at(400), since))
        // Keys differ by code point, not by case folding or normalization; another space has its own.
        assert.isTrue(yield* repo.recordDelivery("gs-space-3", ["id-a"], at(500), since))
        assert.isTrue(yield* repo.recordDelivery("gs-space-3b", ["id-Ａ", "sha-1"], at(600), since))
        assert.isTrue(yield* repo.recordDelivery("gs-space-3", [], at(700), since))
      }))

    it.effect("forgets deliveries received before the window, and a removed space's deliveries with its record", () =>
      Effect.gen(function*() {
        const repo = yield* GitSyncRepo
        assert.isTrue(yield* repo.recordDelivery("gs-space-4", ["old"], at(10_000), at(0)))
        assert.isTrue(yield* repo.recordDelivery("gs-space-4", ["recent"], at(50_000), at(0)))
        assert.isFalse(yield* repo.recordDelivery("gs-space-4", ["old"], at(60_000), at(5_000)))
        // Received at 10 s, forgotten once the window starts after it.
        assert.isTrue(yield* repo.recordDelivery("gs-space-4", ["old"], at(70_000), at(20_000)))
        yield* repo.save(record("gs-space-4"))
        yield* repo.save(record("gs-space-4b"))
        assert.isTrue(yield* repo.recordDelivery("gs-space-4b", ["kept"], at(70_000), at(20_000)))
        yield* repo.remove("gs-space-4")
        yield* repo.remove("gs-space-none")
        assert.isTrue(Option.isNone(yield* repo.find("gs-space-4")))
        assert.isTrue(Option.isSome(yield* repo.find("gs-space-4b")))
        assert.isTrue(yield* repo.recordDelivery("gs-space-4", ["recent", "old"], at(80_000), at(20_000)))
        assert.isFalse(yield* repo.recordDelivery("gs-space-4b", ["kept"], at(80_000), at(20_000)))
      }))

    it.effect("keeps the first instance key it is given", () =>
      Effect.gen(function*() {
        const repo = yield* GitSyncRepo
        const transactor = yield* Transactor.Transactor
        // A key given in a transaction that rolls back is not kept.
        const aborted = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          assert.strictEqual(yield* repo.instanceKey("rolled-back-key"), "rolled-back-key")
          return yield* Effect.fail(new Abort())
        })))
        assert.isTrue(Exit.isFailure(aborted))
        assert.strictEqual(yield* repo.instanceKey("first-key"), "first-key")
        assert.strictEqual(yield* repo.instanceKey("second-key"), "first-key")
      }))

    it.effect("an older Quire's database key: the secrets it sealed are sealed again under the instance secret, and the key is gone", () =>
      Effect.gen(function*() {
        const repo = yield* GitSyncRepo
        // The database's key, as an older Quire stored it (the suite's earlier test may have stored one).
        const legacy = yield* repo.instanceKey("older-quire-key")
        const old = SecretBox.deriveKey(legacy)
        const url = "https://bot:ghp_reseal_credential@git.example.com/acme/docs.git"
        yield* repo.save(record("gs-space-reseal", { urlSealed: SecretBox.seal(old, url), webhookSecret: SecretBox.seal(old, "whsec-reseal") }))
        const instanceSecret = "reseal-instance-secret-0123456789abcdef"
        const box = yield* Effect.provide(
          Effect.service(SecretBox.SecretBox),
          SecretBox.SecretBox.layer.pipe(Layer.provide(Layer.succeed(InstanceSecret.StoredSecret, Option.some(Redacted.make(instanceSecret)))))
        ).pipe(Effect.provideService(GitSyncRepo, repo))
        assert.isTrue(Option.isNone(yield* repo.legacyKey))
        const stored = Option.getOrThrow(yield* repo.find("gs-space-reseal"))
        const key = SecretBox.deriveKey(instanceSecret)
        assert.deepStrictEqual(SecretBox.open(key, stored.urlSealed), Option.some(url))
        assert.deepStrictEqual(SecretBox.open(key, stored.webhookSecret ?? ""), Option.some("whsec-reseal"))
        assert.isTrue(Option.isNone(SecretBox.open(old, stored.urlSealed)))
        assert.deepStrictEqual(box.open(stored.urlSealed), Option.some(url))
        // A second start finds nothing left to do, and keeps what it sealed.
        assert.strictEqual(yield* repo.resealAll(legacy, () => Option.some("clobbered")), 0)
        assert.strictEqual(Option.getOrThrow(yield* repo.find("gs-space-reseal")).urlSealed, stored.urlSealed)
        yield* repo.remove("gs-space-reseal")
      }))

    it.effect("rolls back every write of a failed transaction", () =>
      Effect.gen(function*() {
        const repo = yield* GitSyncRepo
        const transactor = yield* Transactor.Transactor
        const kept = record("gs-space-5", { connected: true })
        yield* repo.save(kept)
        assert.isTrue(yield* repo.recordDelivery("gs-space-5", ["before"], at(100), at(0)))
        const aborted = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* repo.save(record("gs-space-5", { connected: false, ref: "refs/heads/changed" }))
          yield* repo.save(record("gs-space-5b"))
          yield* repo.updateRun("gs-space-5", { kind: "import", run: { status: "pending", commit: null, at: at(200), error: null }, eventAt: at(200) })
          assert.isTrue(yield* repo.recordDelivery("gs-space-5", ["during"], at(200), at(150)))
          yield* repo.remove("gs-space-5")
          return yield* Effect.fail(new Abort())
        })))
        assert.isTrue(Exit.isFailure(aborted))
        assert.deepStrictEqual(yield* repo.find("gs-space-5"), Option.some(kept))
        assert.isTrue(Option.isNone(yield* repo.find("gs-space-5b")))
        assert.isFalse(yield* repo.recordDelivery("gs-space-5", ["before"], at(300), at(0)))
        assert.isTrue(yield* repo.recordDelivery("gs-space-5", ["during"], at(300), at(0)))
      }))
  })
