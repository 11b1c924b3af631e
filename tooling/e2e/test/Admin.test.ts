/**
 * An organization admin's commands against a real server (memory backend): inviting people by
 * email, roles, removal, invite links and SAML providers; each for people and with `--json`.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { LinkInvite, Member, SamlProvider, Schemas } from "@quire/api"
import { memory, newUser, organizationWith } from "@quire/server/test/Harness"
import { decodeJson, lines, quireAs, rowWith } from "./Quire.ts"

/** The answer of `inviteUsersToOrganization`. */
const Invited = Schema.Struct({ users: Schema.Array(Schema.String), invited: Schema.Finite })

layer(memory.layer, { timeout: 120_000, excludeTestServices: true })("quire admin commands on a memory server", (it) => {
  it.effect("members invite, role and rm; a bad role is a usage error; a non-member is refused with the server's message", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId } = yield* organizationWith(["read"])
      const as = quireAs(alice.token)
      const bob = yield* newUser("Bob")
      const carol = yield* newUser("Carol")

      const invited = yield* as("members", "invite", organizationId, bob.email, "--role", "edit")
      assert.strictEqual(invited.status, 0, invited.stderr)
      assert.include(invited.stdout, "Invited 1")
      const json = yield* as("members", "invite", organizationId, carol.email, "--role", "comment", "--json").pipe(
        Effect.flatMap(decodeJson(Invited))
      )
      assert.strictEqual(json.invited, 1)
      const pending = yield* alice.api.organizations.listOrganizationMemberInvites({ params: { organizationId } })
      assert.deepStrictEqual(
        pending.items.map((invite) => [invite.email, invite.role]).toSorted(),
        [[bob.email, "edit"], [carol.email, "comment"]].toSorted()
      )

      const badRole = yield* as("members", "invite", organizationId, bob.email, "--role", "boss")
      assert.strictEqual(badRole.status, 2)
      assert.include(badRole.stderr, "boss")

      const reader = members.read!
      const role = yield* as("members", "role", organizationId, reader.user.id, "edit")
      assert.strictEqual(role.status, 0, role.stderr)
      assert.match(role.stdout, /^role:\s+edit$/m)
      const asJson = yield* as("members", "role", organizationId, reader.user.id, "review", "--json").pipe(
        Effect.flatMap(decodeJson(Member))
      )
      assert.strictEqual(asJson.role, "review")
      const badSetRole = yield* as("members", "role", organizationId, reader.user.id, "owner")
      assert.strictEqual(badSetRole.status, 2)

      const outsider = quireAs(bob.token)
      const refused = yield* outsider("members", "invite", organizationId, "dan@example.com")
      assert.strictEqual(refused.status, 1)
      assert.match(refused.stderr, /^quire: .+/)
      assert.strictEqual(lines(refused.stderr).length, 1)
      const refusedRm = yield* outsider("members", "rm", organizationId, reader.user.id)
      assert.strictEqual(refusedRm.status, 1)

      const removed = yield* as("members", "rm", organizationId, reader.user.id)
      assert.strictEqual(removed.status, 0, removed.stderr)
      assert.include(removed.stdout, `Removed ${reader.user.id}`)
      const left = yield* alice.api.members.listMembersInOrganizationById({ params: { organizationId }, query: {} })
      assert.notInclude(left.items.map((member) => member.id), reader.user.id)
      // Removing someone who is not a member is no error (the API answers 204); --json prints nothing.
      const removedJson = yield* as("members", "rm", organizationId, reader.user.id, "--json")
      assert.strictEqual(removedJson.status, 0, removedJson.stderr)
      assert.strictEqual(removedJson.stdout, "")
    }))

  it.effect("invites create prints the link's URL; list shows it; rm deletes it; --expires accepts a span or a date", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId } = yield* organizationWith(["read"])
      const as = quireAs(alice.token)

      const created = yield* as("invites", "create", organizationId, "--role", "edit", "--expires", "7d")
      assert.strictEqual(created.status, 0, created.stderr)
      assert.match(created.stdout, new RegExp(`^https?://\\S+/orgs/${organizationId}/link-invites/\\S+$`))
      const link = yield* as("invites", "create", organizationId, "--role", "read", "--expires", "2099-01-31T00:00:00Z", "--json").pipe(
        Effect.flatMap(decodeJson(LinkInvite))
      )
      assert.strictEqual(link.role, "read")
      assert.strictEqual(link.expiresAt?.slice(0, 10), "2099-01-31")

      const table = yield* as("invites", "list", organizationId)
      assert.strictEqual(table.status, 0, table.stderr)
      assert.match(lines(table.stdout)[0]!, /^ID\s+ROLE\s+CREATED\s+EXPIRES\s+URL$/)
      assert.match(rowWith(table.stdout, link.id), /read\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+2099-01-31 00:00\s+http/)
      const listed = yield* as("invites", "list", organizationId, "--json").pipe(
        Effect.flatMap(decodeJson(Schemas.ListOf(LinkInvite)))
      )
      assert.strictEqual(listed.items.length, 2)
      assert.sameMembers(listed.items.map((invite) => invite.role), ["edit", "read"])

      const badExpiry = yield* as("invites", "create", organizationId, "--expires", "soon")
      assert.strictEqual(badExpiry.status, 1)
      assert.include(badExpiry.stderr, "--expires")
      const reader = quireAs(members.read!.token)
      const refused = yield* reader("invites", "create", organizationId)
      assert.strictEqual(refused.status, 1)
      assert.strictEqual((yield* reader("invites", "list", organizationId)).status, 1)

      const removed = yield* as("invites", "rm", organizationId, link.id)
      assert.strictEqual(removed.status, 0, removed.stderr)
      const after = yield* as("invites", "list", organizationId, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(LinkInvite))))
      assert.deepStrictEqual(after.items.map((invite) => invite.role), ["edit"])
    }))

  it.effect("saml add, list and rm; a reader is refused", () =>
    Effect.gen(function*() {
      const { alice, members, organizationId } = yield* organizationWith(["read"])
      const as = quireAs(alice.token)

      const added = yield* as("saml", "add", organizationId, "Okta", "--role", "edit")
      assert.strictEqual(added.status, 0, added.stderr)
      assert.match(added.stdout, /^label:\s+Okta$/m)
      assert.match(added.stdout, /^status:\s+pending$/m)
      assert.match(added.stdout, /^acs url:\s+http\S+$/m)
      const provider = yield* as(
        "saml", "add", organizationId, "Entra", "--entity-id", "https://idp.example.com/entity", "--sso-url", "https://idp.example.com/sso", "--json"
      ).pipe(Effect.flatMap(decodeJson(SamlProvider)))
      assert.strictEqual(provider.label, "Entra")
      assert.strictEqual(provider.entityID, "https://idp.example.com/entity")

      const table = yield* as("saml", "list", organizationId)
      assert.strictEqual(table.status, 0, table.stderr)
      assert.match(lines(table.stdout)[0]!, /^ID\s+LABEL\s+STATUS\s+ROLE\s+SSO URL$/)
      assert.match(rowWith(table.stdout, provider.id), /Entra\s+pending\s+\S+\s+https:\/\/idp\.example\.com\/sso$/)
      const listed = yield* as("saml", "list", organizationId, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(SamlProvider))))
      assert.sameMembers(listed.items.map((p) => p.label), ["Okta", "Entra"])

      const reader = quireAs(members.read!.token)
      const refused = yield* reader("saml", "add", organizationId, "Mine")
      assert.strictEqual(refused.status, 1)
      assert.match(refused.stderr, /^quire: .+/)

      const removed = yield* as("saml", "rm", organizationId, provider.id)
      assert.strictEqual(removed.status, 0, removed.stderr)
      const after = yield* as("saml", "list", organizationId, "--json").pipe(Effect.flatMap(decodeJson(Schemas.ListOf(SamlProvider))))
      assert.deepStrictEqual(after.items.map((p) => p.label), ["Okta"])
    }))
})
