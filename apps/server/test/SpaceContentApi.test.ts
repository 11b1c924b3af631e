/** The space content operations through the real router and the typed client, on every backend. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { templates } from "@quire/content"
import { LocalServer } from "@quire/testkit"
import { everyBackend, download, errorCode, errorMessage, newUser, publicUrl, raw, spaceWith } from "./Harness.ts"

/** A local website for the import tests: HTML pages by path. */
const localSite = (pages: Record<string, string>) =>
  LocalServer.serveRoutes(Object.fromEntries(Object.entries(pages).map(([path, body]) => [path, { body }])))


for (const backend of everyBackend) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`space content API on ${backend.name}`, (it) => {
    it.effect("applies a template, then reads the revision, the page tree and a page's markdown", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api.spaceContent
        const spaceId = space.id
        const empty = yield* api.getCurrentRevision({ params: { spaceId }, query: {} })
        assert.strictEqual(empty.id, space.revision)
        assert.deepStrictEqual([empty.pages, empty.files], [[], []])

        const applied = yield* raw("POST", `/v1/spaces/${spaceId}/content/template`, {
          token: alice.token,
          body: JSON.stringify({ id: "product-docs" })
        })
        assert.deepStrictEqual(applied, { status: 204, body: undefined })

        const revision = yield* api.getCurrentRevision({ params: { spaceId }, query: { metadata: false, computed: true } })
        assert.strictEqual(revision.object, "revision")
        assert.deepStrictEqual(revision.parents, [empty.id])
        assert.strictEqual(revision.type, "edits")
        assert.deepStrictEqual(revision.reusableContents, [])
        assert.deepStrictEqual(revision.variables, {})
        assert.strictEqual(revision.urls.app, `${publicUrl}/s/${spaceId}/~/revisions/${revision.id}`)
        assert.deepStrictEqual(revision.pages.map((p) => p.title), ["Overview", "Quickstart", "Guides", "FAQ", "Changelog"])
        const refreshed = yield* alice.api.spaces.getSpaceById({ params: { spaceId }, query: {} })
        assert.strictEqual(refreshed.revision, revision.id)

        const { pages } = yield* api.listPages({ params: { spaceId }, query: {} })
        const [overview, , guides] = pages
        assert.deepStrictEqual(
          [overview?.kind, overview?.type, overview?.slug, overview?.path, overview?.emoji, overview?.hidden],
          ["sheet", "document", "overview", "overview", "1f44b", false]
        )
        assert.strictEqual(overview?.urls?.app, `${publicUrl}/s/${spaceId}/overview`)
        assert.strictEqual(overview?.layout?.width, "default")
        assert.isUndefined(overview?.markdown)
        assert.isUndefined(overview?.document)
        assert.deepStrictEqual([guides?.kind, guides?.type], ["group", "group"])
        assert.deepStrictEqual(guides?.pages?.map((p) => p.path), ["guides/configuration", "guides/deployment"])

        const [banner] = revision.files
        const markdown = yield* api.getPageById({ params: { spaceId, pageId: overview!.id }, query: { format: "markdown" } })
        assert.strictEqual(markdown.title, "Overview")
        assert.strictEqual(markdown.description, "What the product does and where to start.")
        assert.isTrue(markdown.markdown?.startsWith(`![Product banner](/files/${banner?.id})`))
        assert.isUndefined(markdown.document)

        const document = yield* api.getPageById({ params: { spaceId, pageId: overview!.id }, query: { evaluated: false } })
        assert.isUndefined(document.markdown)
        assert.strictEqual(document.document?.object, "document")
        assert.deepStrictEqual(document.document?.nodes.map((node) => (node as { readonly type: string }).type).slice(0, 2), ["images", "paragraph"])

        // GitBook's other page parameters are accepted.
        const extra = yield* raw("GET", `/v1/spaces/${spaceId}/content/page/${overview!.id}?format=markdown&format.markdown.refs=stable&dereferenced=true`, {
          token: alice.token
        })
        assert.strictEqual(extra.status, 200)

        const nested = yield* api.getPageById({ params: { spaceId, pageId: guides!.pages![0]!.id }, query: { format: "markdown" } })
        assert.strictEqual(nested.path, "guides/configuration")
        assert.include(nested.markdown, "| `port` | `8080` |")

        const group = yield* api.getPageById({ params: { spaceId, pageId: guides!.id }, query: { format: "markdown" } })
        assert.isUndefined(group.markdown)
        assert.strictEqual(group.pages?.length, 2)

        const missing = yield* api.getPageById({ params: { spaceId, pageId: "nope" }, query: {} }).pipe(Effect.flip)
        assert.strictEqual(errorCode(missing), 404)
      }))

    it.effect("loses no write when template applications race: every 204 is a page of the final revision", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const statuses = yield* Effect.all(
          Array.from({ length: 6 }, () =>
            raw("POST", `/v1/spaces/${space.id}/content/template`, { token: alice.token, body: JSON.stringify({ id: "blank" }) })),
          { concurrency: "unbounded" }
        ).pipe(Effect.map((answers) => answers.map((a) => a.status)))
        assert.includeMembers([204, 409], statuses)
        const applied = statuses.filter((status) => status === 204).length
        assert.isAbove(applied, 0)
        const { pages } = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(pages.length, applied)
        assert.strictEqual(new Set(pages.map((p) => p.slug)).size, applied)
      }))

    // A file's bytes come from the data directory; what the handler answers is the subject: on
    // PostgreSQL only.
    if (backend.name === "postgres") {
      it.effect("serves a file's bytes at its downloadURL with its content type, and 404 for altered links", () =>
        Effect.gen(function*() {
          const { alice, space } = yield* spaceWith()
          const api = alice.api.spaceContent
          yield* api.applyTemplateToSpace({ params: { spaceId: space.id }, payload: { id: "product-docs" } })
          const listed = yield* api.listFiles({ params: { spaceId: space.id }, query: { limit: 10 } })
          assert.strictEqual(listed.count, 1)
          const [file] = listed.items
          assert.deepStrictEqual([file?.name, file?.contentType, file?.size, file?.dimensions], ["banner.png", "image/png", 131, { width: 96, height: 32 }])
          const fetched = yield* api.getFileById({ params: { spaceId: space.id, fileId: file!.id }, query: {} })
          assert.deepStrictEqual(fetched, file)

          const expected = Buffer.from(templates.get("product-docs")!.files[0]!.base64, "base64")
          const served = yield* download(file!.downloadURL)
          assert.strictEqual(served.status, 200, new TextDecoder().decode(served.bytes))
          assert.strictEqual(served.headers.get("content-type"), "image/png")
          assert.deepStrictEqual(Array.from(served.bytes), Array.from(expected))

          const token = file!.downloadURL.slice(`${publicUrl}/files/`.length)
          const [payload, signature] = token.split(".")
          const altered = `${payload}.${signature!.startsWith("A") ? "B" : "A"}${signature!.slice(1)}`
          const forged = yield* download(`${publicUrl}/files/${altered}`)
          assert.strictEqual(forged.status, 404)
          assert.match(errorMessage(JSON.parse(new TextDecoder().decode(forged.bytes))), /invalid or has expired/)
          assert.strictEqual((yield* download(`${publicUrl}/files/garbage`)).status, 404)

          const missing = yield* api.getFileById({ params: { spaceId: space.id, fileId: "nope" }, query: {} }).pipe(Effect.flip)
          assert.strictEqual(errorCode(missing), 404)
          // A link of a deleted space no longer serves its bytes.
          yield* alice.api.spaces.deleteSpaceById({ params: { spaceId: space.id } })
          assert.strictEqual((yield* download(file!.downloadURL)).status, 404)
        }))
    }

    it.effect("imports a 3-page website as pages with links between them", () =>
      Effect.gen(function*() {
        const site = yield* localSite({
          "/": `<title>Home</title><h1>Home</h1><p>Read <a href="/a.html">A</a> and <a href="/b.html">B</a>.</p>`,
          "/a.html": `<title>A</title><h1>Alpha</h1><p>Then <a href="/b.html">B</a>.</p>`,
          "/b.html": `<title>B</title><h1>Beta</h1><p>Back <a href="/">home</a>.</p>`
        })
        const { alice, space } = yield* spaceWith()
        const imported = yield* raw("POST", `/v1/spaces/${space.id}/content/import`, {
          token: alice.token,
          body: JSON.stringify({ url: `${site.origin}/`, source: "website" })
        })
        assert.strictEqual(imported.status, 201)
        const result = imported.body as { readonly revision: string; readonly importedResources: number; readonly totalResources: number }
        assert.deepStrictEqual([result.importedResources, result.totalResources], [3, 3])

        const api = alice.api.spaceContent
        const revision = yield* api.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(revision.id, result.revision)
        assert.deepStrictEqual(revision.pages.map((p) => [p.slug, p.title]), [["home", "Home"], ["a", "Alpha"], ["b", "Beta"]])
        const home = yield* api.getPageById({ params: { spaceId: space.id, pageId: revision.pages[0]!.id }, query: { format: "markdown" } })
        assert.include(home.markdown, "[A](a.md)")
        assert.include(home.markdown, "[B](b.md)")

        // Typed client: the same operation answers the same shape.
        const again = yield* api.importContent({ params: { spaceId: space.id }, payload: { url: `${site.origin}/a.html`, source: "website" } })
        assert.strictEqual(again.importedResources, 3)
        const after = yield* api.listPages({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(after.pages.map((p) => p.slug), ["home", "a", "b", "a-2", "b-2", "home-2"])

        // Into a change request: its pages gain the site's, main keeps its own.
        const draft = yield* alice.api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Import" } })
        const params = { spaceId: space.id, changeRequestId: draft.id }
        const intoDraft = yield* alice.api.changeRequestContent.importContentInChangeRequest({ params, payload: { url: `${site.origin}/b.html`, source: "website" } })
        assert.strictEqual(intoDraft.importedResources, 3)
        const draftPages = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        assert.strictEqual(draftPages.pages.length, 9)
        assert.strictEqual((yield* api.listPages({ params: { spaceId: space.id }, query: {} })).pages.length, 6)
      }).pipe(Effect.scoped))

    // Input checks and permissions are the handlers', the same whatever the database: on PostgreSQL
    // only (what writes and reads content above runs on both).
    if (backend.name === "postgres") {
      it.effect("answers 400 naming the field for bad input", () =>
        Effect.gen(function*() {
          const { alice, space } = yield* spaceWith()
          const post = (suffix: string, body: unknown) =>
            raw("POST", `/v1/spaces/${space.id}/content/${suffix}`, { token: alice.token, body: JSON.stringify(body) })

          const notUrl = yield* post("import", { url: "not a url", source: "website" })
          assert.strictEqual(notUrl.status, 400)
          assert.match(errorMessage(notUrl.body), /url/)
          const badSource = yield* post("import", { url: "https://example.com/", source: "git" })
          assert.strictEqual(badSource.status, 400)
          assert.match(errorMessage(badSource.body), /source/)
          const blocked = yield* post("import", { url: "http://10.1.2.3/", source: "website" })
          assert.strictEqual(blocked.status, 400)
          assert.match(errorMessage(blocked.body), /^url: .*not a public address/)

          const unknown = yield* post("template", { id: "nope" })
          assert.strictEqual(unknown.status, 400)
          assert.match(errorMessage(unknown.body), /^id: no template "nope"; the templates are blank, product-docs/)
          const noId = yield* post("template", {})
          assert.strictEqual(noId.status, 400)
          assert.match(errorMessage(noId.body), /id/)
          const changeRequest = yield* post("template", { id: "blank", changeRequestId: "cr1" })
          assert.strictEqual(changeRequest.status, 400)
          assert.match(errorMessage(changeRequest.body), /^changeRequestId:/)

          const badBoolean = yield* raw("GET", `/v1/spaces/${space.id}/content?metadata=yes`, { token: alice.token })
          assert.strictEqual(badBoolean.status, 400)
          assert.match(errorMessage(badBoolean.body), /metadata/)
          const badFormat = yield* raw("GET", `/v1/spaces/${space.id}/content/page/x?format=pdf`, { token: alice.token })
          assert.strictEqual(badFormat.status, 400)
          assert.match(errorMessage(badFormat.body), /format/)
          const badCursor = yield* raw("GET", `/v1/spaces/${space.id}/content/files?page=nope`, { token: alice.token })
          assert.strictEqual(badCursor.status, 400)
          assert.match(errorMessage(badCursor.body), /page/)
        }))

      it.effect("lets readers read but not write, hides the content from outsiders, and refuses writes to a locked space", () =>
        Effect.gen(function*() {
          const { alice, members, space } = yield* spaceWith(["read", "edit"])
          const reader = members.read!
          const editor = members.edit!
          const outsider = yield* newUser("Outsider")
          const spaceId = space.id

          yield* editor.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "runbook" } })
          const read = yield* reader.api.spaceContent.listPages({ params: { spaceId }, query: {} })
          assert.strictEqual(read.pages.length, 5)
          const denied = yield* reader.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "blank" } }).pipe(Effect.flip)
          assert.strictEqual(errorCode(denied), 403)
          const deniedImport = yield* reader.api.spaceContent.importContent({
            params: { spaceId },
            payload: { url: "http://127.0.0.1:1/", source: "website" }
          }).pipe(Effect.flip)
          assert.strictEqual(errorCode(deniedImport), 403)

          for (const attempt of [
            outsider.api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} }),
            outsider.api.spaceContent.listPages({ params: { spaceId }, query: {} }),
            outsider.api.spaceContent.listFiles({ params: { spaceId }, query: {} }),
            outsider.api.spaceContent.applyTemplateToSpace({ params: { spaceId }, payload: { id: "blank" } })
          ]) {
            assert.strictEqual(errorCode(yield* Effect.flip(attempt)), 404)
          }

          yield* alice.api.spaces.updateSpaceById({ params: { spaceId }, payload: { editMode: "locked" } })
          const locked = yield* raw("POST", `/v1/spaces/${spaceId}/content/template`, {
            token: alice.token,
            body: JSON.stringify({ id: "blank" })
          })
          assert.strictEqual(locked.status, 403)
          assert.match(errorMessage(locked.body), /is locked/)
          const unchanged = yield* alice.api.spaceContent.listPages({ params: { spaceId }, query: {} })
          assert.strictEqual(unchanged.pages.length, 5)
        }))
    }
  })
}
