/**
 * The behaviour every ImportRunsRepo adapter must have: runs listed newest first, filtered by space
 * and status, paged; an update that leaves a run in a given status alone; uploads kept by key; a
 * purged space's runs gone; and a rolled-back transaction leaving nothing.
 */
import { assert, describe } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
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

export const importRunsRepoContract = (it: ReposTest) =>
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
  })
