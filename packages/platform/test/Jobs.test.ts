/** Background jobs run through the queue against the real use cases. */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { MemberInvites, Organizations, Users } from "@quire/identity"
import { purgeStaleInvites } from "@quire/identity/Jobs"
import { JobRunner } from "@quire/queue"
import { as, asInstanceAdmin } from "@quire/testkit"
import * as Queue from "../src/Queue.ts"
import * as Services from "../src/Services.ts"

const layer = Queue.layerInProcessWith(Services.layerMemory).pipe(Layer.provideMerge(Services.layerMemoryRepos))

describe("identity.purgeStaleInvites", () => {
  it.effect("drops email invitations older than 30 days and keeps newer ones", () =>
    Effect.gen(function*() {
      const users = yield* Users
      const organizations = yield* Organizations
      const runner = yield* JobRunner
      const { user: admin } = yield* users.bootstrapAdmin("admin@quire.test", "token")
      const asAdmin = asInstanceAdmin(admin.id)
      const org = yield* organizations.create({ title: "Acme" }).pipe(asAdmin)
      yield* organizations.invite(org.organization.id, { emails: ["old@example.com"], role: "read", sso: false }).pipe(asAdmin)
      yield* TestClock.adjust("20 days")
      yield* organizations.invite(org.organization.id, { emails: ["new@example.com"], role: "read", sso: false }).pipe(asAdmin)
      yield* TestClock.adjust("11 days")

      yield* purgeStaleInvites.enqueue({})
      yield* runner.drain

      const old = yield* users.create({ email: "old@example.com", displayName: "Old" }).pipe(asAdmin)
      const fresh = yield* users.create({ email: "new@example.com", displayName: "New" }).pipe(asAdmin)
      // Invitations are offers (issue 18): each new account finds what still waits for it.
      const invites = yield* MemberInvites
      assert.deepStrictEqual(yield* invites.listForCaller.pipe(as(old.id)), [])
      assert.deepStrictEqual((yield* invites.listForCaller.pipe(as(fresh.id))).map((v) => v.organization.id), [org.organization.id])
    }).pipe(Effect.provide(layer)))
})
