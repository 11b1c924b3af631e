/**
 * An organization's audit log through the real server, with the typed client and GitBook's own:
 * membership changes appear newest first with who made them and from where, filters and pages,
 * one event's details, the actions; only the organization's admins read it; and no route edits
 * or deletes an entry.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { adminToken, baseUrl, errorCode, memoryAndPostgres, newUser, organizationWith, raw } from "./Harness.ts"

/** The part of GitBook's client this test uses (its typings cannot be followed under NodeNext). */
interface GitBookAudit {
  readonly orgs: {
    listOrganizationAuditEvents(organizationId: string, query?: Record<string, string | number>): Promise<{
      data: { items: Array<{ id: string; action: string; actor: { type: string; id: string }; target: { id: string }; urls: { location: string } }>; next?: { page: string } }
    }>
    getOrganizationAuditEvent(organizationId: string, auditEventId: string): Promise<{ data: { id: string; schemaVersion: number; payload: Record<string, unknown> } }>
    listOrganizationAuditEventActions(organizationId: string): Promise<{ data: { items: Array<{ object: string; id: string; label: string }> } }>
  }
}

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`the audit log API on ${backend.name}`, (it) => {
    it.effect("records membership changes with who made them and from where; filters, pages and details", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read", "edit"])
        const reader = members.read!
        const editor = members.edit!
        yield* alice.api.members.updateMemberInOrganizationById({ params: { organizationId, userId: reader.user.id }, payload: { role: "review" } })
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: editor.user.id } })

        const all = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(all.items.map((e) => e.action), [
          "member.removed",
          "member.role-changed",
          "member.joined",
          "member.invited",
          "member.joined",
          "member.invited"
        ])
        const removed = all.items[0]!
        assert.deepStrictEqual([removed.actor.id, removed.target.id, removed.source], [alice.user.id, editor.user.id, "api"])
        assert.match(removed.client?.address ?? "", /127\.0\.0\.1|::1/)
        assert.isString(removed.client?.userAgent)
        assert.match(removed.urls.location, new RegExp(`/v1/orgs/${organizationId}/audit-events/${removed.id}$`))
        // The member joined on their own, through the invitation.
        const joined = all.items.filter((e) => e.action === "member.joined").map((e) => [e.actor.id, e.target.id])
        assert.deepStrictEqual(joined, [[editor.user.id, editor.user.id], [reader.user.id, reader.user.id]])

        const changed = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { action: "member.role-changed" } })
        assert.strictEqual(changed.items.length, 1)
        const details = yield* alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: changed.items[0]!.id } })
        assert.deepStrictEqual([details.schemaVersion, details.payload], [1, { from: "read", to: "review" }])
        const byTarget = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { target: editor.user.id } })
        assert.deepStrictEqual(byTarget.items.map((e) => e.action), ["member.removed", "member.joined"])
        const byActor = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { actor: reader.user.id } })
        assert.deepStrictEqual(byActor.items.map((e) => e.action), ["member.joined"])
        const future = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { from: "2999-01-01T00:00:00Z" } })
        assert.strictEqual(future.items.length, 0)

        const first = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { limit: 4 } })
        assert.strictEqual(first.items.length, 4)
        const second = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: { limit: 4, page: first.next!.page } })
        assert.deepStrictEqual([...first.items, ...second.items].map((e) => e.id), all.items.map((e) => e.id))
        assert.isUndefined(second.next)

        const actions = yield* alice.api.auditEvents.listOrganizationAuditEventActions({ params: { organizationId } })
        assert.includeDeepMembers([...actions.items], [{ object: "audit-event-action", id: "member.removed", label: "Removed a member" }])
      }))

    it.effect("GitBook's client reads it by the same operations", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: members.read!.user.id } })
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: alice.token }) as unknown as GitBookAudit
        const result = yield* Effect.promise(async () => {
          const { data: list } = await gitbook.orgs.listOrganizationAuditEvents(organizationId, { action: "member.removed", limit: 10 })
          const { data: event } = await gitbook.orgs.getOrganizationAuditEvent(organizationId, list.items[0]!.id)
          const { data: actions } = await gitbook.orgs.listOrganizationAuditEventActions(organizationId)
          return { list, event, actions }
        })
        assert.deepStrictEqual(result.list.items.map((e) => [e.action, e.actor.type, e.actor.id, e.target.id]), [["member.removed", "user", alice.user.id, members.read!.user.id]])
        assert.strictEqual(result.event.id, result.list.items[0]!.id)
        assert.deepStrictEqual(result.event.payload, { role: "read" })
        assert.isTrue(result.actions.items.some((a) => a.id === "member.invited"))
      }))

    it.effect("only the organization's admins read it; bad filters are 400 naming the field", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["edit"])
        const outsider = yield* newUser("Outsider")
        const asMember = yield* Effect.flip(members.edit!.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: {} }))
        assert.strictEqual(errorCode(asMember), 403)
        const memberActions = yield* Effect.flip(members.edit!.api.auditEvents.listOrganizationAuditEventActions({ params: { organizationId } }))
        assert.strictEqual(errorCode(memberActions), 403)
        const asOutsider = yield* Effect.flip(outsider.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: {} }))
        assert.strictEqual(errorCode(asOutsider), 404)
        // Another organization's event is not found in this one.
        const other = yield* organizationWith(["read"])
        const theirs = (yield* other.alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId: other.organizationId }, query: {} })).items[0]!
        const crossed = yield* Effect.flip(alice.api.auditEvents.getOrganizationAuditEvent({ params: { organizationId, auditEventId: theirs.id } }))
        assert.strictEqual(errorCode(crossed), 404)

        const tooMany = yield* raw("GET", `/v1/orgs/${organizationId}/audit-events?limit=101`, { token: alice.token })
        assert.strictEqual(tooMany.status, 400)
        const badFrom = yield* raw("GET", `/v1/orgs/${organizationId}/audit-events?from=yesterday`, { token: alice.token })
        assert.strictEqual(badFrom.status, 400)
        const forged = yield* raw("GET", `/v1/orgs/${organizationId}/audit-events?page=forged`, { token: alice.token })
        assert.deepStrictEqual([forged.status, (forged.body as { error: { field?: string } }).error.field], [400, "page"])
      }))

    it.effect("no route edits or deletes an entry, whoever asks", () =>
      Effect.gen(function*() {
        const { alice, members, organizationId } = yield* organizationWith(["read"])
        yield* alice.api.members.removeMemberFromOrganizationById({ params: { organizationId, userId: members.read!.user.id } })
        const before = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: {} })
        const event = before.items[0]!
        // Every method other than GET, on the log, on an entry and on the actions, by the organization's admin and by the instance's.
        const paths = [`/v1/orgs/${organizationId}/audit-events`, `/v1/orgs/${organizationId}/audit-events/${event.id}`, `/v1/orgs/${organizationId}/audit-event-actions`]
        for (const token of [alice.token, adminToken]) {
          for (const path of paths) {
            for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
              const answer = yield* raw(method, path, { token, body: JSON.stringify({ action: "member.invited", actor: { type: "user", id: "someone" } }) })
              assert.include([404, 405], answer.status, `${method} ${path} answered ${answer.status}`)
            }
          }
        }
        // Nor does the contract have any such operation.
        const document = yield* raw("GET", "/openapi.json")
        const operations = Object.entries((document.body as { paths: Record<string, Record<string, unknown>> }).paths)
          .filter(([path]) => path.includes("audit-event"))
          .flatMap(([path, item]) => Object.keys(item).filter((key) => key !== "parameters").map((method) => `${method} ${path}`))
        assert.sameMembers(operations, [
          "get /v1/orgs/{organizationId}/audit-events",
          "get /v1/orgs/{organizationId}/audit-events/{auditEventId}",
          "get /v1/orgs/{organizationId}/audit-event-actions"
        ])
        const after = yield* alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId }, query: {} })
        assert.deepStrictEqual(after, before)
      }))

    it.effect("the instance's administrators read the whole instance's log, instance administration included", () =>
      Effect.gen(function*() {
        const { alice, organizationId } = yield* organizationWith(["read"])
        const base = yield* baseUrl
        const call = (path: string, token: string, init: RequestInit = {}) =>
          Effect.promise(async () => {
            const response = await fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "user-agent": "audit-test/1", "content-type": "application/json" } })
            return { status: response.status, body: await response.json() as any }
          })
        const granted = yield* call(`/admin/users/${alice.user.id}/instance-admin`, adminToken, { method: "PUT", body: JSON.stringify({ instanceAdmin: true }) })
        assert.strictEqual(granted.status, 200)
        yield* call(`/admin/users/${alice.user.id}/instance-admin`, adminToken, { method: "PUT", body: JSON.stringify({ instanceAdmin: false }) })

        const log = yield* call(`/admin/audit-events?target=${alice.user.id}&limit=10`, adminToken)
        assert.strictEqual(log.status, 200)
        const actions = log.body.items.map((e: { action: string }) => e.action)
        assert.deepStrictEqual(actions.slice(0, 2), ["instance.admin-withdrawn", "instance.admin-granted"])
        assert.deepStrictEqual([log.body.items[0].source, log.body.items[0].client.userAgent], ["api", "audit-test/1"])
        // The organizations' events are there too.
        const everything = yield* call(`/admin/audit-events?actor=${alice.user.id}`, adminToken)
        assert.isTrue(everything.body.items.some((e: { urls: { location: string } }) => e.urls.location.includes(`/orgs/${organizationId}/`)))
        // Each event says its organization, and the page names what its events refer to as it is now:
        // the person, the organization, a team renamed since; a team deleted since is not named.
        const kept = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Writers" } })
        const gone = yield* alice.api.teams.createOrganizationTeam({ params: { organizationId }, payload: { title: "Temporary" } })
        yield* alice.api.teams.updateTeamInOrganizationById({ params: { organizationId, teamId: kept.id }, payload: { title: "Editors" } })
        yield* alice.api.teams.removeTeamFromOrganizationById({ params: { organizationId, teamId: gone.id } })
        const named = yield* call(`/admin/audit-events?actor=${alice.user.id}&limit=100`, adminToken)
        const inOrg = named.body.items.filter((e: { organizationId: string | null }) => e.organizationId === organizationId)
        assert.isAbove(inOrg.length, 3)
        assert.deepStrictEqual(
          [named.body.names[`user:${alice.user.id}`], named.body.names[`organization:${organizationId}`], named.body.names[`team:${kept.id}`], named.body.names[`team:${gone.id}`]],
          ["Alice", "Acme", "Editors", undefined]
        )
        assert.isTrue(named.body.items.some((e: { target: { id: string } }) => e.target.id === gone.id))
        const one = yield* call(`/admin/audit-events/${log.body.items[0].id}`, adminToken)
        assert.deepStrictEqual([one.status, one.body.organizationId, one.body.action], [200, null, "instance.admin-withdrawn"])

        // Not for an organization's admin; bad filters are 400 naming the field.
        assert.strictEqual((yield* call("/admin/audit-events", alice.token)).status, 403)
        const badLimit = yield* call("/admin/audit-events?limit=0", adminToken)
        assert.deepStrictEqual([badLimit.status, badLimit.body.error.field], [400, "limit"])
        const badPage = yield* call("/admin/audit-events?page=forged", adminToken)
        assert.deepStrictEqual([badPage.status, badPage.body.error.field], [400, "page"])
        assert.strictEqual((yield* call("/admin/audit-events/nope", adminToken)).status, 404)
        for (const path of ["/admin/audit-events", `/admin/audit-events/${log.body.items[0].id}`, "/admin/audit-event-actions"]) {
          for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
            assert.include([404, 405], (yield* raw(method, path, { token: adminToken, body: "{}" })).status, `${method} ${path}`)
          }
        }
        assert.deepStrictEqual((yield* call(`/admin/audit-events/${log.body.items[0].id}`, adminToken)).body, one.body)
        const instanceActions = yield* call("/admin/audit-event-actions", adminToken)
        assert.isTrue(instanceActions.body.items.some((a: { id: string }) => a.id === "team.created"))
        assert.strictEqual((yield* call("/admin/audit-event-actions", alice.token)).status, 403)
      }))
  })
}
