/**
 * What a site and its organization keep for AI (GitBook's agent instructions, site agent settings,
 * site MCP servers) through the real router, the typed client and GitBook's own client.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { baseUrl, errorCode, memoryAndPostgres, newUser, raw, spaceWith } from "./Harness.ts"

const fieldOf = (body: unknown) => (body as { readonly error?: { readonly field?: unknown } } | undefined)?.error?.field

const paragraph = (text: string) => ({
  object: "document" as const,
  data: {},
  nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] }]
})

/** The part of GitBook's client this test uses (its typings cannot be followed under NodeNext; see GitBookClient.test.ts). */
interface GitBookAgentClient {
  readonly orgs: {
    getOrganizationAgentInstructions(organizationId: string): Promise<{ data: { object: string; instructions: { nodes: Array<unknown> }; updatedBy: string; urls: { location: string } } }>
    updateOrganizationAgentInstructions(organizationId: string, body: { instructions: unknown }): Promise<{ data: { instructions: { nodes: Array<unknown> }; updatedBy: string } }>
    createSiteMcpServer(organizationId: string, siteId: string, body: { name: string; url: string; headers: Record<string, string>; transport?: string }): Promise<{ status: number; data: { id: string; object: string; headers: Record<string, string>; transport: string } }>
    listSiteMcpServers(organizationId: string, siteId: string): Promise<{ data: { items: Array<{ id: string; name: string; headers: Record<string, string> }> } }>
  }
}

/** An organization (Alice its admin, an editor, a reader), a site over its space, and an outsider. */
const setup = Effect.fnUntraced(function*() {
  const s = yield* spaceWith(["edit", "read"])
  const site = yield* s.alice.api.sites.createSite({ params: { organizationId: s.organizationId }, payload: { title: "Docs", spaces: [s.space.id] } })
  const outsider = yield* newUser("Mallory")
  return { ...s, site, siteParams: { organizationId: s.organizationId, siteId: site.id }, outsider }
})

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`agent settings on ${backend.name}`, (it) => {
    it.effect("an organization's agent instructions: empty until set, members read, admins write, outsiders see nothing", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const params = { organizationId: s.organizationId }
        const org = yield* s.alice.api.organizations.getOrganizationById({ params })
        const blank = yield* s.members.read!.api.agentInstructions.getOrganizationAgentInstructions({ params })
        assert.deepStrictEqual(blank, {
          object: "agent-instructions",
          instructions: { object: "document", data: {}, nodes: [] },
          updatedAt: org.createdAt,
          updatedBy: s.alice.user.id,
          urls: { location: `/orgs/${s.organizationId}/agent-instructions` }
        })
        const refused = yield* Effect.flip(s.members.edit!.api.agentInstructions.updateOrganizationAgentInstructions({ params, payload: { instructions: paragraph("x") } }))
        assert.strictEqual(errorCode(refused), 403)
        const hidden = yield* Effect.flip(s.outsider.api.agentInstructions.getOrganizationAgentInstructions({ params }))
        assert.strictEqual(errorCode(hidden), 404)

        const set = yield* s.alice.api.agentInstructions.updateOrganizationAgentInstructions({ params, payload: { instructions: paragraph("Answer in British English.") } })
        assert.deepStrictEqual(set.instructions, paragraph("Answer in British English."))
        assert.strictEqual(set.updatedBy, s.alice.user.id)
        assert.isAbove(Date.parse(set.updatedAt), Date.parse(org.createdAt) - 1)
        assert.deepStrictEqual(yield* s.members.read!.api.agentInstructions.getOrganizationAgentInstructions({ params }), set)

        // A node that is no GitBook block is refused naming where, and nothing changes.
        const bad = yield* raw("PUT", `/v1/orgs/${s.organizationId}/agent-instructions`, {
          token: s.alice.token,
          body: JSON.stringify({ instructions: { object: "document", data: {}, nodes: [{ object: "text", leaves: [] }] } })
        })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(fieldOf(bad.body), "instructions.nodes[0].object")
        assert.deepStrictEqual((yield* s.alice.api.agentInstructions.getOrganizationAgentInstructions({ params })).instructions, set.instructions)

        const events = yield* s.alice.api.auditEvents.listOrganizationAuditEvents({ params, query: { limit: 100 } })
        assert.strictEqual(events.items.filter((e) => e.action === "organization.agent-instructions-changed").length, 1)
      }))

    it.effect("a site's agent settings: GitBook's defaults, replaced whole by site admins, each field checked", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const params = s.siteParams
        const defaults = yield* s.members.read!.api.siteAgentSettings.getSiteAgentSettingsById({ params })
        assert.deepStrictEqual(defaults, {
          object: "site-agent-settings",
          urls: { location: `/orgs/${s.organizationId}/sites/${s.site.id}/agent-settings` },
          scans: { topics: "auto" },
          findings: { changeRequests: "auto-fixable" },
          editing: { customInstructions: { object: "document", data: {}, nodes: [] } }
        })
        const payload = { scans: { topics: "never" as const }, findings: { changeRequests: "always" as const }, editing: { customInstructions: paragraph("Use steppers for tutorials.") } }
        const refused = yield* Effect.flip(s.members.edit!.api.siteAgentSettings.updateSiteAgentSettingsById({ params, payload }))
        assert.strictEqual(errorCode(refused), 403)
        assert.strictEqual(errorCode(yield* Effect.flip(s.outsider.api.siteAgentSettings.getSiteAgentSettingsById({ params }))), 404)

        const saved = yield* s.alice.api.siteAgentSettings.updateSiteAgentSettingsById({ params, payload })
        assert.deepStrictEqual<unknown>({ scans: saved.scans, findings: saved.findings, editing: saved.editing }, payload)
        assert.strictEqual(saved.updatedBy, s.alice.user.id)
        assert.isString(saved.updatedAt)
        assert.deepStrictEqual(yield* s.members.read!.api.siteAgentSettings.getSiteAgentSettingsById({ params }), saved)

        const path = `/v1/orgs/${s.organizationId}/sites/${s.site.id}/agent-settings`
        const badEnum = yield* raw("PUT", path, { token: s.alice.token, body: JSON.stringify({ ...payload, scans: { topics: "sometimes" } }) })
        assert.strictEqual(badEnum.status, 400)
        assert.match(String(fieldOf(badEnum.body)), /^scans\.topics/)
        const badDocument = yield* raw("PUT", path, {
          token: s.alice.token,
          body: JSON.stringify({ ...payload, editing: { customInstructions: { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ text: 5 }] }] }] } } })
        })
        assert.strictEqual(badDocument.status, 400)
        assert.strictEqual(fieldOf(badDocument.body), "editing.customInstructions.nodes[0].nodes[0].leaves[0].text")
        const events = yield* s.alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId: s.organizationId }, query: { limit: 100 } })
        const changed = events.items.filter((e) => e.action === "site.agent-settings-changed")
        assert.deepStrictEqual(changed.map((e) => [e.target.id, e.payload?.["fields"]]), [[s.site.id, "scans,findings,editing"]])
      }))

    it.effect("a site's MCP servers: headers sealed and never read back, URLs the server may not reach refused, deletions answered as GitBook does", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const params = s.siteParams
        const api = s.alice.api.siteMcpServers
        const created = yield* api.createSiteMcpServer({
          params,
          payload: { name: "Tickets", url: "https://mcp.example.com/mcp", transport: "http", headers: { Authorization: "Bearer s3cret-token", "X-Team": "docs" } }
        })
        assert.strictEqual(created.object, "site-mcp-server")
        assert.deepStrictEqual(created.headers, { Authorization: "********", "X-Team": "********" })
        assert.strictEqual(created.transport, "http")
        assert.isUndefined(created.condition)
        assert.isTrue(created.urls.location.endsWith(`/v1/orgs/${s.organizationId}/sites/${s.site.id}/mcp-servers/${created.id}`))
        const second = yield* api.createSiteMcpServer({ params, payload: { name: "Status", url: "https://status.example.com/sse", headers: {}, condition: "visitor.claims.plan == \"pro\"" } })
        assert.strictEqual(second.transport, "sse")
        assert.strictEqual(second.condition, "visitor.claims.plan == \"pro\"")

        // Members who see the site read them; only site admins write; outsiders see nothing.
        const listed = yield* s.members.read!.api.siteMcpServers.listSiteMcpServers({ params, query: {} })
        assert.deepStrictEqual(listed.items.map((item) => item.id), [created.id, second.id])
        assert.notInclude(JSON.stringify(listed), "s3cret")
        assert.strictEqual(errorCode(yield* Effect.flip(s.members.edit!.api.siteMcpServers.createSiteMcpServer({ params, payload: { name: "x", url: "https://x.example.com/", headers: {} } }))), 403)
        assert.strictEqual(errorCode(yield* Effect.flip(s.outsider.api.siteMcpServers.listSiteMcpServers({ params, query: {} }))), 404)

        // Writing back what was read keeps the stored secrets; a new value replaces one; null drops the condition.
        const renamed = yield* api.updateSiteMcpServerById({ params: { ...params, siteMcpServerId: created.id }, payload: { name: "Support tickets", headers: { ...created.headers, "X-Team": "support" } } })
        assert.strictEqual(renamed.name, "Support tickets")
        assert.deepStrictEqual(renamed.headers, created.headers)
        const unconditioned = yield* api.updateSiteMcpServerById({ params: { ...params, siteMcpServerId: second.id }, payload: { condition: null } })
        assert.isUndefined(unconditioned.condition)
        const masked = yield* Effect.flip(api.updateSiteMcpServerById({ params: { ...params, siteMcpServerId: second.id }, payload: { headers: { Authorization: "********" } } }))
        assert.strictEqual(errorCode(masked), 400)

        const path = `/v1/orgs/${s.organizationId}/sites/${s.site.id}/mcp-servers`
        const post = (body: unknown) => raw("POST", path, { token: s.alice.token, body: JSON.stringify(body) })
        for (
          const [body, field] of [
            [{ name: "Metadata", url: "http://169.254.169.254/latest", headers: {} }, "url"],
            [{ name: "Internal", url: "http://10.1.2.3/mcp", headers: {} }, "url"],
            [{ name: "Files", url: "file:///etc/passwd", headers: {} }, "url"],
            [{ name: "", url: "https://a.example.com/", headers: {} }, "name"],
            [{ name: "Bad header", url: "https://a.example.com/", headers: { "Bad Header": "x" } }, "headers.Bad Header"],
            [{ name: "Long header", url: "https://a.example.com/", headers: { "X-Key": "k".repeat(513) } }, "headers"],
            [{ name: "Many headers", url: "https://a.example.com/", headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, "v"])) }, "headers"],
            [{ name: "Condition", url: "https://a.example.com/", headers: {}, condition: "visitor.claims.plan ==" }, "condition"]
          ] as const
        ) {
          const answer = yield* post(body)
          assert.strictEqual(answer.status, 400, JSON.stringify(body).slice(0, 80))
          assert.isTrue(String(fieldOf(answer.body)).startsWith(field), `${String(fieldOf(answer.body))} for ${JSON.stringify(body).slice(0, 80)}`)
        }

        // On PostgreSQL, the header values are not in the database in clear.
        const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
        if (Option.isSome(sql)) {
          const rows = yield* sql.value<{ readonly sealed_headers: string; readonly header_names: unknown }>`SELECT sealed_headers, header_names FROM sites_mcp_servers WHERE id = ${created.id}`.pipe(Effect.orDie)
          assert.strictEqual(rows.length, 1)
          assert.notInclude(JSON.stringify(rows), "s3cret")
          assert.notInclude(JSON.stringify(rows), "support")
        }
        const del = (id: string) => raw("DELETE", `${path}/${id}`, { token: s.alice.token })
        assert.strictEqual((yield* del(second.id)).status, 205)
        assert.strictEqual((yield* del(second.id)).status, 204)
        assert.strictEqual(errorCode(yield* Effect.flip(api.getSiteMcpServerById({ params: { ...params, siteMcpServerId: second.id } }))), 404)
        const events = yield* s.alice.api.auditEvents.listOrganizationAuditEvents({ params: { organizationId: s.organizationId }, query: { limit: 100 } })
        const actions = events.items.filter((e) => e.action.startsWith("site.mcp-server")).map((e) => e.action).toReversed()
        assert.deepStrictEqual(actions, ["site.mcp-server-added", "site.mcp-server-added", "site.mcp-server-changed", "site.mcp-server-changed", "site.mcp-server-removed"])
        assert.notInclude(JSON.stringify(events), "s3cret")
      }))

    it.effect("GitBook's client reads and writes the instructions, and adds and lists MCP servers", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: s.alice.token }) as unknown as GitBookAgentClient
        const result = yield* Effect.promise(async () => {
          const before = (await gitbook.orgs.getOrganizationAgentInstructions(s.organizationId)).data
          const after = (await gitbook.orgs.updateOrganizationAgentInstructions(s.organizationId, { instructions: paragraph("Prefer short sentences.") })).data
          const created = await gitbook.orgs.createSiteMcpServer(s.organizationId, s.site.id, { name: "Search", url: "https://search.example.com/mcp", headers: { "X-Api-Key": "k-123" } })
          const listed = (await gitbook.orgs.listSiteMcpServers(s.organizationId, s.site.id)).data
          return { before, after, created, listed }
        })
        assert.strictEqual(result.before.object, "agent-instructions")
        assert.deepStrictEqual(result.before.instructions.nodes, [])
        assert.deepStrictEqual(result.after.instructions.nodes, paragraph("Prefer short sentences.").nodes)
        assert.strictEqual(result.after.updatedBy, s.alice.user.id)
        assert.strictEqual(result.created.status, 201)
        assert.strictEqual(result.created.data.object, "site-mcp-server")
        assert.strictEqual(result.created.data.transport, "sse")
        assert.deepStrictEqual(result.listed.items.map((item) => [item.name, item.headers]), [["Search", { "X-Api-Key": "********" }]])
      }))
  })
}
