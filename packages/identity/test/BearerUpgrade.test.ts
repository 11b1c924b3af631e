/**
 * An installation upgraded to migration 0012 (issue 34): session ids and invite-link secrets are
 * stored as hashes. A browser's cookie of before still opens its session; an invite link of before
 * still lets people join, is still listed with its secret, and is stored hashed and sealed. So is a
 * pending email invitation of before migration 0017: still listed and signed up through with its
 * id, stored only as the id's hash (and sealed).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Migrations, SqlTransactor } from "@quire/db"
import { migrations as auditMigrations } from "@quire/audit"
import { Actor, Errors, Ids, InstanceSecret, Sealed, SignedToken } from "@quire/kernel"
import { Backends } from "@quire/testkit"
import { IdentityLayers, InviteSignUp, inviteToken, MemberInvites, MembershipDependents, migrations, Organizations, SignInSessions, VisitorClaims } from "../src/index.ts"

/** The identity migrations before bearer values were hashed. */
const before = {
  table: migrations.table,
  migrations: Object.fromEntries(Object.entries(migrations.migrations).filter(([name]) => name < "0012"))
}

const instanceSecret = "bearer-upgrade-instance-secret-0123456789abcdef"

for (const database of Backends.databases) {
  layer(database.layer, { timeout: "60 seconds" })(`${database.name}: sessions and invite links stored before migration 0012`, (it) => {
    it.effect("keep working, stored only as hashes (links also sealed)", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrations.run(before)
        yield* sql`INSERT INTO identity_users (id, email, display_name, instance_admin, created_at) VALUES
          ('old-admin', 'admin@old.test', 'Administrator', true, now()), ('old-joiner', 'joiner@old.test', 'Joiner', false, now())`
        yield* sql`INSERT INTO identity_organizations (id, title, created_at, invite_links) VALUES ('old-org', 'Old', now(), true)`
        yield* sql`INSERT INTO identity_members (organization_id, user_id, role, joined_at) VALUES ('old-org', 'old-admin', 'admin', now())`
        yield* sql`
          INSERT INTO identity_sessions (id, user_id, method, created_at, last_seen_at, expires_at)
          VALUES ('old-session-id-0123456789', 'old-admin', 'password', now(), now(), now() + interval '1 day')`
        yield* sql`INSERT INTO identity_link_invites (id, organization_id, role, created_at) VALUES ('old-link-secret-0123456789', 'old-org', 'admin', now())`
        yield* sql`
          INSERT INTO identity_email_invites (id, organization_id, email, role, created_at)
          VALUES ('old-email-invite-0123456789', 'old-org', 'invited@old.test', 'admin', now())`
        yield* Migrations.run(auditMigrations, migrations)

        const services = IdentityLayers.layerServices.pipe(
          Layer.provide(IdentityLayers.layerReposSql),
          Layer.provide([SqlTransactor.layer, Ids.Ids.layer, MembershipDependents.layerNone, VisitorClaims.layerTest]),
          Layer.provide(Layer.succeed(InstanceSecret.StoredSecret, Option.some(Redacted.make(instanceSecret))))
        )
        yield* Effect.gen(function*() {
          // The cookie a browser kept from before the upgrade: a signed token of the session's id.
          const key = yield* SignedToken.keyFor("sign-in-session")
          const cookie = yield* SignedToken.issue(key, Schema.Struct({ sid: Schema.String }), { sid: "old-session-id-0123456789" }, { expiresIn: 3600 })
          const sessions = yield* SignInSessions
          const opened = yield* sessions.open(cookie)
          assert.strictEqual(Option.getOrThrow(opened).userId, "old-admin")
          assert.strictEqual(Option.getOrThrow(opened).id, Sealed.bearerHash("old-session-id-0123456789"))

          const organizations = yield* Organizations
          const admin = Actor.Actor
          const listed = yield* organizations.listLinkInvites("old-org").pipe(Effect.provideService(admin, { userId: "old-admin", instanceAdmin: false }))
          assert.deepStrictEqual(listed.map((view) => view.invite.id), ["old-link-secret-0123456789"])
          assert.isTrue(yield* organizations.joinWithLinkInvite("old-org", "old-link-secret-0123456789").pipe(
            Effect.provideService(admin, { userId: "old-joiner", instanceAdmin: false }),
            Effect.map(() => true)
          ))

          const memberInvites = yield* MemberInvites
          const pending = yield* memberInvites.listForOrganization("old-org").pipe(Effect.provideService(admin, { userId: "old-admin", instanceAdmin: false }))
          assert.deepStrictEqual(pending.map((view) => view.invite.id), ["old-email-invite-0123456789"])
          const signUp = yield* InviteSignUp
          const found = yield* signUp.find(inviteToken("old-org", "old-email-invite-0123456789"))
          assert.deepStrictEqual([found.kind, found.email, found.role], ["email", "invited@old.test", "admin"])
          // The stored id (what a dump holds) names no invitation.
          const refused = yield* Effect.flip(signUp.find(inviteToken("old-org", Sealed.bearerHash("old-email-invite-0123456789"))))
          assert.instanceOf(refused, Errors.NotFound)
        }).pipe(Effect.provide(services), Effect.provideService(InstanceSecret.StoredSecret, Option.some(Redacted.make(instanceSecret))))

        const rows = yield* sql<{ readonly id: string; readonly sealed_id: string | null }>`SELECT id, sealed_id FROM identity_link_invites`
        assert.deepStrictEqual(rows.map((row) => row.id), [Sealed.bearerHash("old-link-secret-0123456789")])
        assert.notInclude(rows[0]?.sealed_id ?? "", "old-link-secret")
        const emailInvites = yield* sql<{ readonly id: string; readonly sealed_id: string | null }>`SELECT id, sealed_id FROM identity_email_invites`
        assert.deepStrictEqual(emailInvites.map((row) => row.id), [Sealed.bearerHash("old-email-invite-0123456789")])
        assert.isNotNull(emailInvites[0]?.sealed_id)
        assert.notInclude(emailInvites[0]?.sealed_id ?? "", "old-email-invite")
        const sessionIds = yield* sql<{ readonly id: string }>`SELECT id FROM identity_sessions`
        assert.deepStrictEqual(sessionIds.map((row) => row.id), [Sealed.bearerHash("old-session-id-0123456789")])
        const members = yield* sql<{ readonly role: string }>`SELECT role FROM identity_members WHERE user_id = 'old-joiner'`
        assert.deepStrictEqual(members.map((row) => row.role), ["admin"])
      }))
  })
}
