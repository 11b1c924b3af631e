/** The content package's background jobs, run through the queue against the real use cases. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { RevisionsRepo, Spaces, SpacesRepo } from "@quire/content"
import { purgeDeletedSpaces } from "@quire/content/Jobs"
import { Organizations, Users } from "@quire/identity"
import { JobRunner } from "@quire/queue"
import { jobs } from "../src/Jobs.ts"
import { asInstanceAdmin } from "@quire/testkit"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"
import * as Live from "./Live.ts"

const layer = Queue.layerInProcessWith(Live.layerMemory).pipe(Layer.provideMerge(Services.layerMemoryRepos))

describe("content.purgeDeletedSpaces", () => {
  it.effect("removes spaces deleted more than 7 days ago with their revisions, and keeps the others", () =>
    Effect.gen(function*() {
      const users = yield* Users
      const organizations = yield* Organizations
      const spaces = yield* Spaces
      const repo = yield* SpacesRepo
      const revisions = yield* RevisionsRepo
      const runner = yield* JobRunner
      const { user: admin } = yield* users.bootstrapAdmin("admin@quire.test", "token")
      const asAdmin = asInstanceAdmin(admin.id)
      const org = yield* organizations.create({ title: "Acme" }).pipe(asAdmin)
      const old = yield* spaces.create(org.organization.id, { title: "Old" }).pipe(asAdmin)
      const recent = yield* spaces.create(org.organization.id, { title: "Recent" }).pipe(asAdmin)
      const live = yield* spaces.create(org.organization.id, { title: "Live" }).pipe(asAdmin)
      yield* spaces.remove(old.space.id).pipe(asAdmin)
      yield* TestClock.adjust("6 days")
      yield* spaces.remove(recent.space.id).pipe(asAdmin)
      yield* TestClock.adjust("2 days")

      yield* purgeDeletedSpaces.enqueue({})
      yield* runner.drain

      assert.isTrue(Option.isNone(yield* repo.find(old.space.id)))
      assert.isTrue(Option.isNone(yield* revisions.find(old.space.revisionId)))
      assert.isTrue(Option.isSome(yield* repo.find(recent.space.id)))
      assert.isTrue(Option.isSome(yield* repo.find(live.space.id)))
      const restored = yield* spaces.restore(recent.space.id).pipe(asAdmin)
      assert.isNull(restored.space.deletedAt)
    }).pipe(Effect.provide(layer)))

  it("is scheduled hourly with the server's jobs", () => {
    const job = jobs.find((j) => j.name === "content.purgeDeletedSpaces")
    assert.deepStrictEqual(job?.schedule, { every: "1 hour" })
  })
})
