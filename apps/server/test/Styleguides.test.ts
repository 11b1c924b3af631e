/**
 * Sites' style guides through the real router, the typed client and GitBook's own client: a guide
 * started from a template, runs on a site's spaces (each in a change request it opens) and on one
 * change request ("Check style"), whose findings are review comments naming the rule and a fix,
 * anchored on the page and block; roles and validation; and the model's part, with the test kit's
 * scripted model, beside the rules that run without one.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { lastOf, startModelServer } from "@quire/testkit/ModelServer"
import { backends, baseUrl, errorCode, newUser, raw, spaceWith, withSettings } from "./Harness.ts"
import { eventuallyEffect } from "./CollabSupport.ts"

const fieldOf = (body: unknown) => (body as { readonly error?: { readonly field?: unknown } } | undefined)?.error?.field

interface Run { readonly id: string; readonly object: string; readonly site: string; readonly styleguide: string; readonly spaces: ReadonlyArray<string>; readonly status: string; readonly findings: number; readonly createdBy: { readonly id: string } }
/** The part of GitBook's client this test uses (its typings cannot be followed under NodeNext; see GitBookClient.test.ts). */
interface GitBookStyleguides {
  readonly orgs: {
    listStyleguideTemplates(organizationId: string): Promise<{ data: { templates: ReadonlyArray<{ id: string; title: string; markdown: string }> } }>
    listOrganizationStyleguides(organizationId: string): Promise<{ data: { styleguides: ReadonlyArray<{ space: { id: string; type?: string }; sites: ReadonlyArray<{ id: string }> }> } }>
    createSiteStyleguideById(organizationId: string, siteId: string, body?: { template?: string }): Promise<{ status: number; data: { id: string; object: string; type?: string; title: string } }>
    createSiteStyleguideRun(organizationId: string, siteId: string, body: { spaces: ReadonlyArray<string> }): Promise<{ status: number; data: { run: Run; changeRequests: ReadonlyArray<{ id: string; object: string; status: string; subject: string }> } }>
    listSiteStyleguideRuns(organizationId: string, siteId: string): Promise<{ data: { items: ReadonlyArray<Run> } }>
  }
}

/** An organization (Alice its admin, an editor, a reader), a site over its space holding a page, and an outsider. */
const setup = Effect.fnUntraced(function*(markdown = "# Welcome\n\nSimply open the settings and login with your key.\n") {
  const s = yield* spaceWith(["edit", "read"])
  const api = s.alice.api
  const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: s.space.id }, payload: { subject: "Content" } })
  yield* api.changeRequestContent.updateChangeRequestContent({
    params: { spaceId: s.space.id, changeRequestId: cr.id },
    payload: { changes: [{ operation: "insert_page", title: "Welcome", document: { markdown } }] }
  })
  yield* api.changeRequests.mergeChangeRequest({ params: { spaceId: s.space.id, changeRequestId: cr.id } })
  const site = yield* api.sites.createSite({ params: { organizationId: s.organizationId }, payload: { title: "Docs", spaces: [s.space.id] } })
  const outsider = yield* newUser("Mallory")
  return { ...s, site, siteParams: { organizationId: s.organizationId, siteId: site.id }, outsider }
})

type Setup = Effect.Success<ReturnType<typeof setup>>

const settled = (s: Setup, runId: string) =>
  Effect.map(
    eventuallyEffect(s.alice.api.styleguides.listSiteStyleguideRuns({ params: s.siteParams, query: {} }), (page) => page.items.some((r) => r.id === runId && r.status !== "running")),
    (page) => page.items.find((r) => r.id === runId)!
  )

const commentsOf = (s: Setup, changeRequestId: string) =>
  s.alice.api.changeRequestComments.listCommentsInChangeRequest({ params: { spaceId: s.space.id, changeRequestId }, query: { limit: 100 } })

for (const backend of backends) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`style guides on ${backend.name}`, (it) => {
    it.effect("GitBook's client: templates, a guide from one (made once), the organization's guides, a run that comments in the change request it opens", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: s.alice.token }) as unknown as GitBookStyleguides
        const { templates, made, again, guides } = yield* Effect.promise(async () => {
          const templates = (await gitbook.orgs.listStyleguideTemplates(s.organizationId)).data.templates
          const made = await gitbook.orgs.createSiteStyleguideById(s.organizationId, s.site.id, { template: "plain-language" })
          const again = await gitbook.orgs.createSiteStyleguideById(s.organizationId, s.site.id)
          const guides = (await gitbook.orgs.listOrganizationStyleguides(s.organizationId)).data.styleguides
          return { templates, made, again, guides }
        })
        assert.includeMembers(templates.map((t) => t.id), ["plain-language", "warm-and-direct", "developer-docs"])
        assert.isTrue(templates.every((t) => t.markdown.includes("\n## ")))
        assert.strictEqual(made.status, 200)
        assert.strictEqual(made.data.object, "space")
        assert.strictEqual(made.data.type, "styleguide")
        assert.strictEqual(again.data.id, made.data.id, "the site keeps one guide")
        assert.deepStrictEqual(guides.map((g) => [g.space.id, g.space.type, g.sites.map((x) => x.id)]), [[made.data.id, "styleguide", [s.site.id]]])

        // The guide's rules are read from its space.
        const guide = yield* s.members.read!.api.styleguides.getSiteStyleguide({ params: s.siteParams })
        assert.strictEqual(guide.space.id, made.data.id)
        assert.strictEqual(guide.template, "plain-language")
        assert.includeMembers(guide.rules.map((r) => r.title), ["Short sentences", "No filler words", "Active voice"])
        assert.isFalse(guide.model)
        assert.include(guide.withoutModel ?? "", "QUIRE_AI_URL")

        const started = yield* Effect.promise(() => gitbook.orgs.createSiteStyleguideRun(s.organizationId, s.site.id, { spaces: [s.space.id] }))
        assert.strictEqual(started.status, 201)
        const { run, changeRequests } = started.data
        assert.deepStrictEqual([run.object, run.site, run.styleguide, run.spaces, run.createdBy.id], ["styleguide-run", s.site.id, made.data.id, [s.space.id], s.alice.user.id])
        assert.strictEqual(changeRequests.length, 1)
        assert.deepStrictEqual([changeRequests[0]!.object, changeRequests[0]!.status], ["change-request", "draft"])

        const done = yield* settled(s, run.id)
        assert.strictEqual(done.status, "done")
        assert.isAtLeast(done.findings, 1)
        const comments = yield* commentsOf(s, changeRequests[0]!.id)
        const filler = comments.items.find((c) => c.body.markdown?.includes("No filler words"))
        assert.isDefined(filler, JSON.stringify(comments.items.map((c) => c.body)))
        assert.include(filler!.body.markdown ?? "", "Suggested: Open the settings and login with your key.")
        assert.strictEqual(filler!.target.page?.title, "Welcome")
        assert.match(filler!.target.node?.id ?? "", /^qa1:0:[0-9a-z]+:0:6:Simply$/)

        // A second run takes over the check still open on the space rather than opening another.
        const second = yield* Effect.promise(() => gitbook.orgs.createSiteStyleguideRun(s.organizationId, s.site.id, { spaces: [s.space.id] }))
        assert.strictEqual(second.data.changeRequests[0]!.id, changeRequests[0]!.id)
        yield* settled(s, second.data.run.id)
        const listed = yield* Effect.promise(() => gitbook.orgs.listSiteStyleguideRuns(s.organizationId, s.site.id))
        assert.deepStrictEqual(listed.data.items.map((r) => r.id), [second.data.run.id, run.id])

        const findings = yield* s.alice.api.styleguides.listSiteStyleguideRunFindings({ params: { ...s.siteParams, runId: run.id }, query: {} })
        assert.strictEqual(findings.items.length, done.findings)
        const first = findings.items.find((f) => f.rule.title === "No filler words")!
        assert.deepStrictEqual([first.quote, first.fix, first.page.title, first.source, first.changeRequest], ["Simply", "Open the settings and login with your key.", "Welcome", "rule", changeRequests[0]!.id])
        assert.strictEqual(first.comment, filler!.id)
      }))

    it.effect("checks one change request's changed pages from its review, as whoever may comment on it", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        yield* s.alice.api.styleguides.createSiteStyleguideById({ params: s.siteParams, payload: { template: "warm-and-direct" } })
        const writer = s.members.edit!
        const cr = yield* writer.api.changeRequests.createChangeRequest({ params: { spaceId: s.space.id }, payload: { subject: "Sign-in page" } })
        yield* writer.api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId: s.space.id, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", title: "Account", document: { markdown: "# Account\n\nPlease click on Save, then log in again.\n" } }] }
        })
        const run = yield* writer.api.styleguides.checkChangeRequestStyle({ params: { spaceId: s.space.id, changeRequestId: cr.id }, payload: null })
        assert.deepStrictEqual([run.target, run.site, run.status, run.changeRequests], ["change-request", s.site.id, "running", [{ space: s.space.id, changeRequest: cr.id, opened: false }]])
        const done = yield* settled(s, run.id)
        assert.strictEqual(done.status, "done")
        const comments = yield* commentsOf(s, cr.id)
        const bodies = comments.items.map((c) => c.body.markdown ?? "")
        // Only the page the change request changes is checked ("Welcome" has filler words but is unchanged).
        assert.isTrue(comments.items.every((c) => c.target.page?.title === "Account"), JSON.stringify(bodies))
        assert.isTrue(bodies.some((b) => b.includes("Sign in, not log in") && b.includes("Suggested: Please click on Save, then sign in again.")), JSON.stringify(bodies))
        assert.isTrue(bodies.some((b) => b.includes("Select, not click") && b.includes("Suggested: Please select Save, then log in again.")), JSON.stringify(bodies))
        assert.isTrue(bodies.some((b) => b.includes("No please in instructions")), JSON.stringify(bodies))
        assert.isTrue(comments.items.every((c) => c.postedBy.id === writer.user.id), "posted as the person who ran the check")

        // A reader may not comment, so may not check; an outsider finds nothing.
        const path = `/v1/spaces/${s.space.id}/change-requests/${cr.id}/styleguide-check`
        const byReader = yield* raw("POST", path, { token: s.members.read!.token })
        assert.strictEqual(byReader.status, 403)
        assert.strictEqual((yield* raw("POST", path, { token: s.outsider.token })).status, 404)
      }))

    it.effect("refuses what GitBook refuses: roles, a template that is not one, spaces that are not the site's, a run without a guide", () =>
      Effect.gen(function*() {
        const s = yield* setup()
        const base = `/v1/orgs/${s.organizationId}/sites/${s.site.id}/styleguide`
        const noGuide = yield* raw("POST", `${base}/runs`, { token: s.alice.token, body: JSON.stringify({ spaces: [s.space.id] }) })
        assert.strictEqual(noGuide.status, 404)
        assert.strictEqual(errorCode(yield* Effect.flip(s.members.read!.api.styleguides.getSiteStyleguide({ params: s.siteParams }))), 404)
        const byReader = yield* raw("POST", base, { token: s.members.read!.token, body: JSON.stringify({}) })
        assert.strictEqual(byReader.status, 403)
        assert.strictEqual((yield* raw("GET", `/v1/orgs/${s.organizationId}/styleguide-templates`, { token: s.outsider.token })).status, 404)
        assert.strictEqual((yield* raw("POST", base, { token: s.outsider.token })).status, 404)
        const unknown = yield* raw("POST", base, { token: s.alice.token, body: JSON.stringify({ template: "shakespeare" }) })
        assert.strictEqual(unknown.status, 400)
        assert.strictEqual(fieldOf(unknown.body), "template")

        // No body: a blank guide.
        const blank = yield* raw("POST", base, { token: s.alice.token })
        assert.strictEqual(blank.status, 200, JSON.stringify(blank.body))
        const guideId = (blank.body as { id: string }).id
        for (const [body, field] of [
          [{ spaces: [] }, "spaces"],
          [{ spaces: ["a", "b", "c", "d"] }, "spaces"],
          [{ spaces: [guideId] }, "spaces[0]"]
        ] as const) {
          const refused = yield* raw("POST", `${base}/runs`, { token: s.alice.token, body: JSON.stringify(body) })
          assert.strictEqual(refused.status, 400, JSON.stringify(body))
          assert.match(String(fieldOf(refused.body)), new RegExp(`^${field.replace(/[[\]]/g, "\\$&")}`))
        }
        const other = yield* s.alice.api.spaces.createSpace({ params: { organizationId: s.organizationId }, payload: { title: "Elsewhere" } })
        const notOfSite = yield* raw("POST", `${base}/runs`, { token: s.alice.token, body: JSON.stringify({ spaces: [other.id] }) })
        assert.strictEqual(notOfSite.status, 400)
        assert.strictEqual(fieldOf(notOfSite.body), "spaces[0]")
        assert.strictEqual((yield* raw("POST", `${base}/runs`, { token: s.members.read!.token, body: JSON.stringify({ spaces: [s.space.id] }) })).status, 403)
      }))
  })
}

// The page's title is its own field: its markdown's first block is the paragraph, block 0.
// The model checks the rules that need one and proposes the rewrite; the rules that need none still run.
const model = await startModelServer((request) =>
  lastOf(request, "user").includes("[0] You may want")
    ? { text: JSON.stringify([{ block: 0, quote: "You may want to open the settings", rule: "address-the-reader", why: "Give the instruction as an imperative.", rewrite: "Open the settings." }, { block: 9, quote: "nowhere", rule: "address-the-reader" }]) }
    : { text: "[]" })

for (const backend of backends) {
  layer(withSettings(backend.layer, { QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" }), { timeout: 180_000, excludeTestServices: true })(`style guides with a model on ${backend.name}`, (it) => {
    it.effect("the model's findings name the rule and its rewrite; a quote the page does not hold is dropped", () =>
      Effect.gen(function*() {
        const s = yield* setup("# Welcome\n\nYou may want to open the settings. Simply do it.\n")
        yield* s.alice.api.styleguides.createSiteStyleguideById({ params: s.siteParams, payload: { template: "plain-language" } })
        const guide = yield* s.alice.api.styleguides.getSiteStyleguide({ params: s.siteParams })
        assert.isTrue(guide.model)
        assert.isUndefined(guide.withoutModel)
        const started = yield* s.alice.api.styleguides.createSiteStyleguideRun({ params: s.siteParams, payload: { spaces: [s.space.id] } })
        const done = yield* settled(s, started.run.id)
        assert.deepStrictEqual([done.status, done.model], ["done", true])
        const findings = yield* s.alice.api.styleguides.listSiteStyleguideRunFindings({ params: { ...s.siteParams, runId: done.id }, query: {} })
        assert.deepStrictEqual(findings.items.map((f) => [f.rule.id, f.quote, f.source, f.fix]), [
          ["address-the-reader", "You may want to open the settings", "model", "Open the settings."],
          ["no-filler-words", "Simply", "rule", "Do it."]
        ])
        const comments = yield* commentsOf(s, started.changeRequests[0]!.id)
        assert.isTrue(comments.items.some((c) => (c.body.markdown ?? "").includes("Address the reader") && (c.body.markdown ?? "").includes("Suggested: Open the settings.")))
      }))
  })
}
