/**
 * A published site's insights end to end: its pages carry the first-party script and the feedback
 * box when the customization asks, the script's events are kept (no address or user agent, a
 * visitor hash per day), and GitBook's `aggregateSiteEvents`, `listSiteVisitorSegments`,
 * `trackEventsInSiteById` and `submitAgentFeedbackToSite` answer members only, in GitBook's shapes.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Sealed } from "@quire/kernel"
import { FastPages } from "../src/FastPages.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { backends, baseUrl, errorCode, inviteAndAccept, newUser, raw, withSettings } from "./Harness.ts"
import { get, publishedSite } from "./SiteFixtures.ts"

const send = (path: string, body: string, userAgent: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async () => {
      const response = await fetch(`${base}${path}~insights`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": userAgent, "accept-language": "fr-CA,fr;q=0.8", ...headers },
        body
      })
      // Every answer has a request id and a date of its own.
      const kept = [...response.headers].filter(([name]) => !["date", "connection", "keep-alive", "x-request-id"].includes(name))
      return { status: response.status, text: await response.text(), headers: Object.fromEntries(kept) }
    }))

const beacon = (path: string, events: ReadonlyArray<Record<string, unknown>>, userAgent: string, headers?: Record<string, string>) =>
  send(path, JSON.stringify({ events }), userAgent, headers)

/**
 * `attempt` (a beacon) again until FastPages answered it rather than the application: a kept
 * answer lasts `staleAfterMillis`, which a loaded machine may spend between two requests. Each
 * attempt answered by the application keeps the answer anew. Gives the fast answer and the attempts.
 */
const untilFast = <A, R>(attempt: Effect.Effect<A, never, R>, before: Effect.Effect<unknown, never, R> = Effect.void) =>
  Effect.gen(function*() {
    const fastPages = yield* FastPages
    for (let tries = 1; tries <= 50; tries++) {
      yield* before
      const count = fastPages.served()
      const answer = yield* attempt
      if (fastPages.served() > count) return { answer, tries }
    }
    return yield* Effect.die(new Error("no beacon was answered before the application"))
  })

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000 })(`a site's insights (${backend.name})`, (it) => {
    it.effect("records page views, searches, clicks and ratings from the site's script, and aggregates them for members", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", { insights: { trackingCookie: false }, feedback: { enabled: true } } as never)
        const page = yield* get(`${site.path}install`)
        assert.strictEqual(page.status, 200)
        assert.include(page.text, `data-insights="${site.path}~insights"`)
        assert.match(page.text, /<body[^>]*data-insights-views/)
        assert.include(page.text, "Was this page helpful?")
        assert.notInclude(page.headers.get("set-cookie") ?? "", "insights")
        const pageId = /data-page="([^"]+)"/.exec(page.text)?.[1]
        const spaceId = /data-space="([^"]+)"/.exec(page.text)?.[1]
        assert.isDefined(pageId)

        const url = `http://quire.test${site.path}install`
        const where = { url, page: pageId, space: spaceId }
        assert.strictEqual((yield* beacon(site.path, [{ type: "page_view", ...where }], "Browser A")).status, 204)
        assert.strictEqual((yield* beacon(site.path, [{ type: "page_view", ...where }], "Browser A")).status, 204)
        assert.strictEqual((yield* beacon(site.path, [{ type: "page_view", ...where }], "Browser B")).status, 204)
        yield* beacon(site.path, [{ type: "page_view", url: `http://quire.test${site.path}gone` }], "Browser B")
        yield* beacon(site.path, [
          { type: "search_type_query", ...where, query: "zqxjvw", resultsCount: 0 },
          { type: "search_type_query", ...where, query: "docker", resultsCount: 2 },
          { type: "link_click", ...where, link: { target: { kind: "url", url: "https://example.com/" }, position: "content" } },
          { type: "page_post_feedback", ...where, feedback: { rating: "bad" } },
          { type: "page_post_feedback_comment", ...where, feedback: { rating: "bad", comment: "The install steps skip the config file." } }
        ], "Browser A")
        // A bad event is a 400 naming it; nothing of the batch is kept.
        const bad = yield* beacon(site.path, [{ type: "page_view", url: "" }], "Browser A")
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(JSON.parse(bad.text).error.field, "events[0].url")

        const aggregate = (payload: unknown) => site.api.siteInsights.aggregateSiteEvents({ params: site.siteParams, payload: payload as never })
        const views = yield* aggregate({
          range: "last24Hours",
          where: [{ column: "eventType", values: ["page_view"] }],
          groupBy: [{ column: "urlPath" }],
          select: [{ column: "urlPath" }, { column: "page" }, { column: "eventsCount" }, { column: "visitorsCount" }],
          order: { by: { column: "eventsCount" }, direction: "desc" }
        })
        assert.deepStrictEqual(views.columns.map((c) => c.column), ["urlPath", "page", "eventsCount", "visitorsCount"])
        assert.deepStrictEqual(views.columns[0]!.values, [`${site.path}install`, `${site.path}gone`])
        assert.deepStrictEqual(views.columns[1]!.values, [{ page: pageId, space: spaceId }, null])
        assert.deepStrictEqual(views.columns[2]!.values, [3, 1])
        assert.deepStrictEqual(views.columns[3]!.values, [2, 1])

        // GitBook's order and limit, validated: a 400 names the field.
        const rejected = (payload: unknown) =>
          Effect.map(raw("POST", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/insights/events/aggregate`, { token: site.token, body: JSON.stringify(payload) }), (got) => ({
            status: got.status,
            field: (got.body as { error?: { field?: string } }).error?.field
          }))
        const grouped = { range: "last24Hours", groupBy: [{ column: "urlPath" }] }
        assert.deepStrictEqual(yield* rejected({ ...grouped, limit: 0 }), { status: 400, field: "limit" })
        assert.deepStrictEqual(yield* rejected({ ...grouped, limit: 1001 }), { status: 400, field: "limit" })
        assert.deepStrictEqual(yield* rejected({ ...grouped, limit: 2.5 }), { status: 400, field: "limit" })
        assert.deepStrictEqual(yield* rejected({ ...grouped, order: { by: { column: "eventsCount" }, direction: "up" } }), { status: 400, field: "order.direction" })
        assert.deepStrictEqual(yield* rejected({ ...grouped, order: { by: { column: "url" }, direction: "asc" } }), { status: 400, field: "order.by" })
        const top = yield* aggregate({ ...grouped, where: [{ column: "eventType", values: ["page_view"] }], order: { by: { column: "eventsCount" }, direction: "desc" }, limit: 1 })
        assert.deepStrictEqual(top.columns.map((column) => column.values), [[`${site.path}install`], [3]])

        const empty = yield* aggregate({
          range: "last7Days",
          where: [{ column: "eventType", values: ["search_type_query"] }, { column: "eventSearchResultsCount", values: [0] }],
          groupBy: [{ column: "eventSearchQuery" }],
          select: [{ column: "eventSearchQuery" }, { column: "eventsCount" }]
        })
        assert.deepStrictEqual(empty.columns[0]!.values, ["zqxjvw"])

        const ratings = yield* aggregate({ range: "last7Days", groupBy: [{ column: "page" }], select: [{ column: "page" }, { column: "pageFeedbackRating" }], where: [{ column: "eventType", values: ["page_post_feedback"] }] })
        assert.deepStrictEqual(ratings.columns[1]!.values, [{ ok: 0, good: 0, bad: 1 }])
        const comments = yield* aggregate({ range: "last7Days", where: [{ column: "eventType", values: ["page_post_feedback_comment"] }], groupBy: [{ column: "eventPageFeedbackComment" }], select: [{ column: "eventPageFeedbackComment" }, { column: "visitorLanguage" }] })
        assert.deepStrictEqual(comments.columns[0]!.values, ["The install steps skip the config file."])
        assert.deepStrictEqual(comments.columns[1]!.values, ["fr-CA"])
        const clicks = yield* aggregate({ range: "last7Days", where: [{ column: "eventType", values: ["link_click"] }], groupBy: [{ column: "eventLinkTargetDomain" }], select: [{ column: "eventLinkTargetDomain" }, { column: "eventsCount" }] })
        assert.deepStrictEqual(clicks.columns[0]!.values, ["example.com"])

        const segments = yield* site.api.siteInsights.listSiteVisitorSegments({ params: site.siteParams })
        assert.deepStrictEqual(segments.items.map((s) => [s.title, s.visitors]), [["All visitors", 2]])

        // 400 naming the field; an outsider learns nothing; a member with a role reads.
        const refused = yield* raw("POST", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/insights/events/aggregate`, {
          token: site.token,
          body: JSON.stringify({ range: "yesterday" })
        })
        assert.strictEqual(refused.status, 400)
        assert.include(JSON.stringify(refused.body), "range")
        const outsider = yield* newUser("Mallory")
        const hidden = yield* Effect.flip(outsider.api.siteInsights.aggregateSiteEvents({ params: site.siteParams, payload: { range: "last7Days" } }))
        assert.strictEqual(errorCode(hidden), 404)
        const reader = yield* newUser("Reader")
        yield* inviteAndAccept(site.api, site.organizationId, reader, "read")
        const read = yield* reader.api.siteInsights.aggregateSiteEvents({ params: site.siteParams, payload: { range: "last7Days", select: [{ column: "eventsCount" }] } })
        assert.deepStrictEqual(read.columns[0]!.values, [9])
      }))

    it.effect("a site without insights has no script; with feedback alone it takes ratings and no views; a share-link site only its readers'", () =>
      Effect.gen(function*() {
        const plain = yield* publishedSite("public")
        const page = yield* get(`${plain.path}install`)
        assert.notInclude(page.text, "data-insights")
        assert.strictEqual((yield* beacon(plain.path, [{ type: "page_view", url: "http://quire.test/x" }], "A")).status, 404)

        const feedbackOnly = yield* publishedSite("public", { feedback: { enabled: true } } as never)
        const withBox = yield* get(`${feedbackOnly.path}install`)
        assert.include(withBox.text, "Was this page helpful?")
        assert.notMatch(withBox.text, /<body[^>]*data-insights-views/)
        yield* beacon(feedbackOnly.path, [
          { type: "page_view", url: "http://quire.test/x" },
          { type: "page_post_feedback", url: "http://quire.test/x", feedback: { rating: "good" } }
        ], "A")
        const kept = yield* feedbackOnly.api.siteInsights.aggregateSiteEvents({
          params: feedbackOnly.siteParams,
          payload: { range: "last7Days", groupBy: [{ column: "eventType" }], select: [{ column: "eventType" }, { column: "eventsCount" }] }
        })
        assert.deepStrictEqual(kept.columns[0]!.values, ["page_post_feedback"])

        // A share-link site's beacons count only from readers it admits: without the link, nothing is kept.
        const shared = yield* publishedSite("share-link", { insights: { trackingCookie: false } } as never)
        assert.strictEqual((yield* beacon(shared.path, [{ type: "page_view", url: "http://quire.test/x" }], "A")).status, 204)
        const none = yield* shared.api.siteInsights.aggregateSiteEvents({ params: shared.siteParams, payload: { range: "last7Days", select: [{ column: "eventsCount" }] } })
        assert.deepStrictEqual(none.columns[0]!.values, [])
      }))

    it.effect("answers an open site's next beacons before the application, with the same answers, events and refusals", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("unlisted", { insights: { trackingCookie: false }, feedback: { enabled: true } } as never)
        const fastPages = yield* FastPages
        const view = (path: string) => [{ type: "page_view", url: `http://quire.test${site.path}${path}` }]
        // The first beacon goes through the application; the next are answered before it, alike.
        const normal = yield* beacon(site.path, view("first"), "Browser A")
        assert.strictEqual(normal.status, 204)
        const fast = yield* untilFast(beacon(site.path, view("fast"), "Browser A"))
        assert.strictEqual(fast.answer.status, 204)
        assert.deepStrictEqual(fast.answer.headers, normal.headers)

        // Refusals: the same status, message, field and headers as the application's.
        const badNormal = yield* beacon(site.path, [{ type: "page_view", url: "" }], "Browser A")
        const keep = beacon(site.path, view("fast"), "Browser A")
        const badFast = yield* untilFast(beacon(site.path, [{ type: "page_view", url: "" }], "Browser A"), keep)
        assert.strictEqual(badFast.answer.status, 400)
        assert.deepStrictEqual(badFast.answer, badNormal)
        const notJson = yield* untilFast(send(site.path, "{events", "Browser A"), keep)
        assert.strictEqual(notJson.answer.status, 400)
        assert.strictEqual(JSON.parse(notJson.answer.text).error.field, "events")
        const huge = yield* untilFast(send(site.path, JSON.stringify({ events: [], pad: "x".repeat(40_000) }), "Browser A"), keep)
        assert.strictEqual(huge.answer.status, 413)

        // A feedback event and a view in one post, from a second browser: both kept, with the language.
        const mixed = yield* untilFast(
          beacon(site.path, [...view("mixed"), { type: "page_post_feedback", url: `http://quire.test${site.path}mixed`, feedback: { rating: "good" } }], "Browser B"),
          keep
        )
        assert.strictEqual(mixed.answer.status, 204)
        // A bearer token, or a reader's own cookie, goes through the application: recorded all the same.
        const served = fastPages.served()
        yield* beacon(site.path, view("token"), "Browser A", { authorization: "Bearer nothing" })
        yield* beacon(site.path, view("token"), "Browser A", { cookie: `quire_session=nothing` })
        assert.strictEqual(fastPages.served(), served)

        const keeps = badFast.tries + notJson.tries + huge.tries + mixed.tries
        const aggregate = (payload: unknown) => site.api.siteInsights.aggregateSiteEvents({ params: site.siteParams, payload: payload as never })
        const byPath = yield* aggregate({
          range: "last24Hours",
          groupBy: [{ column: "urlPath" }, { column: "eventType" }],
          select: [{ column: "urlPath" }, { column: "eventType" }, { column: "eventsCount" }, { column: "visitorsCount" }]
        })
        const rows = byPath.columns[0]!.values.map((path, i) => [path, ...byPath.columns.slice(1).map((column) => column.values[i])])
          .sort((a, b) => `${a[0]} ${a[1]}`.localeCompare(`${b[0]} ${b[1]}`))
        assert.deepStrictEqual(rows, [
          [`${site.path}fast`, "page_view", fast.tries + keeps, 1],
          [`${site.path}first`, "page_view", 1, 1],
          [`${site.path}mixed`, "page_post_feedback", mixed.tries, 1],
          [`${site.path}mixed`, "page_view", mixed.tries, 1],
          [`${site.path}token`, "page_view", 2, 1]
        ])
        // The visitor hash is the application's: Browser A's fast and normal beacons are one visitor.
        const visitors = yield* aggregate({ range: "last24Hours", select: [{ column: "visitorsCount" }] })
        assert.deepStrictEqual(visitors.columns[0]!.values, [2])

        // Made share-link, the site's beacons are the application's again, which keeps nothing of an anonymous reader.
        yield* site.api.sites.updateSiteById({ params: site.siteParams, payload: { visibility: "share-link" } })
        const before = fastPages.served()
        assert.strictEqual((yield* beacon(site.path, view("after"), "Browser A")).status, 204)
        assert.strictEqual((yield* beacon(site.path, view("after"), "Browser A")).status, 204)
        assert.strictEqual(fastPages.served(), before)
        const after = yield* aggregate({ range: "last24Hours", where: [{ column: "urlPath", values: [`${site.path}after`] }], select: [{ column: "eventsCount" }] })
        assert.deepStrictEqual(after.columns[0]!.values, [])
      }))

    it.effect("keeps GitBook's tracked events and agents' feedback", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public")
        const session = { visitorId: "v-1", sessionId: "s-1", cookies: {}, userAgent: "renderer", language: "en", referrer: null }
        const location = { url: "https://docs.example.com/install", siteSection: null, siteSpace: null, siteShareKey: null, space: null, revision: null, page: null }
        yield* site.api.siteInsights.trackEventsInSiteById({
          params: site.siteParams,
          payload: { events: [{ type: "search_open", session, location }, { type: "search_type_query", session, location, query: "okapi" }] }
        })
        const feedback = yield* site.api.siteAgentFeedback.submitAgentFeedbackToSite({
          params: site.siteParams,
          payload: { subject: { kind: "documentation", url: "https://docs.example.com/install" }, feedback: { category: "documentation", summary: "No word on proxies." } }
        })
        assert.isString(feedback.id)
        const missing = yield* raw("POST", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/agents/feedback`, {
          token: site.token,
          body: JSON.stringify({ subject: { kind: "generic" }, feedback: { category: "documentation" } })
        })
        assert.strictEqual(missing.status, 400)
        assert.include(JSON.stringify(missing.body), "summary")
        const types = yield* site.api.siteInsights.aggregateSiteEvents({
          params: site.siteParams,
          payload: { range: "last24Hours", groupBy: [{ column: "eventType" }], select: [{ column: "eventType" }, { column: "visitorsCount" }] }
        })
        assert.deepStrictEqual(types.columns[0]!.values, ["agent_feedback", "search_open", "search_type_query"])
        // A share key an event names opens the site: insights keep which link it was (its stored hash), never the key.
        yield* site.api.siteInsights.trackEventsInSiteById({
          params: site.siteParams,
          payload: { events: [{ type: "page_view", session, location: { ...location, siteShareKey: "the-share-key-of-a-link" } }] }
        })
        const keys = yield* site.api.siteInsights.aggregateSiteEvents({
          params: site.siteParams,
          payload: { range: "last24Hours", groupBy: [{ column: "siteShareKey" }], select: [{ column: "siteShareKey" }, { column: "eventsCount" }] } as never
        })
        assert.notInclude(JSON.stringify(keys), "the-share-key-of-a-link")
        assert.include(keys.columns[0]!.values, Sealed.bearerHash("the-share-key-of-a-link"))
        // The site's editors read the agents' feedback (Quire's listSiteAgentFeedback); an outsider finds no site.
        const listed = yield* site.api.siteInsights.listSiteAgentFeedback({ params: site.siteParams })
        assert.deepStrictEqual(listed.items.map((item) => [item.id, item.subject, item.feedback.summary]), [
          [feedback.id, { kind: "documentation", url: "https://docs.example.com/install" }, "No word on proxies."]
        ])
        const outsider = yield* newUser("Outsider")
        assert.strictEqual(errorCode(yield* Effect.flip(outsider.api.siteInsights.listSiteAgentFeedback({ params: site.siteParams }))), 404)
      }))
  })

  // Budgets of 5 events and 2 feedbacks a visitor, a minute.
  const limited = { QUIRE_INSIGHTS_LIMIT: 5, QUIRE_INSIGHTS_SITE_LIMIT: 100, QUIRE_FEEDBACK_LIMIT: 2, QUIRE_FEEDBACK_SITE_LIMIT: 100 }
  layer(withSettings(backend.layer, limited), { timeout: 120_000 })(`a site's insights within their limits (${backend.name})`, (it) => {
    it.effect("a sender past its budget of events or of feedback is answered 429 and nothing more of it is kept", () =>
      Effect.gen(function*() {
        const site = yield* publishedSite("public", { insights: { trackingCookie: false }, feedback: { enabled: true } } as never)
        const url = `http://quire.test${site.path}install`
        const views = [{ type: "page_view", url }, { type: "page_view", url }]
        const statuses: Array<number> = []
        for (let i = 0; i < 4; i++) statuses.push((yield* beacon(site.path, views, "Browser A")).status)
        assert.deepStrictEqual(statuses, [204, 204, 429, 429])
        const rating = [{ type: "page_post_feedback", url, feedback: { rating: "good" } }]
        const ratings: Array<{ status: number; text: string; headers: Record<string, string> }> = []
        for (let i = 0; i < 3; i++) ratings.push(yield* beacon(site.path, rating, "Browser A"))
        assert.deepStrictEqual(ratings.map((answer) => answer.status), [204, 204, 429])
        assert.strictEqual(JSON.parse(ratings[2]!.text).error.code, 429)
        assert.include(JSON.parse(ratings[2]!.text).error.message, "Too many feedback")
        assert.isDefined(ratings[2]!.headers["retry-after"])

        const counts = yield* site.api.siteInsights.aggregateSiteEvents({
          params: site.siteParams,
          payload: { range: "last24Hours", groupBy: [{ column: "eventType" }], select: [{ column: "eventType" }, { column: "eventsCount" }] } as never
        })
        const byType = Object.fromEntries(counts.columns[0]!.values.map((type, i) => [String(type), counts.columns[1]!.values[i]]))
        assert.deepStrictEqual(byType, { page_view: 4, page_post_feedback: 2 })

        // Agents' feedback, through the API and the site's MCP server, spends the feedback budgets too.
        const submit = raw("POST", `/v1/orgs/${site.organizationId}/sites/${site.siteId}/agents/feedback`, {
          token: site.token,
          body: JSON.stringify({ subject: { kind: "generic" }, feedback: { category: "documentation", summary: "No word on proxies." } })
        })
        const submitted = [yield* submit, yield* submit, yield* submit]
        assert.deepStrictEqual(submitted.map((answer) => answer.status), [201, 201, 429])
        const other = yield* publishedSite("public")
        const base = yield* baseUrl
        const sent = yield* Effect.promise(async () => {
          const client = new Client({ name: "feedback-test", version: "1.0.0" })
          await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${other.path}~gitbook/mcp`)))
          try {
            const out: Array<{ isError?: boolean; content: Array<{ text: string }> }> = []
            for (let i = 0; i < 3; i++) {
              out.push(await client.callTool({ name: "sendFeedback", arguments: { category: "documentation", summary: "Docker needs a compose example." } }) as never)
            }
            return out
          } finally {
            await client.close()
          }
        })
        assert.deepStrictEqual(sent.map((answer) => answer.isError === true), [false, false, true])
        assert.include(sent[2]!.content[0]!.text, "Too many feedback")
      }))
  })
}
