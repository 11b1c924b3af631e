/**
 * A site's findings end to end, through GitBook's client: a reader's question the site's Ask could
 * not answer (no model here) and a help desk's ticket pushed with `upsertSiteContextRecords` are
 * records; a scan clusters them into a topic, finds that no page answers it and makes a
 * `content-gap` finding; the finding's trigger opens a change request whose page holds what was
 * asked. Connections pull a GitHub repository's issues from a local fake of its API and a website's
 * pages. Members read, editors write, others get 404; bad input is a 400 naming the field.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { GitBookAPI } from "@gitbook/api"
import { startForgeServer } from "@quire/testkit/ForgeServer"
import { lastOf, type ModelReply, type ModelRequest, startModelServer } from "@quire/testkit/ModelServer"
import type { ContextConnection, ContextRecord, SiteFinding, SiteFindingStats, SiteScan, SiteTopic } from "@quire/api"
import { backends, baseUrl, errorCode, inviteAndAccept, newUser, raw, withSettings } from "./Harness.ts"
import { get, publishedSite } from "./SiteFixtures.ts"

/** The test kit's fake of GitHub's API: `acme/docs` with one issue and one pull request, for the token `good-token` only; and two pages. */
const forge = await startForgeServer({
  token: "good-token",
  github: [{
    id: 1,
    fullName: "acme/docs",
    defaultBranch: "main",
    branches: ["main"],
    issues: [
      { number: 7, title: "Webhook signing secret rotation is undocumented", body: "How do we rotate it?", html_url: "https://github.com/acme/docs/issues/7", created_at: "2026-01-02T03:04:05Z", state: "open" },
      { number: 8, title: "A pull request", body: "", html_url: "https://github.com/acme/docs/pull/8", created_at: "2026-01-02T03:04:05Z", pull_request: { url: "x" } }
    ]
  }],
  pages: {
    "index.html": "<html><head><title>Status page</title></head><body><p>Billing exports run nightly.</p><a href=\"more.html\">More</a></body></html>",
    "more.html": "<html><head><title>More</title></head><body>Refund policy for invoices.</body></html>"
  }
})
const forgeUrl = forge.githubUrl

const systemOf = (request: ModelRequest) => request.messages.find((m) => m.role === "system")?.content ?? ""

/**
 * The model: a scan's judge finds the Docker page outdated (and answers nonsense about the install
 * page), its namer names webhook topics; the site's Ask finds the sources silent; the agent writes
 * the page it is given, then says so.
 */
const model = await startModelServer((request: ModelRequest): ModelReply => {
  if (systemOf(request).startsWith("You check a documentation page")) {
    const asked = lastOf(request, "user")
    if (asked.includes("Page: Docker")) {
      return { text: "```json\n" + JSON.stringify({ verdict: "outdated", quote: "Docker steps with giraffes.", record: 1, why: "Since 2.0 the Docker steps use zebras." }) + "\n```" }
    }
    return { text: asked.includes("Page: Install") ? "{\"verdict\": \"outdated\", \"quote\": 42" : "{\"verdict\": \"current\"}" }
  }
  if (systemOf(request).startsWith("You name a topic")) {
    return { text: lastOf(request, "user").toLowerCase().includes("webhook") ? "{\"name\": \"Webhook secret rotation\"}" : "I cannot name it." }
  }
  if (request.tools === undefined || request.tools.length === 0) return { text: "The sources do not say." }
  if (request.messages.some((m) => m.role === "tool")) return { text: "Drafted the page." }
  const pageId = /The page's id is ([A-Za-z0-9_-]+)/.exec(lastOf(request, "user"))?.[1] ?? "none"
  return { toolCalls: [{ name: "writePage", arguments: { pageId, markdown: "Open **Settings → Webhooks** and choose **Rotate secret**.\n" } }] }
})

const assistant = { ai: { mode: "assistant" } } as never

type Data<A> = Promise<{ data: A }>
type List<A> = Data<{ items: Array<A>; next?: { page: string } }>
/** The part of GitBook's client this test uses (its published typings do not resolve under NodeNext). */
interface GitBookFindings {
  readonly orgs: {
    upsertSiteContextRecords(org: string, site: string, body: Array<Record<string, unknown>>): Promise<{ status: number }>
    listSiteContextRecords(org: string, site: string, query?: Record<string, unknown>): List<ContextRecord>
    getSiteContextRecordById(org: string, site: string, id: string): Data<ContextRecord>
    listSiteScans(org: string, site: string, query?: Record<string, unknown>): List<SiteScan>
    getSiteScanById(org: string, site: string, id: string): Data<SiteScan>
    listSiteTopics(org: string, site: string, query?: Record<string, unknown>): Data<{ items: Array<SiteTopic> }>
    getSiteTopicById(org: string, site: string, id: string): Data<SiteTopic>
    updateSiteTopicById(org: string, site: string, id: string, body: Record<string, unknown>): Data<SiteTopic>
    deleteSiteTopicFindings(org: string, site: string, id: string): Promise<{ status: number }>
    listSiteFindings(org: string, site: string, query?: Record<string, unknown>): List<SiteFinding>
    getSiteFindingById(org: string, site: string, id: string): Data<SiteFinding>
    updateSiteFindingById(org: string, site: string, id: string, body: Record<string, unknown>): Data<SiteFinding>
    triggerChangeRequestsForSiteFinding(org: string, site: string, id: string): Promise<{ status: number }>
    listChangeRequestsForSiteFinding(org: string, site: string, id: string, query?: Record<string, unknown>): List<{ id: string; subject: string; status: string }>
    listPagesForSiteFinding(org: string, site: string, id: string, query?: Record<string, unknown>): List<{ object: string; spaceId: string; page: { title: string } }>
    listQuestionsForSiteFinding(org: string, site: string, id: string, query?: Record<string, unknown>): List<{ object: string; question: string }>
    listRecordsForSiteFinding(org: string, site: string, id: string, query?: Record<string, unknown>): List<ContextRecord>
    getSiteFindingStats(org: string, site: string, query?: Record<string, unknown>): Data<SiteFindingStats>
    listSiteContextConnections(org: string, site: string, query?: Record<string, unknown>): List<ContextConnection>
    createSiteContextConnection(org: string, site: string, body: Record<string, unknown>): Data<ContextConnection>
    getSiteContextConnectionById(org: string, site: string, id: string): Data<ContextConnection>
    updateSiteContextConnectionById(org: string, site: string, id: string, body: Record<string, unknown>): Data<ContextConnection>
    deleteSiteContextConnectionById(org: string, site: string, id: string): Promise<{ status: number }>
    syncSiteContextConnection(org: string, site: string, id: string): Promise<{ status: number }>
    testSiteContextConnection(org: string, site: string, id: string): Data<{ object: string; success: boolean; error?: string }>
  }
}

const call = <A>(f: () => Promise<A>) => Effect.promise(f)

/** Waits for the scan to end (the queue runs it in the background). */
const scanned = (gitbook: GitBookFindings, org: string, site: string, scanId: string) =>
  Effect.gen(function*() {
    for (let i = 0; i < 200; i++) {
      const scan = (yield* call(() => gitbook.orgs.getSiteScanById(org, site, scanId))).data
      if (scan.status === "done" || scan.status === "failed") return scan
      yield* Effect.sleep("50 millis")
    }
    return assert.fail("the scan did not end")
  })

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 120_000, excludeTestServices: true })(`a site's findings with a model (${backend.name})`, (it) => {
    it.effect("has the agent draft the page of a finding's change request from the readers' questions", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const org = site.organizationId
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: site.token }) as unknown as GitBookFindings
        const question = "How do I rotate the webhook signing secret?"
        assert.strictEqual((yield* get(`${site.path}~ask?q=${encodeURIComponent(question)}`, { accept: "application/json" })).status, 200)
        const scan = yield* site.api.siteContext.startSiteScan({ params: site.siteParams })
        yield* scanned(gitbook, org, site.siteId, scan.id)
        const finding = (yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId))).data.items[0]!
        // The model named the topic from its records.
        assert.strictEqual(finding.title, "Webhook secret rotation")
        assert.strictEqual((yield* call(() => gitbook.orgs.getSiteTopicById(org, site.siteId, finding.topic!))).data.label, "Webhook secret rotation")
        assert.strictEqual((yield* call(() => gitbook.orgs.triggerChangeRequestsForSiteFinding(org, site.siteId, finding.id))).status, 202)
        const cr = (yield* call(() => gitbook.orgs.listChangeRequestsForSiteFinding(org, site.siteId, finding.id))).data.items[0]!
        const content = (yield* raw("GET", `/v1/spaces/${site.guides.id}/change-requests/${cr.id}/content`, { token: site.token })).body as { pages: Array<{ id: string; title: string }> }
        const page = content.pages.find((p) => p.title === finding.title)!
        const markdown = (yield* raw("GET", `/v1/spaces/${site.guides.id}/change-requests/${cr.id}/content/page/${page.id}?format=markdown`, { token: site.token })).body as { markdown: string }
        assert.include(markdown.markdown, "Rotate secret")
        // The agent was told what readers asked.
        assert.isTrue(model.requests.some((r) => (r.tools?.length ?? 0) > 0 && lastOf(r, "user").includes(question)))
      }))

    it.effect("has the model judge the pages that answer the records: an outdated page is a finding citing it and the record; a malformed verdict is none", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const org = site.organizationId
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: site.token }) as unknown as GitBookFindings
        yield* call(() =>
          gitbook.orgs.upsertSiteContextRecords(org, site.siteId, [
            { id: "Z-1", type: "ticket", title: "Docker steps giraffes", body: "Since 2.0 the Docker setup uses zebras, the page still says giraffes.", url: "https://help.example.com/Z-1" },
            { id: "Z-2", type: "ticket", title: "Install the tool", body: "Installing works as the page says." }
          ]))
        const scan = yield* site.api.siteContext.startSiteScan({ params: site.siteParams })
        const ran = yield* scanned(gitbook, org, site.siteId, scan.id)
        assert.deepStrictEqual([ran.status, ran.withoutModel], ["done", undefined])
        const findings = (yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId))).data.items
        // The Docker page is outdated; the install page's malformed verdict made nothing, and the scan did not fail.
        assert.deepStrictEqual(findings.map((f) => [f.type, f.title, f.records, f.pages, f.autoFixable]), [["content-outdated", "Outdated: Docker", 1, 1, true]])
        const finding = findings[0]!
        const described = JSON.stringify(finding.description)
        assert.include(described, "Docker steps with giraffes.")
        assert.include(described, "Since 2.0 the Docker steps use zebras.")
        assert.include(described, "https://help.example.com/Z-1")
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listPagesForSiteFinding(org, site.siteId, finding.id))).data.items.map((p) => p.page.title), ["Docker"])
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listRecordsForSiteFinding(org, site.siteId, finding.id))).data.items.map((r) => r.title), ["Docker steps giraffes"])
        // The judge was sent the page's passages and the record, within bounds.
        const judged = model.requests.filter((r) => systemOf(r).startsWith("You check a documentation page") && lastOf(r, "user").includes("Page: Docker"))
        assert.strictEqual(judged.length, 1)
        assert.include(lastOf(judged[0]!, "user"), "Since 2.0 the Docker setup uses zebras")
        // Its calls are in the organization's AI log, under the scan.
        const logged = (yield* raw("GET", `/v1/orgs/${org}/ai/calls?conversation=${scan.id}`, { token: site.token })).body as { items: Array<{ purpose: string }> }
        assert.isAtLeast(logged.items.length, 2)
        assert.isTrue(logged.items.every((c) => c.purpose === "findings"))

        // A second scan asks nothing again about records it has judged, and keeps the finding.
        const before = model.requests.length
        const again = yield* site.api.siteContext.startSiteScan({ params: site.siteParams })
        yield* scanned(gitbook, org, site.siteId, again.id)
        assert.strictEqual(model.requests.slice(before).filter((r) => systemOf(r).startsWith("You check a documentation page")).length, 0)
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId))).data.items.map((f) => f.id), [finding.id])

        // Its trigger opens a change request on the Docker page itself, which the agent rewrites.
        assert.strictEqual((yield* call(() => gitbook.orgs.triggerChangeRequestsForSiteFinding(org, site.siteId, finding.id))).status, 202)
        const cr = (yield* call(() => gitbook.orgs.listChangeRequestsForSiteFinding(org, site.siteId, finding.id))).data.items[0]!
        assert.strictEqual(cr.subject, "Fix: Outdated: Docker")
        const content = (yield* raw("GET", `/v1/spaces/${site.guides.id}/change-requests/${cr.id}/content`, { token: site.token })).body as { pages: Array<{ id: string; title: string; pages?: Array<{ id: string; title: string }> }> }
        const pages = content.pages.flatMap((p) => [p, ...(p.pages ?? [])])
        const docker = pages.filter((p) => p.title === "Docker")
        assert.strictEqual(docker.length, 1)
        const rewritten = (yield* raw("GET", `/v1/spaces/${site.guides.id}/change-requests/${cr.id}/content/page/${docker[0]!.id}?format=markdown`, { token: site.token })).body as { markdown: string }
        assert.include(rewritten.markdown, "Rotate secret")
        assert.isTrue(model.requests.some((r) => (r.tools?.length ?? 0) > 0 && lastOf(r, "user").includes("Docker steps with giraffes.")))
      }))
  })

  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model", QUIRE_AI_TOKEN_BUDGET: 1 }), { timeout: 120_000, excludeTestServices: true })(`a site's findings past the AI budget (${backend.name})`, (it) => {
    it.effect("asks the model nothing past the organization's budget, and the scan still ends with what needs no model", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const org = site.organizationId
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: site.token }) as unknown as GitBookFindings
        yield* call(() =>
          gitbook.orgs.upsertSiteContextRecords(org, site.siteId, [
            { id: "B-1", type: "ticket", title: "Docker steps giraffes", body: "The page still says giraffes." },
            { id: "B-2", type: "ticket", title: "Okapi sandwich recipes", body: "Nothing about them." }
          ]))
        const before = model.requests.length
        const scan = yield* site.api.siteContext.startSiteScan({ params: site.siteParams })
        assert.strictEqual((yield* scanned(gitbook, org, site.siteId, scan.id)).status, "done")
        // At most the one call the budget let through before it was spent.
        assert.isAtMost(model.requests.length - before, 1)
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId))).data.items.map((f) => f.type), ["content-gap"])
      }))
  })

  layer(withSettings(backend.layer, { QUIRE_FETCH_ALLOW: "127.0.0.1", QUIRE_CONTEXT_SYNC_MINUTES: 1 }), { timeout: 150_000, excludeTestServices: true })(`a site's connections on a schedule (${backend.name})`, (it) => {
    it.effect("syncs a connection's records on its own, and records why a sync failed on the connection", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const org = site.organizationId
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: site.token }) as unknown as GitBookFindings
        const good = (yield* call(() =>
          gitbook.orgs.createSiteContextConnection(org, site.siteId, { connector: "builtin:github-issues", setupSettings: { repository: "acme/docs", token: "good-token", apiUrl: forgeUrl } }))).data
        const bad = (yield* call(() =>
          gitbook.orgs.createSiteContextConnection(org, site.siteId, { connector: "builtin:github-issues", setupSettings: { repository: "acme/docs", token: "bad", apiUrl: forgeUrl } }))).data
        // Nobody asks for a sync: the schedule (each minute) pulls both.
        const settled = (id: string) =>
          Effect.gen(function*() {
            for (let i = 0; i < 280; i++) {
              const c = (yield* call(() => gitbook.orgs.getSiteContextConnectionById(org, site.siteId, id))).data
              if (c.status === "succeeded" || c.status === "failed") return c
              yield* Effect.sleep("250 millis")
            }
            return assert.fail("the schedule did not sync the connection")
          })
        const synced = yield* settled(good.id)
        assert.deepStrictEqual([synced.status, synced.records, typeof synced.syncedAt], ["succeeded", 1, "string"])
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listSiteContextRecords(org, site.siteId, { connection: good.id }))).data.items.map((r) => r.title), ["Webhook signing secret rotation is undocumented"])
        const failed = yield* settled(bad.id)
        assert.deepStrictEqual([failed.status, failed.failureReason, failed.failureMessage?.includes("401")], ["failed", "authentication", true])
        assert.isUndefined((failed as { attemptedAt?: string }).attemptedAt)
      }))
  })

  layer(withSettings(backend.layer, { QUIRE_FETCH_ALLOW: "127.0.0.1", QUIRE_CONTEXT_SYNC_MINUTES: 0 }), { timeout: 120_000, excludeTestServices: true })(`a site's findings (${backend.name})`, (it) => {
    it.effect("makes an unanswered question and a ticket a finding, and its trigger opens a change request holding what was asked", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const org = site.organizationId
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: site.token }) as unknown as GitBookFindings

        // No model: the reader's question is recorded unanswered.
        const asked = yield* get(`${site.path}~ask?q=${encodeURIComponent("How do I rotate the webhook signing secret?")}`, { accept: "application/json" })
        assert.strictEqual(asked.status, 501)
        // A question the pages answer makes no finding.
        yield* get(`${site.path}~ask?q=${encodeURIComponent("Where are the giraffes?")}`, { accept: "application/json" })

        const pushed = yield* call(() =>
          gitbook.orgs.upsertSiteContextRecords(org, site.siteId, [
            { id: "T-1", type: "ticket", title: "Webhook signing secret rotation", body: "The customer cannot find how to rotate the signing secret.", url: "https://help.example.com/T-1", metadata: { priority: "high" } }
          ]))
        assert.strictEqual(pushed.status, 204)
        // Pushed again: replaced, not added.
        yield* call(() => gitbook.orgs.upsertSiteContextRecords(org, site.siteId, [{ id: "T-1", type: "ticket", title: "Webhook signing secret rotation", body: "Still asking." }]))
        const apiRecords = (yield* call(() => gitbook.orgs.listSiteContextRecords(org, site.siteId, { connection: "api" }))).data.items
        assert.deepStrictEqual(apiRecords.map((r) => [r.title, r.description, r.connector, r.type]), [["Webhook signing secret rotation", "Still asking.", "builtin:api", "ticket"]])
        assert.strictEqual((yield* call(() => gitbook.orgs.getSiteContextRecordById(org, site.siteId, apiRecords[0]!.id))).data.id, apiRecords[0]!.id)

        const started = yield* site.api.siteContext.startSiteScan({ params: site.siteParams })
        assert.strictEqual(started.status, "pending")
        const scan = yield* scanned(gitbook, org, site.siteId, started.id)
        assert.strictEqual(scan.status, "done")
        // Without a model the scan says what one would add.
        assert.include(scan.withoutModel ?? "", "QUIRE_AI_URL")
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listSiteScans(org, site.siteId))).data.items.map((s) => s.id), [started.id])

        // The question became a record of the site's insights, in one topic with the ticket.
        const records = (yield* call(() => gitbook.orgs.listSiteContextRecords(org, site.siteId))).data.items
        const question = records.find((r) => r.origin === "question" && r.title.includes("webhook"))!
        assert.strictEqual(question.connection, "site-insights")
        assert.isDefined(question.processedAt)
        const ticket = records.find((r) => r.origin === "api")!
        assert.strictEqual(question.topics.length, 1)
        assert.deepStrictEqual(ticket.topics, question.topics)

        const findings = (yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId))).data.items
        assert.strictEqual(findings.length, 1)
        const finding = findings[0]!
        assert.deepStrictEqual([finding.type, finding.status, finding.records, finding.questions, finding.topic, finding.autoFixable], ["content-gap", "open", 2, 1, question.topics[0], true])
        assert.strictEqual(finding.description.object, "document")
        assert.strictEqual(finding.urls.location, `http://quire.test/v1/orgs/${org}/sites/${site.siteId}/findings/${finding.id}`)
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listQuestionsForSiteFinding(org, site.siteId, finding.id))).data.items.map((q) => q.question), ["How do I rotate the webhook signing secret?"])
        assert.sameMembers((yield* call(() => gitbook.orgs.listRecordsForSiteFinding(org, site.siteId, finding.id))).data.items.map((r) => r.id), [question.id, ticket.id])
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listPagesForSiteFinding(org, site.siteId, finding.id))).data.items, [])

        const topics = (yield* call(() => gitbook.orgs.listSiteTopics(org, site.siteId))).data.items
        const topic = topics.find((t) => t.id === finding.topic)!
        assert.deepStrictEqual([topic.object, topic.records, topic.findings, topic.questions.total, topic.usageSettings.changeRequests], ["context-topic", 2, { open: 1, total: 1 }, 1, true])
        assert.strictEqual((yield* call(() => gitbook.orgs.getSiteTopicById(org, site.siteId, topic.id))).data.label, topic.label)

        // The trigger opens a change request in the site's space; without a model its page holds the questions.
        const triggered = yield* call(() => gitbook.orgs.triggerChangeRequestsForSiteFinding(org, site.siteId, finding.id))
        assert.strictEqual(triggered.status, 202)
        const opened = (yield* call(() => gitbook.orgs.listChangeRequestsForSiteFinding(org, site.siteId, finding.id))).data.items
        assert.strictEqual(opened.length, 1)
        assert.strictEqual(opened[0]!.subject, `Fix: ${finding.title}`)
        const content = (yield* raw("GET", `/v1/spaces/${site.guides.id}/change-requests/${opened[0]!.id}/content`, { token: site.token })).body as { pages: Array<{ id: string; title: string }> }
        const page = content.pages.find((p) => p.title === topic.label)!
        const markdown = (yield* raw("GET", `/v1/spaces/${site.guides.id}/change-requests/${opened[0]!.id}/content/page/${page.id}?format=markdown`, { token: site.token })).body as { markdown: string }
        assert.include(markdown.markdown, "How do I rotate the webhook signing secret?")
        assert.include(markdown.markdown, "QUIRE_AI_URL")
        assert.strictEqual((yield* call(() => gitbook.orgs.getSiteFindingById(org, site.siteId, finding.id))).data.changeRequests, 1)

        const stats = (yield* call(() => gitbook.orgs.getSiteFindingStats(org, site.siteId))).data
        assert.deepStrictEqual([stats.total, stats.statuses.open, stats.questions, stats.mergedChangeRequests, stats.connectors["builtin:api"]], [1, 1, 1, 0, 1])
        assert.strictEqual((yield* call(() => gitbook.orgs.getSiteFindingStats(org, site.siteId, { source: ["connection:nope"] }))).data.total, 0)
        assert.strictEqual((yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId, { hasChangeRequests: true }))).data.items.length, 1)

        // Done: a new scan does not make it again; the topic's findings can be deleted.
        assert.strictEqual((yield* call(() => gitbook.orgs.updateSiteFindingById(org, site.siteId, finding.id, { status: "done" }))).data.status, "done")
        const again = yield* site.api.siteContext.startSiteScan({ params: site.siteParams })
        yield* scanned(gitbook, org, site.siteId, again.id)
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId))).data.items.map((f) => f.id), [finding.id])
        assert.isFalse((yield* call(() => gitbook.orgs.updateSiteTopicById(org, site.siteId, topic.id, { usageSettings: { changeRequests: false } }))).data.usageSettings.changeRequests)
        assert.strictEqual((yield* call(() => gitbook.orgs.deleteSiteTopicFindings(org, site.siteId, topic.id))).status, 205)
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listSiteFindings(org, site.siteId))).data.items, [])
      }))

    it.effect("pulls a repository's issues through the forge's API and a website's pages, and says why a sync failed", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const org = site.organizationId
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: site.token }) as unknown as GitBookFindings
        const issues = (yield* call(() =>
          gitbook.orgs.createSiteContextConnection(org, site.siteId, { connector: "builtin:github-issues", setupSettings: { repository: "acme/docs", token: "good-token", apiUrl: forgeUrl } }))).data
        assert.deepStrictEqual([issues.object, issues.status, issues.records, issues.setupSettings], ["context-connection", "pending", 0, { repository: "acme/docs", token: "********", apiUrl: forgeUrl }])
        assert.notInclude(JSON.stringify(issues), "good-token")
        assert.isTrue((yield* call(() => gitbook.orgs.testSiteContextConnection(org, site.siteId, issues.id))).data.success)
        assert.strictEqual((yield* call(() => gitbook.orgs.syncSiteContextConnection(org, site.siteId, issues.id))).status, 204)
        const synced = (yield* call(() => gitbook.orgs.getSiteContextConnectionById(org, site.siteId, issues.id))).data
        assert.deepStrictEqual([synced.status, synced.records], ["succeeded", 1])
        const pulled = (yield* call(() => gitbook.orgs.listSiteContextRecords(org, site.siteId, { connector: "builtin:github-issues" }))).data.items
        assert.deepStrictEqual(pulled.map((r) => [r.title, r.urls.source, r.createdAt, r.type]), [["Webhook signing secret rotation is undocumented", "https://github.com/acme/docs/issues/7", "2026-01-02T03:04:05.000Z", "ticket"]])

        const website = (yield* call(() => gitbook.orgs.createSiteContextConnection(org, site.siteId, { connector: "builtin:website", setupSettings: { url: `${forgeUrl}/site/index.html` } }))).data
        yield* call(() => gitbook.orgs.syncSiteContextConnection(org, site.siteId, website.id))
        const pages = (yield* call(() => gitbook.orgs.listSiteContextRecords(org, site.siteId, { connection: website.id }))).data.items
        assert.sameMembers(pages.map((r) => r.title), ["Status page", "More"])
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.updateSiteContextConnectionById(org, site.siteId, website.id, { label: "Status" }))).data.label, "Status")
        assert.strictEqual((yield* call(() => gitbook.orgs.listSiteContextConnections(org, site.siteId))).data.items.length, 2)

        // A bad token: the test says so, the sync marks the connection failed for authentication.
        const bad = (yield* call(() =>
          gitbook.orgs.createSiteContextConnection(org, site.siteId, { connector: "builtin:github-issues", setupSettings: { repository: "acme/docs", token: "bad", apiUrl: forgeUrl } }))).data
        const tested = (yield* call(() => gitbook.orgs.testSiteContextConnection(org, site.siteId, bad.id))).data
        assert.deepStrictEqual([tested.success, tested.error?.includes("401")], [false, true])
        yield* call(() => gitbook.orgs.syncSiteContextConnection(org, site.siteId, bad.id))
        const failed = (yield* call(() => gitbook.orgs.getSiteContextConnectionById(org, site.siteId, bad.id))).data
        assert.deepStrictEqual([failed.status, failed.failureReason], ["failed", "authentication"])
        // The token is never read back.
        assert.notInclude(JSON.stringify(failed), "bad\"")

        assert.strictEqual((yield* call(() => gitbook.orgs.deleteSiteContextConnectionById(org, site.siteId, website.id))).status, 205)
        assert.deepStrictEqual((yield* call(() => gitbook.orgs.listSiteContextRecords(org, site.siteId, { connection: website.id }))).data.items, [])
      }))

    it.effect("lets members read, editors write, and nobody else; bad input is a 400 naming the field", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", assistant)
        const reader = yield* newUser("Reader")
        yield* inviteAndAccept(site.api, site.organizationId, reader, "read")
        const outsider = yield* newUser("Mallory")
        const params = site.siteParams
        assert.deepStrictEqual((yield* reader.api.siteContext.listSiteFindings({ params, query: {} })).items, [])
        const refused = yield* reader.api.siteContext.upsertSiteContextRecords({ params, payload: [{ id: "x", type: "ticket", title: "t", body: "b" }] }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 403)
        assert.strictEqual(errorCode(yield* reader.api.siteContext.startSiteScan({ params }).pipe(Effect.flip)), 403)
        assert.strictEqual(errorCode(yield* outsider.api.siteContext.listSiteContextRecords({ params, query: {} }).pipe(Effect.flip)), 404)
        assert.strictEqual(errorCode(yield* site.api.siteContext.getSiteFindingById({ params: { ...params, siteFindingId: "nope" } }).pipe(Effect.flip)), 404)

        const path = `/v1/orgs/${site.organizationId}/sites/${site.siteId}`
        for (const [method, query, body, field] of [
          ["PUT", "context-records", JSON.stringify([{ id: "a", type: "email", title: "t", body: "b" }]), "type"],
          ["PUT", "context-records", JSON.stringify([{ id: "a", type: "ticket", title: "", body: "b" }]), "title"],
          ["PUT", "context-records", JSON.stringify([{ id: "a", type: "ticket", title: "t", body: "b" }, { id: "a", type: "ticket", title: "t", body: "b" }]), "id"],
          ["GET", "findings?severity=huge", undefined, "severity"],
          ["GET", "findings?source=everything", undefined, "source"],
          ["GET", "findings?updatedAfter=yesterday", undefined, "updatedAfter"],
          ["GET", "scans?status=sleeping", undefined, "status"],
          ["POST", "context-connections", JSON.stringify({ connector: "builtin:github-issues", setupSettings: { repository: "not a repo", token: "t" } }), "repository"]
        ] as const) {
          const got = yield* raw(method, `${path}/${query}`, { token: site.token, ...(body === undefined ? {} : { body }) })
          assert.strictEqual(got.status, 400, query)
          const error = (got.body as { error: { message: string; field?: string } }).error
          assert.include(`${error.field ?? ""} ${error.message}`, field, query)
        }
      }))
  })
}
