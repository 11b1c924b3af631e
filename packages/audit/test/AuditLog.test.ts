/**
 * The audit log's contract, over memory, a real PostgreSQL and PGlite: events recorded in a
 * transaction exist exactly when it commits, listings filter and page newest first, nothing edits
 * an event, and retention removes only old ones.
 */
import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import { randomUUID } from "node:crypto"
import { SqlClient } from "effect/sql"
import { Transactor } from "@quire/kernel"
import { Backends } from "@quire/testkit"
import { type AuditAction, type AuditEvent, AuditLog, AuditLogRepo, AuditOrigin, migrations, SqlAuditLogRepo } from "../src/index.ts"

const backends = Backends.ports({
  memory: AuditLog.layer.pipe(Layer.provideMerge(AuditLogRepo.layerMemory)),
  sql: AuditLog.layer.pipe(Layer.provideMerge(SqlAuditLogRepo.layer)),
  migrations: [migrations]
})

const user = (id: string) => ({ type: "user" as const, id, label: `User ${id}` })
const at = (ms: number, base = Date.UTC(2030, 0, 1)) => new Date(base + ms)

/** An event stored as of a chosen time (`record` stamps the clock's). */
const event = (repo: AuditLogRepo["Service"], ms: number, organizationId: string | null, action: AuditAction, actor: string, target: string, base?: number) => {
  const stored: AuditEvent = {
    id: randomUUID(),
    organizationId,
    occurredAt: at(ms, base),
    action,
    actor: user(actor),
    source: "api",
    target: { type: "thing", id: target },
    address: null,
    userAgent: null,
    payload: {}
  }
  return Effect.as(repo.append(stored), stored)
}

Backends.each(backends, (it) =>
  describe("AuditLog", () => {
    it.effect("keeps an event recorded in a transaction that commits, with where it came from, and forgets one that rolls back", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const transactor = yield* Transactor.Transactor
        const kept = yield* transactor.transaction(log.record({
          organizationId: "au-org1",
          action: "member.role-changed",
          actor: user("au-ann"),
          target: { type: "user", id: "au-bob" },
          payload: { from: "read", to: "admin" }
        })).pipe(Effect.provideService(AuditOrigin, { source: "api", address: "203.0.113.9", userAgent: "curl/8" }))
        yield* transactor.transaction(Effect.andThen(
          log.record({ organizationId: "au-org1", action: "member.removed", actor: user("au-ann"), target: { type: "user", id: "au-cat" } }),
          Effect.fail("undo" as const)
        )).pipe(Effect.ignore)
        const page = yield* log.list({ organizationId: "au-org1" }, {})
        assert.deepStrictEqual(page.items.map((e) => e.action), ["member.role-changed"])
        const got = yield* log.get("au-org1", kept.id)
        assert.strictEqual(got.address, "203.0.113.9")
        assert.strictEqual(got.userAgent, "curl/8")
        assert.strictEqual(got.source, "api")
        assert.deepStrictEqual(got.actor, user("au-ann"))
        assert.deepStrictEqual(got.target, { type: "user", id: "au-bob" })
        assert.deepStrictEqual(got.payload, { from: "read", to: "admin" })
        assert.strictEqual(got.occurredAt.getTime(), kept.occurredAt.getTime())
        // Another organization does not see it; the instance's log does.
        const elsewhere = yield* Effect.flip(log.get("au-org2", kept.id))
        assert.strictEqual(elsewhere._tag, "NotFound")
        assert.strictEqual((yield* log.get(undefined, kept.id)).id, kept.id)
      }))

    it.effect("lists newest first, by filters, a page at a time", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const repo = yield* AuditLogRepo
        yield* event(repo, 1_000, "au-org3", "token.created", "au-dan", "t1")
        yield* event(repo, 2_000, "au-org3", "token.revoked", "au-dan", "t1")
        yield* event(repo, 3_000, "au-org3", "member.invited", "au-eve", "x@example.com")
        yield* event(repo, 3_000, null, "instance.admin-granted", "au-eve", "au-dan")
        const all = yield* log.list({ organizationId: "au-org3" }, {})
        assert.deepStrictEqual(all.items.map((e) => e.action), ["member.invited", "token.revoked", "token.created"])
        assert.deepStrictEqual((yield* log.list({ organizationId: "au-org3", actor: "au-dan" }, {})).items.map((e) => e.action), ["token.revoked", "token.created"])
        assert.deepStrictEqual((yield* log.list({ organizationId: "au-org3", target: "t1", action: "token.created" }, {})).items.length, 1)
        const window = yield* log.list({ organizationId: "au-org3", from: at(1_500), to: at(2_500) }, {})
        assert.deepStrictEqual(window.items.map((e) => e.action), ["token.revoked"])
        const first = yield* log.list({ organizationId: "au-org3" }, { limit: 2 })
        assert.strictEqual(first.items.length, 2)
        assert.isDefined(first.next)
        const second = yield* log.list({ organizationId: "au-org3" }, { limit: 2, page: first.next })
        assert.deepStrictEqual(second.items.map((e) => e.action), ["token.created"])
        assert.isUndefined(second.next)
        const bad = yield* Effect.flip(log.list({ organizationId: "au-org3" }, { page: "forged" }))
        assert.strictEqual(bad.field, "page")
        // The instance's log holds the instance events beside every organization's.
        const instance = yield* log.list({ actor: "au-eve" }, {})
        assert.sameMembers(instance.items.map((e) => e.action), ["member.invited", "instance.admin-granted"])
      }))

    it.effect("ages out only events older than the retention", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const repo = yield* AuditLogRepo
        const old = yield* event(repo, -40 * 86_400_000, "au-org4", "token.created", "au-fay", "t2", 0)
        const recent = yield* log.record({ organizationId: "au-org4", action: "token.revoked", actor: user("au-fay"), target: { type: "token", id: "t2" } })
        // The retention setting: 0 keeps every event; 30 days removes the old one.
        assert.strictEqual(yield* log.purgeExpired.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_AUDIT_RETENTION_DAYS: 0 })))), 0)
        assert.isAtLeast(yield* log.purgeExpired.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ QUIRE_AUDIT_RETENTION_DAYS: 30 })))), 1)
        assert.deepStrictEqual((yield* log.list({ organizationId: "au-org4" }, {})).items.map((e) => e.id), [recent.id])
        assert.isTrue(Option.isNone(yield* Effect.option(log.get("au-org4", old.id))))
      }))
  }))

for (const database of Backends.databasesMigrated([migrations])) {
  layer(AuditLog.layer.pipe(Layer.provideMerge(SqlAuditLogRepo.layer), Layer.provideMerge(database.layer)), { timeout: "120 seconds" })(
    `audit_events on ${database.name}`,
    (it) => {
      it.effect("refuses to edit a stored event, even by SQL", () =>
        Effect.gen(function*() {
          const log = yield* AuditLog
          const sql = yield* SqlClient.SqlClient
          const event = yield* log.record({ organizationId: "au-org5", action: "member.removed", actor: user("au-gus"), target: { type: "user", id: "au-hal" } })
          const edit = yield* Effect.exit(sql`UPDATE audit_events SET actor_id = 'someone-else' WHERE id = ${event.id}`)
          assert.isTrue(Exit.isFailure(edit))
          assert.strictEqual((yield* log.get("au-org5", event.id)).actor.id, "au-gus")
        }))

      it.effect("refuses to delete or truncate events by SQL; only the retention purge removes old ones", () =>
        Effect.gen(function*() {
          const log = yield* AuditLog
          const sql = yield* SqlClient.SqlClient
          const event = yield* log.record({ organizationId: "au-org6", action: "member.removed", actor: user("au-ivy"), target: { type: "user", id: "au-jon" } })
          const attempts = [
            sql`DELETE FROM audit_events WHERE id = ${event.id}`,
            sql`DELETE FROM audit_events`,
            sql`TRUNCATE audit_events`,
            sql`UPDATE audit_events SET payload = '{}'::jsonb, occurred_at = now() - interval '10 years' WHERE id = ${event.id}`,
            // A transaction that claims another purpose is refused too.
            sql`SELECT set_config('quire.audit_removal', 'cleanup', true)`.pipe(Effect.andThen(sql`DELETE FROM audit_events WHERE id = ${event.id}`), sql.withTransaction)
          ]
          for (const attempt of attempts) assert.isTrue(Exit.isFailure(yield* Effect.exit(attempt)))
          assert.strictEqual((yield* log.get("au-org6", event.id)).actor.id, "au-ivy")
          // The setting lasts only for the purge's own transaction: a DELETE after it is refused again.
          assert.strictEqual(yield* log.purgeOlderThan(365), 0)
          assert.isTrue(Exit.isFailure(yield* Effect.exit(sql`DELETE FROM audit_events WHERE id = ${event.id}`)))
          assert.strictEqual((yield* log.get("au-org6", event.id)).id, event.id)
        }))
    }
  )
}
