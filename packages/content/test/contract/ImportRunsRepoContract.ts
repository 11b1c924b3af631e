/**
 * The behaviour every ImportRunsRepo adapter must have: runs listed newest first, filtered by space
 * and status, paged; an update that leaves a run in a given status alone; an update made inside a
 * transaction seen by the guard of one made meanwhile (a cancel and an import's write never cross);
 * uploads kept by key, found in use while a pending or running run names them, listed for purging
 * once old and unused, and removed; a purged space's runs gone; and a rolled-back transaction leaving nothing.
 */
import { assert, describe } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Option } from "effect"
import { Pagination, Transactor } from "@quire/kernel"
import { type ImportRun, initialProgress } from "../../src/domain/ImportRun.ts"
import { ImportRunsRepo } from "../../src/ImportRunsRepo.ts"
import type { ReposTest } from "./Fixtures.ts"

const run = (id: string, spaceId: string, minute: number, status: ImportRun["status"] = "pending"): ImportRun => ({
  id,
  organizationId: "ir-org",
  spaceId,
  source: { type: "file", files: ["ir-file"], format: "auto" },
  target: { space: spaceId },
  status,
  reason: null,
  createdBy: "ir-user",
  pages: [],
  progress: initialProgress,
  createdAt: new Date(Date.UTC(2026, 0, 1, 10, minute)),
  updatedAt: new Date(Date.UTC(2026, 0, 1, 10, minute)),
  startedAt: null,
  completedAt: null
})

/** `isolated`: a transaction's writes are unseen by others until it commits (not so in memory). */
export const importRunsRepoContract = (it: ReposTest, isolated: boolean) =>
  describe("ImportRunsRepo", () => {
    it.effect("lists runs newest first, by space and status, a page at a time", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRunsRepo
        yield* repo.insert(run("ir-a", "ir-space-1", 1, "completed"))
        yield* repo.insert(run("ir-b", "ir-space-2", 2, "failed"))
        yield* repo.insert(run("ir-c", "ir-space-1", 3))
        const all = yield* repo.list("ir-org", {}, undefined, 2)
        assert.deepStrictEqual(all.items.map((r) => r.id), ["ir-c", "ir-b"])
        const after = yield* Pagination.decodeCursor(all.next!)
        assert.deepStrictEqual((yield* repo.list("ir-org", {}, after, 2)).items.map((r) => r.id), ["ir-a"])
        assert.deepStrictEqual((yield* repo.list("ir-org", { spaceId: "ir-space-1" }, undefined, 10)).items.map((r) => r.id), ["ir-c", "ir-a"])
        assert.deepStrictEqual((yield* repo.list("ir-org", { statuses: ["pending", "in-progress"] }, undefined, 10)).items.map((r) => r.id), ["ir-c"])
        assert.deepStrictEqual((yield* repo.list("ir-other", {}, undefined, 10)).items, [])
        const found = Option.getOrThrow(yield* repo.find("ir-a"))
        assert.deepStrictEqual(found.source, { type: "file", files: ["ir-file"], format: "auto" })
        assert.strictEqual(found.createdAt.toISOString(), "2026-01-01T10:01:00.000Z")
      }))

    it.effect("updates a run unless it is in a status named, and keeps uploads by key", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRunsRepo
        yield* repo.insert(run("ir-d", "ir-space-3", 4))
        const at = new Date(Date.UTC(2026, 0, 1, 11))
        const started = Option.getOrThrow(yield* repo.update("ir-d", { status: "in-progress", startedAt: at, progress: { ...initialProgress, step: "reading", total: 4 } }, ["cancelled"]))
        assert.strictEqual(started.status, "in-progress")
        assert.strictEqual(started.progress.step, "reading")
        yield* repo.update("ir-d", { status: "cancelled" })
        const kept = Option.getOrThrow(yield* repo.update("ir-d", { status: "completed" }, ["cancelled"]))
        assert.strictEqual(kept.status, "cancelled")
        assert.isTrue(Option.isNone(yield* repo.update("ir-missing", { status: "failed" })))
        yield* repo.insertFile({ id: "ir-file-1", organizationId: "ir-org", name: "a.zip", contentType: "application/zip", size: 5_000_000_000, blob: "sha", createdBy: "ir-user", createdAt: at })
        const file = Option.getOrThrow(yield* repo.findFile("ir-file-1"))
        assert.strictEqual(file.size, 5_000_000_000)
        assert.strictEqual(file.name, "a.zip")
      }))

    it.effect("an update meanwhile waits for a transaction that updated the run, and its guard sees that update", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRunsRepo
        const transactor = yield* Transactor.Transactor
        const wrote = (r: ImportRun) => r.status !== "in-progress" || r.progress.step === "written"
        const cancel = (id: string) => repo.update(id, { status: "cancelled" }, wrote)
        /** Marks the run inside a transaction, lets a cancel start, then ends the transaction as `end` says. */
        const race = <E>(id: string, end: Effect.Effect<void, E>) =>
          Effect.gen(function*() {
            yield* repo.insert({ ...run(id, "ir-space-6", 7), status: "in-progress" })
            const marked = yield* Deferred.make<void>()
            const writer = yield* Effect.forkChild(Effect.exit(transactor.transaction(Effect.gen(function*() {
              yield* repo.update(id, { progress: { ...initialProgress, step: "written" } }, ["cancelled"])
              yield* Deferred.succeed(marked, undefined)
              // Real time (the test clock stands still): long enough for the cancel to reach the run's lock.
              yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
              yield* end
            }))))
            yield* Deferred.await(marked)
            const cancelled = Option.getOrThrow(yield* cancel(id))
            yield* Fiber.join(writer)
            return { cancelled, stored: Option.getOrThrow(yield* repo.find(id)) }
          })
        // The write commits: the cancel, made while it was open, finds the run written and leaves it.
        const committed = yield* race("ir-g", Effect.void)
        assert.strictEqual(committed.cancelled.status, "in-progress")
        assert.strictEqual(committed.stored.status, "in-progress")
        assert.strictEqual(committed.stored.progress.step, "written")
        // The write rolls back: the cancel goes through on the run as it was (in memory it saw the
        // uncommitted mark and refused; the run is as it was).
        const rolledBack = yield* race("ir-h", Effect.fail("abort"))
        assert.strictEqual(rolledBack.stored.status, isolated ? "cancelled" : "in-progress")
        assert.strictEqual(rolledBack.stored.progress.step, "queued")
      }))

    it.effect("a purged space's runs go; a rolled-back insert leaves nothing", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRunsRepo
        const transactor = yield* Transactor.Transactor
        yield* repo.insert(run("ir-e", "ir-space-4", 5))
        yield* repo.removeOfSpace("ir-space-4")
        assert.isTrue(Option.isNone(yield* repo.find("ir-e")))
        const exit = yield* Effect.exit(transactor.transaction(Effect.andThen(repo.insert(run("ir-f", "ir-space-5", 6)), Effect.fail("abort"))))
        assert.isTrue(Exit.isFailure(exit))
        assert.isTrue(Option.isNone(yield* repo.find("ir-f")))
      }))

    it.effect("uploads: in use while a pending or running run names them; old unused ones listed oldest first; removed", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRunsRepo
        const file = (id: string, day: number) => ({
          id, organizationId: "ir-org", name: `${id}.zip`, contentType: "application/zip", size: 10, blob: `blob-${id}`, createdBy: "ir-user",
          createdAt: new Date(Date.UTC(2025, 0, day))
        })
        for (const [id, day] of [["ir-up-a", 3], ["ir-up-b", 1], ["ir-up-c", 2], ["ir-up-new", 20]] as const) yield* repo.insertFile(file(id, day))
        const named = (id: string, files: ReadonlyArray<string>, status: ImportRun["status"]): ImportRun => ({ ...run(id, "ir-space-7", 8, status), source: { type: "file", files } })
        yield* repo.insert(named("ir-run-pending", ["ir-up-a"], "pending"))
        yield* repo.insert(named("ir-run-running", ["ir-other", "ir-up-c"], "in-progress"))
        yield* repo.insert(named("ir-run-done", ["ir-up-b"], "completed"))
        assert.isTrue(yield* repo.fileInUse("ir-up-a"))
        assert.isFalse(yield* repo.fileInUse("ir-up-a", "ir-run-pending"))
        assert.isTrue(yield* repo.fileInUse("ir-up-c"))
        assert.isFalse(yield* repo.fileInUse("ir-up-b"))
        const cutoff = new Date(Date.UTC(2025, 0, 10))
        assert.deepStrictEqual((yield* repo.unusedFilesBefore(cutoff, 10)).map((f) => f.id), ["ir-up-b"])
        yield* repo.update("ir-run-pending", { status: "failed" })
        assert.deepStrictEqual((yield* repo.unusedFilesBefore(cutoff, 10)).map((f) => f.id), ["ir-up-b", "ir-up-a"])
        assert.deepStrictEqual((yield* repo.unusedFilesBefore(cutoff, 1)).map((f) => f.id), ["ir-up-b"])
        const removed = yield* repo.removeFile("ir-up-b")
        assert.strictEqual(Option.getOrThrow(removed).blob, "blob-ir-up-b")
        assert.isTrue(Option.isNone(yield* repo.findFile("ir-up-b")))
        assert.isTrue(Option.isNone(yield* repo.removeFile("ir-up-b")))
        assert.deepStrictEqual((yield* repo.unusedFilesBefore(cutoff, 10)).map((f) => f.id), ["ir-up-a"])
      }))
  })
