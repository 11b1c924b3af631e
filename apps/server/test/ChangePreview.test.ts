/**
 * A change request's preview on a published site (`<site>/~/changes/<changeRequestId>/`): its
 * readers (a member's session, a preview share link, nobody else), its toolbar, that it follows the
 * change request's edits, and that a merged one has no preview.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, cookieOf } from "./AuthCalls.ts"
import { errorCode, errorMessage, inviteAndAccept, memoryAndPostgres, newUser } from "./Harness.ts"
import { cookiesOf, get, localPath, publishedSite } from "./SiteFixtures.ts"

/** A session cookie of a new person who joined `organizationId` with `role` through an invite link. */
const joined = Effect.fnUntraced(function*(api: Awaited<Effect.Success<ReturnType<typeof publishedSite>>>["api"], organizationId: string, name: string) {
  yield* api.organizations.updateOrganizationById({ params: { organizationId }, payload: { inviteLinks: true } })
  const invite = yield* api.organizations.createOrganizationInvite({ params: { organizationId }, payload: { role: "read" } })
  const email = `${name.toLowerCase()}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`
  const answer = yield* call("POST", `/auth/invites/${organizationId}.${invite.id}/accept`, {
    body: { displayName: name, email, password: "correct horse battery" }
  })
  assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  return cookieOf(answer)
})

/** The titles of a JSON search answer. */
const titles = (answer: { readonly text: string }) => (JSON.parse(answer.text) as { items: ReadonlyArray<{ title: string }> }).items.map((item) => item.title)

for (const backend of memoryAndPostgres) {
  layer(backend.layer, { timeout: 180_000, excludeTestServices: true })(`change request previews on ${backend.name}`, (it) => {
    it.effect("members and preview-link holders read the site with the change request merged; nobody else does", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const api = s.api
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: s.guides.id }, payload: { subject: "Add a preview page" } })
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId: s.guides.id, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", title: "Preview only", slug: "preview-only", document: { markdown: "Unreleased aardvarks." } }] }
        })
        const preview = yield* api.sitePreview.getSitePublishingPreviewById({ params: s.siteParams, query: { changeRequest: cr.id } })
        assert.isTrue(preview.url.endsWith(`${s.path}~/changes/${cr.id}/`), preview.url)
        const root = localPath(preview.url)

        const member = yield* joined(api, s.organizationId, "Reader")
        const page = yield* get(`${root}preview-only`, { cookie: member })
        assert.strictEqual(page.status, 200)
        assert.include(page.text, "Unreleased aardvarks.")
        assert.include(page.text, `Preview of change request #${cr.number}: Add a preview page`)
        assert.include(page.text, `1 page changed: <a href="${root}preview-only" style="color:#fff">Preview only</a>`)
        assert.include(page.text, `/s/${s.guides.id}/~/changes/${cr.number}`)
        assert.strictEqual(page.headers.get("cache-control"), "private, no-store")
        // The other pages and spaces are the published ones, under the preview's root.
        const other = yield* get(`${root}install`, { cookie: member })
        assert.strictEqual(other.status, 200)
        assert.include(other.text, "Install the <strong>tool</strong>")
        // The published site is unchanged.
        assert.strictEqual((yield* get(`${s.path}preview-only`)).status, 404)

        // Outsiders, anonymous or signed in elsewhere, see nothing.
        assert.strictEqual((yield* get(`${root}preview-only`)).status, 404)
        const stranger = yield* newUser("Stranger")
        const elsewhere = yield* stranger.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const outsider = yield* joined(stranger.api as never, elsewhere.id, "Outsider")
        assert.strictEqual((yield* get(`${root}preview-only`, { cookie: outsider })).status, 404)
        assert.strictEqual((yield* get(`${root}preview-only?share=guessed`)).status, 404)

        // The next edit shows on the next request.
        yield* api.changeRequestContent.updateChangeRequestContent({
          params: { spaceId: s.guides.id, changeRequestId: cr.id },
          payload: { changes: [{ operation: "insert_page", title: "Second thoughts", slug: "second", document: { markdown: "Edited aardvarks." } }] }
        })
        const second = yield* get(`${root}second`, { cookie: member })
        assert.strictEqual(second.status, 200)
        assert.include(second.text, "Edited aardvarks.")
        assert.include(second.text, `<a href="${root}second" style="color:#fff">Second thoughts</a>`)

        // The preview's search answers from the change request's content; the published site's from main.
        const found = yield* get(`${root}~search?q=aardvarks`, { cookie: member, accept: "application/json" })
        assert.strictEqual(found.status, 200)
        assert.sameMembers(titles(found), ["Preview only", "Second thoughts"])
        assert.deepStrictEqual(titles(yield* get(`${root}~search?q=edited%20aard`, { cookie: member, accept: "application/json" })), ["Second thoughts"])
        assert.include(titles(yield* get(`${root}~search?q=tool`, { cookie: member, accept: "application/json" })), "Install")
        assert.include((yield* get(`${root}~search?q=aardvarks`, { cookie: member })).text, "Second thoughts")
        assert.deepStrictEqual(titles(yield* get(`${s.path}~search?q=aardvarks`, { accept: "application/json" })), [])

        // A preview link opens it to anyone holding it, until it is revoked.
        const link = yield* api.sitePreview.createSitePreviewShareLink({ params: { ...s.siteParams, changeRequestId: cr.id } })
        const opened = yield* get(localPath(link.urls.published!))
        assert.strictEqual(opened.status, 302)
        assert.strictEqual(opened.headers.get("location"), root)
        const cookie = cookiesOf(opened)
        const shared = yield* get(`${root}preview-only`, { cookie })
        assert.strictEqual(shared.status, 200)
        assert.include(shared.text, "Preview of change request")
        // The link opens the preview only, not the site's other share-link gates.
        const listed = yield* api.sitePreview.listSitePreviewShareLinks({ params: { ...s.siteParams, changeRequestId: cr.id } })
        assert.deepStrictEqual(listed.items.map((l) => l.id), [link.id])
        yield* api.sitePreview.deleteSitePreviewShareLink({ params: { ...s.siteParams, changeRequestId: cr.id, shareLinkId: link.id } })
        assert.strictEqual((yield* get(`${root}preview-only`, { cookie })).status, 404)

        // Merged: the preview says so instead.
        yield* api.changeRequests.mergeChangeRequest({ params: { spaceId: s.guides.id, changeRequestId: cr.id } })
        const merged = yield* get(`${root}preview-only`, { cookie: member })
        assert.strictEqual(merged.status, 410)
        assert.include(merged.text, "This change request was merged")
      }))

    it.effect("the preview URL needs a change request of a space the site publishes, readable by the caller", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("public")
        const elsewhere = yield* s.api.spaces.createSpace({ params: { organizationId: s.organizationId }, payload: { title: "Unpublished" } })
        const cr = yield* s.api.changeRequests.createChangeRequest({ params: { spaceId: elsewhere.id }, payload: { subject: "Elsewhere" } })
        const refused = yield* s.api.sitePreview.getSitePublishingPreviewById({ params: s.siteParams, query: { changeRequest: cr.id } }).pipe(Effect.flip)
        assert.deepStrictEqual([errorCode(refused), errorMessage(refused)], [400, "changeRequest: the change request's space is not published on this site"])
        const unknown = yield* s.api.sitePreview.getSitePublishingPreviewById({ params: s.siteParams, query: { changeRequest: "nope" } }).pipe(Effect.flip)
        assert.strictEqual(errorCode(unknown), 404)
        const plain = yield* s.api.sitePreview.getSitePublishingPreviewById({ params: s.siteParams, query: {} })
        assert.isTrue(plain.url.endsWith(s.path), plain.url)
      }))

    it.effect("a preview link of a site not open to everyone needs its admin; an address that does not decode is a 404", () =>
      Effect.gen(function*() {
        const s = yield* publishedSite("share-link")
        const editor = yield* newUser("Editor")
        yield* inviteAndAccept(s.api, s.organizationId, editor, "edit")
        const cr = yield* editor.api.changeRequests.createChangeRequest({ params: { spaceId: s.guides.id }, payload: { subject: "Edits" } })
        const params = { ...s.siteParams, changeRequestId: cr.id }
        // The editor reads the preview with the API's URL, but may not hand the closed site to anyone.
        const preview = yield* editor.api.sitePreview.getSitePublishingPreviewById({ params: s.siteParams, query: { changeRequest: cr.id } })
        assert.isTrue(preview.url.includes(`/~/changes/${cr.id}/`))
        const refused = yield* editor.api.sitePreview.createSitePreviewShareLink({ params }).pipe(Effect.flip)
        assert.strictEqual(errorCode(refused), 403)
        const link = yield* s.api.sitePreview.createSitePreviewShareLink({ params })
        assert.include(link.urls.published ?? "", "share=")
        assert.strictEqual((yield* get(`${s.path}~/changes/%E0%A4%A/`)).status, 404)
        // A preview link opens the preview, not the share-link site itself.
        const secret = new URL(link.urls.published!).searchParams.get("share")!
        assert.notStrictEqual((yield* get(`${s.path}install?share=${encodeURIComponent(secret)}`)).status, 200)
      }))
  })
}
