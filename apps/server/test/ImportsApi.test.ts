/**
 * GitBook's imports API end to end: files uploaded, runs queued and run by the server's queue,
 * each source's pages, images (as space files), hints and links (as page links) read back through
 * the API; archive bounds refused with a 400 naming the file; a failed or cancelled run leaves the
 * space as it was.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { unzipSync, zipSync } from "fflate"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { filesOfFolder } from "@quire/testkit"
import { backends, baseUrl, type Client, download, errorCode, errorMessage, newUser, spaceWith, withSettings } from "./Harness.ts"

const fixtures = join(import.meta.dirname, "../../../packages/content/test/importing/fixtures")

/** The files of a fixture folder, under `prefix` (as an export tool zips its folder). */
const filesOf = (dir: string, prefix = ""): Record<string, Uint8Array> => filesOfFolder(join(fixtures, dir), prefix)

const zipOf = (dir: string, prefix = "") => zipSync(filesOf(dir, prefix))

/** Uploads `bytes` for an import; answers the raw status and body. */
const upload = Effect.fnUntraced(function*(token: string, organizationId: string, name: string, bytes: Uint8Array) {
  const base = yield* baseUrl
  const response = yield* Effect.promise(() =>
    fetch(`${base}/v1/org/${organizationId}/imports/files?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: Buffer.from(bytes)
    })
  )
  return { status: response.status, body: (yield* Effect.promise(() => response.json())) as Record<string, unknown> }
})

const uploadKey = Effect.fnUntraced(function*(token: string, organizationId: string, name: string, bytes: Uint8Array) {
  const answer = yield* upload(token, organizationId, name, bytes)
  assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
  return answer.body["key"] as string
})

/** The run once it stopped, polled through the API (generous: the machine may be loaded). */
const settled = Effect.fnUntraced(function*(api: Client, organizationId: string, importRunId: string) {
  for (let i = 0; i < 600; i++) {
    const run = yield* api.imports.getImportRun({ params: { organizationId, importRunId } })
    if (run.status !== "pending" && run.status !== "in-progress") return run
    yield* Effect.sleep("100 millis")
  }
  return assert.fail(`import run ${importRunId} did not finish`)
})

interface Page {
  readonly id: string
  readonly title: string
  readonly kind: string
  readonly pages: ReadonlyArray<Page>
}

const flatten = (pages: ReadonlyArray<Page>): Array<Page> => pages.flatMap((p) => [p, ...flatten(p.pages)])

const markdownOf = (api: Client, spaceId: string, pageId: string) =>
  Effect.map(api.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "markdown" } }), (p) => (p as { markdown?: string }).markdown ?? "")

/** Imports `bytes` named `name` into a new space; answers the run, the pages (flattened), their markdown by title, and the files. */
const importInto = Effect.fnUntraced(function*(name: string, bytes: Uint8Array, format?: "markdown" | "confluence" | "notion" | "docx") {
  const { alice, organizationId, space } = yield* spaceWith()
  const key = yield* uploadKey(alice.token, organizationId, name, bytes)
  const started = yield* alice.api.imports.startImportRun({
    params: { organizationId },
    payload: { source: { type: "file", files: [key], ...(format === undefined ? {} : { format }) }, target: { space: space.id } }
  })
  assert.strictEqual(started.object, "import-run")
  assert.strictEqual(started.status, "pending")
  const run = yield* settled(alice.api, organizationId, started.id)
  assert.strictEqual(run.status, "completed", run.reason)
  const tree = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
  const pages = flatten(tree.pages as unknown as ReadonlyArray<Page>)
  const markdown = new Map<string, string>()
  for (const page of pages) if (page.kind === "sheet" || page.kind === "document" || (page as { type?: string }).type === "document") markdown.set(page.title, yield* markdownOf(alice.api, space.id, page.id))
  const files = yield* alice.api.spaceContent.listFiles({ params: { spaceId: space.id }, query: {} })
  return { alice, organizationId, space, run, tree: tree.pages as unknown as ReadonlyArray<Page>, pages, markdown, files: files.items }
})

const byTitle = (pages: ReadonlyArray<Page>, title: string) => pages.find((p) => p.title === title) ?? assert.fail(`no page ${title} in ${pages.map((p) => p.title).join(", ")}`)

const settings = { QUIRE_IMPORT_MAX_FILES: 40, QUIRE_IMPORT_MAX_EXPANDED_BYTES: 2_000_000, QUIRE_IMPORT_MAX_ARCHIVE_BYTES: 1_000_000, QUIRE_IMPORT_MAX_RATIO: 50 }

for (const backend of backends) {
  layer(withSettings(backend.layer, settings), { timeout: 240_000, excludeTestServices: true })(`imports on ${backend.name}`, (it) => {
    it.effect("a zip of an MkDocs site: its nav, admonitions as hints, images as files, links as page links", () =>
      Effect.gen(function*() {
        const { pages, markdown, files, run, tree } = yield* importInto("handbook.zip", zipOf("mkdocs", "acme-handbook/"))
        assert.deepStrictEqual(tree.map((p) => p.title), ["Home", "User guide", "About"])
        assert.deepStrictEqual(byTitle(tree, "User guide").pages.map((p) => p.title), ["Installation", "Usage"])
        assert.strictEqual(run.pages.length, 5)
        assert.strictEqual(run.progress.files, 1)
        assert.deepStrictEqual(files.map((f) => f.name), ["architecture.png"])
        const install = byTitle(pages, "Installation")
        assert.include(markdown.get("Home")!, `](/pages/${install.id})`)
        assert.include(markdown.get("Home")!, `![Architecture](/files/${files[0]!.id})`)
        assert.include(markdown.get("Installation")!, "{% hint style=\"info\" %}\n**Before you start**\n\nYou need Python 3.10 or later.\n{% endhint %}")
        assert.include(markdown.get("Usage")!, "| `acme run` | Runs the tool |")
      }))

    it.effect("a markdown file written for GitHub: its alerts are hints, as when the API writes it", () =>
      Effect.gen(function*() {
        const text = "# Deploying\n\n> [!WARNING]\n> Deploys stop the queue for a minute.\n\n> [!TIP]\n> Deploy after six.\n\n> A plain quote stays one.\n"
        const { markdown } = yield* importInto("deploying.md", new TextEncoder().encode(text))
        const page = markdown.get("Deploying")!
        assert.include(page, "{% hint style=\"warning\" %}\nDeploys stop the queue for a minute.\n{% endhint %}")
        assert.include(page, "{% hint style=\"success\" %}\nDeploy after six.\n{% endhint %}")
        assert.include(page, "> A plain quote stays one.")
        assert.notInclude(page, "[!WARNING]")
      }))

    it.effect("Docusaurus and Docsify folders keep their order, categories and sidebars", () =>
      Effect.gen(function*() {
        const docusaurus = yield* importInto("widgets.zip", zipOf("docusaurus"))
        assert.deepStrictEqual(docusaurus.tree.map((p) => p.title), ["Tutorial Intro", "Tutorial - Basics"])
        assert.deepStrictEqual(byTitle(docusaurus.tree, "Tutorial - Basics").pages.map((p) => p.title), ["Create a Page", "Deploy"])
        assert.include(docusaurus.markdown.get("Create a Page")!, "{% hint style=\"danger\" %}\n**Take care**")
        assert.deepStrictEqual(docusaurus.files.map((f) => f.name), ["flow.png"])
        const docsify = yield* importInto("gizmo.zip", zipOf("docsify"))
        assert.deepStrictEqual(docsify.tree.map((p) => p.title), ["Home", "Guide"])
        assert.deepStrictEqual(byTitle(docsify.tree, "Guide").pages.map((p) => p.title), ["Quick start", "Configuration"])
        assert.include(docsify.markdown.get("Quick start")!, `[configuration](/pages/${byTitle(docsify.pages, "Configuration").id})`)
        assert.deepStrictEqual(docsify.files.map((f) => f.name), ["logo.png"])
      }))

    it.effect("a Confluence space export: its page tree, panels as hints, code, tables, attachments and links", () =>
      Effect.gen(function*() {
        const { pages, markdown, files, tree, alice, space } = yield* importInto("Confluence-space-export-ENG.html.zip", zipOf("confluence"))
        // Release Process is not in the index: its breadcrumbs place it under the home page.
        assert.deepStrictEqual(tree.map((p) => p.title), ["Engineering Home"])
        assert.deepStrictEqual(byTitle(tree, "Engineering Home").pages.map((p) => p.title), ["Onboarding", "Release Process"])
        assert.deepStrictEqual(byTitle(pages, "Onboarding").pages.map((p) => p.title), ["Coding Guidelines"])
        assert.strictEqual(pages.length, 4)
        assert.deepStrictEqual(files.map((f) => f.name).sort(), ["lint-flow.png", "team-map.png"])
        const onboarding = markdown.get("Onboarding")!
        assert.include(onboarding, `[coding guidelines](/pages/${byTitle(pages, "Coding Guidelines").id})`)
        assert.include(onboarding, "{% hint style=\"warning\" %}\n**Accounts**")
        assert.include(onboarding, "{% hint style=\"success\" %}\nAsk your buddy anything.\n{% endhint %}")
        assert.include(onboarding, "| Day | Task |\n| --- | --- |")
        assert.include(onboarding, `/files/${files.find((f) => f.name === "team-map.png")!.id}`)
        const guidelines = markdown.get("Coding Guidelines")!
        assert.include(guidelines, "```java\npublic class Hello {")
        assert.include(guidelines, "System.out.println(\"Hello <world>\");")
        assert.include(guidelines, "{% hint style=\"danger\" %}\nNever commit secrets.\n{% endhint %}")
        assert.include(markdown.get("Engineering Home")!, "{% hint style=\"info\" %}\nThis space is maintained by the platform team.\n{% endhint %}")
        assert.notInclude(onboarding, "Document generated by Confluence")
        // Exported as GitBook's layout, the pages keep their blocks; page links and images become relative paths.
        const archive = yield* download((yield* alice.api.spacePdf.getSpaceMarkdownArchive({ params: { spaceId: space.id } })).url)
        const exported = unzipSync(archive.bytes)
        const text = (path: string) => new TextDecoder().decode(exported[path] ?? assert.fail(`no ${path} in ${Object.keys(exported).join(", ")}`))
        const onboardingFile = Object.keys(exported).find((path) => /onboarding(\/README)?\.md$/.test(path))!
        const written = text(onboardingFile)
        assert.include(written, "{% hint style=\"warning\" %}\n**Accounts**")
        assert.match(written, /\[coding guidelines\]\((\.\/)?coding-guidelines\.md\)/)
        assert.match(written, /\.gitbook\/assets\/team-map\.png/)
        assert.include(text("SUMMARY.md"), "Coding Guidelines")
      }))

    it.effect("a website is a source of the same API: its pages fetched and linked", () =>
      Effect.gen(function*() {
        const site = http.createServer((request, response) => {
          const pages: Record<string, string> = {
            "/": "<html><head><title>Gadget</title></head><body><main><h1>Gadget</h1><p>Read the <a href=\"/setup.html\">setup</a>.</p><p><img src=\"/img/gadget.png\" alt=\"Gadget\"></p></main></body></html>",
            "/setup.html": "<html><head><title>Setup</title></head><body><main><h1>Setup</h1><p>Plug it in.</p></main></body></html>"
          }
          if (request.url === "/img/gadget.png") {
            response.writeHead(200, { "content-type": "image/png" }).end(readFileSync(join(fixtures, "mkdocs/docs/img/architecture.png")))
            return
          }
          const body = pages[request.url ?? ""]
          response.writeHead(body === undefined ? 404 : 200, { "content-type": "text/html; charset=utf-8" })
          response.end(body ?? "missing")
        })
        yield* Effect.promise(() => new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve)))
        yield* Effect.addFinalizer(() => Effect.sync(() => site.close()))
        const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
        const { alice, organizationId, space } = yield* spaceWith()
        const started = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "website", url: `${origin}/` }, target: { space: space.id } } })
        const run = yield* settled(alice.api, organizationId, started.id)
        assert.strictEqual(run.status, "completed", run.reason)
        assert.strictEqual(run.pages.length, 2)
        const tree = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(tree.pages.map((p) => p.title), ["Gadget", "Setup"])
        // The site's own image is stored as a file of the space, and the page shows that file.
        assert.strictEqual(run.progress.files, 1)
        const files = yield* alice.api.spaceContent.listFiles({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(files.items.map((f) => f.name), ["gadget.png"])
        assert.include(yield* markdownOf(alice.api, space.id, tree.pages[0]!.id), `](/files/${files.items[0]!.id})`)
        // Under a page: the site's pages nest there.
        const under = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "website", url: `${origin}/` }, target: { space: space.id, page: tree.pages[0]!.id } } })
        assert.strictEqual((yield* settled(alice.api, organizationId, under.id)).pages.length, 2)
        const nested = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(nested.pages.map((p) => p.title), ["Gadget", "Setup"])
        assert.deepStrictEqual((nested.pages[0] as unknown as Page).pages.map((p) => p.title), ["Gadget", "Setup"])
        const bad = yield* Effect.flip(alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "website", url: "ftp://example.com/" }, target: { space: space.id } } }))
        assert.strictEqual(errorCode(bad), 400)
        assert.include(errorMessage(bad), "source.url")
      }))

    it.effect("a Notion export: nested pages without ids, callouts as hints, images, a database as a table", () =>
      Effect.gen(function*() {
        const { pages, markdown, files, tree } = yield* importInto("Export-2f1e8b0c.zip", zipOf("notion", "Export-2f1e8b0c/"))
        assert.deepStrictEqual(tree.map((p) => p.title), ["Product Wiki"])
        assert.deepStrictEqual(byTitle(tree, "Product Wiki").pages.map((p) => p.title), ["Getting Started", "Roadmap"])
        assert.deepStrictEqual(byTitle(pages, "Getting Started").pages.map((p) => p.title), ["Design Notes"])
        assert.deepStrictEqual(byTitle(pages, "Roadmap").pages.map((p) => p.title), ["Dark mode", "Search v2"])
        assert.strictEqual(pages.length, 6)
        assert.deepStrictEqual(files.map((f) => f.name).sort(), ["Untitled.png", "sketch.png"])
        const wiki = markdown.get("Product Wiki")!
        assert.include(wiki, `[Getting Started](/pages/${byTitle(pages, "Getting Started").id})`)
        assert.include(wiki, `[Roadmap](/pages/${byTitle(pages, "Roadmap").id})`)
        assert.include(wiki, "{% hint style=\"info\" %}\nThis wiki is the source of truth for the product team.\n{% endhint %}")
        assert.include(markdown.get("Getting Started")!, "{% hint style=\"warning\" %}\nAccess requests take a day.\n{% endhint %}")
        assert.include(markdown.get("Roadmap")!, "| Dark mode | Done | Q1 | Grace, Lin | February 2, 2024 |")
        for (const page of pages) assert.notMatch(page.title, /[0-9a-f]{32}/)
      }))

    it.effect("a Word document made by LibreOffice: headings, lists, a table and its image", () =>
      Effect.gen(function*() {
        const { markdown, files, tree } = yield* importInto("release-notes.docx", readFileSync(join(fixtures, "release-notes.docx")))
        assert.deepStrictEqual(tree.map((p) => p.title), ["Release Notes 4.2"])
        const notes = markdown.get("Release Notes 4.2")!
        assert.include(notes, "## Highlights")
        assert.include(notes, "### Known issues")
        assert.include(notes, "- Sync is twice as fast.")
        assert.include(notes, "| Version | Date |")
        assert.strictEqual(files.length, 1)
        assert.include(notes, `/files/${files[0]!.id}`)
      }))

    it.effect("archives past a bound or leading outside are refused with a 400 naming the file; the space is unchanged", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const start = (bytes: Uint8Array, name = "docs.zip") =>
          Effect.gen(function*() {
            const key = yield* uploadKey(alice.token, organizationId, name, bytes)
            return yield* Effect.flip(alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [key] }, target: { space: space.id } } }))
          })
        const many: Record<string, Uint8Array> = {}
        for (let i = 0; i < 41; i++) many[`p${i}.md`] = new TextEncoder().encode(`# Page ${i}\n`)
        const tooMany = yield* start(zipSync(many))
        assert.strictEqual(errorCode(tooMany), 400)
        assert.include(errorMessage(tooMany), "more than 40 files")
        const bomb = yield* start(zipSync({ "bomb.md": new Uint8Array(1_500_000).fill(65) }, { level: 9 }))
        assert.strictEqual(errorCode(bomb), 400)
        assert.match(errorMessage(bomb), /expands more than 50 times|zip bomb/)
        // A Word document whose directory says word/document.xml holds 1,000 bytes: it inflates to 1.5 MB, and is stopped once past 1,000.
        const docx = unzipSync(readFileSync(join(fixtures, "release-notes.docx")))
        const lying = zipSync({ ...docx, "word/document.xml": new Uint8Array(1_500_000) }, { level: 9 })
        const view = new DataView(lying.buffer, lying.byteOffset, lying.byteLength)
        const entry = new TextEncoder().encode("word/document.xml")
        for (let at = 0; at + 46 < lying.byteLength; at++) {
          const named = (nameAt: number) => entry.every((byte, i) => lying[nameAt + i] === byte)
          if (view.getUint32(at, true) === 0x04034b50 && named(at + 30)) view.setUint32(at + 22, 1000, true)
          if (view.getUint32(at, true) === 0x02014b50 && named(at + 46)) view.setUint32(at + 24, 1000, true)
        }
        const docxBomb = yield* start(lying, "bomb.docx")
        assert.strictEqual(errorCode(docxBomb), 400)
        assert.include(errorMessage(docxBomb), "“word/document.xml” declares 1000 bytes but inflates to more; it looks like a zip bomb")
        const big = yield* start(zipSync({ "a.md": new Uint8Array(1_200_000).fill(65), "b.md": new Uint8Array(1_200_000).fill(66) }, { level: 0 }))
        assert.strictEqual(errorCode(big), 400)
        const traversal = yield* start(zipSync({ "../../etc/passwd.md": new TextEncoder().encode("# x") }))
        assert.strictEqual(errorCode(traversal), 400)
        assert.include(errorMessage(traversal), "outside the archive")
        const absolute = yield* start(zipSync({ "/etc/x.md": new TextEncoder().encode("# x") }))
        assert.strictEqual(errorCode(absolute), 400)
        const notZip = yield* start(new TextEncoder().encode("not a zip"), "data.bin")
        assert.strictEqual(errorCode(notZip), 400)
        const unknownKey = yield* Effect.flip(alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: ["nope"] }, target: { space: space.id } } }))
        assert.strictEqual(errorCode(unknownKey), 400)
        assert.include(errorMessage(unknownKey), "nope")
        const tree = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(tree.pages.length, 0)
      }))

    it.effect("a run that fails leaves the space as it was; runs are listed, filtered and cancelled by their space's editors only", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space, members } = yield* spaceWith(["read"])
        const reader = members.read!
        const before = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        // A zip with no page in it: the run fails after it was queued, and writes nothing.
        const empty = yield* uploadKey(alice.token, organizationId, "empty.zip", zipSync({ "notes.txt": new TextEncoder().encode("nothing") }))
        const failedRun = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [empty] }, target: { space: space.id } } })
        const failed = yield* settled(alice.api, organizationId, failedRun.id)
        assert.strictEqual(failed.status, "failed")
        assert.include(failed.reason ?? "", "no pages")
        const after = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        assert.strictEqual(after.id, before.id)
        // A reader may see runs but not start or cancel one.
        const key = yield* uploadKey(alice.token, organizationId, "handbook.zip", zipOf("mkdocs"))
        const denied = yield* Effect.flip(reader.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [key] }, target: { space: space.id } } }))
        assert.strictEqual(errorCode(denied), 403)
        const readerUpload = yield* upload(reader.token, organizationId, "x.md", new TextEncoder().encode("# X"))
        assert.strictEqual(readerUpload.status, 403)
        const done = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [key] }, target: { space: space.id } } })
        const completed = yield* settled(alice.api, organizationId, done.id)
        assert.strictEqual(completed.status, "completed")
        const cancelDone = yield* Effect.flip(alice.api.imports.cancelImportRun({ params: { organizationId, importRunId: done.id } }))
        assert.strictEqual(errorCode(cancelDone), 400)
        const listed = yield* reader.api.imports.listImportRuns({ params: { organizationId }, query: { space: space.id } })
        assert.deepStrictEqual(listed.items.map((r) => r.id), [done.id, failedRun.id])
        const onlyFailed = yield* alice.api.imports.listImportRuns({ params: { organizationId }, query: { status: "failed" } })
        assert.deepStrictEqual(onlyFailed.items.map((r) => r.id), [failedRun.id])
        // By site: the runs into the site's spaces; by change request: the runs into it (none here).
        const site = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Docs site" } })
        const emptySite = yield* alice.api.sites.createSite({ params: { organizationId }, payload: { title: "Other site" } })
        yield* alice.api.siteSpaces.addSpaceToSite({ params: { organizationId, siteId: site.id }, payload: { spaceId: space.id } })
        const ofSite = yield* alice.api.imports.listImportRuns({ params: { organizationId }, query: { site: site.id } })
        assert.deepStrictEqual(ofSite.items.map((r) => r.id), [done.id, failedRun.id])
        assert.deepStrictEqual((yield* alice.api.imports.listImportRuns({ params: { organizationId }, query: { site: emptySite.id } })).items, [])
        assert.deepStrictEqual((yield* alice.api.imports.listImportRuns({ params: { organizationId }, query: { changeRequest: "cr1" } })).items, [])
        const cancelByReader = yield* Effect.flip(reader.api.imports.cancelImportRun({ params: { organizationId, importRunId: done.id } }))
        assert.strictEqual(errorCode(cancelByReader), 403)
        // Someone outside the organization sees nothing of it.
        const outsider = yield* newUser("Mallory")
        const hidden = yield* Effect.flip(outsider.api.imports.getImportRun({ params: { organizationId, importRunId: done.id } }))
        assert.strictEqual(errorCode(hidden), 404)
        const stolen = yield* Effect.flip(outsider.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [key] }, target: { space: space.id } } }))
        assert.strictEqual(errorCode(stolen), 404)
      }))

    it.effect("an import into a change request: a new one opened for it or one given; main unchanged until merged", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const before = yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        const key = yield* uploadKey(alice.token, organizationId, "handbook.zip", zipOf("mkdocs"))
        // A new change request, opened once the source is checked, named after the upload.
        const started = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [key] }, target: { space: space.id }, newChangeRequest: {} } })
        const changeRequestId = started.target.changeRequest ?? assert.fail("the run names its change request")
        const run = yield* settled(alice.api, organizationId, started.id)
        assert.strictEqual(run.status, "completed", run.reason)
        assert.strictEqual(run.pages.length, 5)
        const cr = yield* alice.api.changeRequests.getChangeRequestById({ params: { spaceId: space.id, changeRequestId } })
        assert.strictEqual(cr.subject, "Import of handbook.zip")
        const params = { spaceId: space.id, changeRequestId }
        const crPages = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(crPages.pages.map((p) => p.title), ["Home", "User guide", "About"])
        const crFiles = yield* alice.api.changeRequestContent.listFilesInChangeRequestById({ params, query: {} })
        assert.deepStrictEqual(crFiles.items.map((f) => f.name), ["architecture.png"])
        assert.strictEqual((yield* alice.api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })).id, before.id)
        assert.deepStrictEqual((yield* alice.api.imports.listImportRuns({ params: { organizationId }, query: { changeRequest: changeRequestId } })).items.map((r) => r.id), [run.id])
        // An existing change request, named by GitBook's target.changeRequest: the Word document joins it.
        const docx = yield* uploadKey(alice.token, organizationId, "release-notes.docx", readFileSync(join(fixtures, "release-notes.docx")))
        const into = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [docx] }, target: { space: space.id, changeRequest: changeRequestId } } })
        assert.strictEqual((yield* settled(alice.api, organizationId, into.id)).status, "completed")
        const joined = yield* alice.api.changeRequestContent.listPagesInChangeRequest({ params, query: {} })
        assert.deepStrictEqual(joined.pages.map((p) => p.title), ["Home", "User guide", "About", "Release Notes 4.2"])
        // Refusals: both ways at once, an unknown change request, a merged one.
        const both = yield* Effect.flip(alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [docx] }, target: { space: space.id, changeRequest: changeRequestId }, newChangeRequest: {} } }))
        assert.strictEqual(errorCode(both), 400)
        assert.include(errorMessage(both), "newChangeRequest")
        const unknown = yield* Effect.flip(alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [docx] }, target: { space: space.id, changeRequest: "missing" } } }))
        assert.strictEqual(errorCode(unknown), 400)
        assert.include(errorMessage(unknown), "target.changeRequest")
        yield* alice.api.changeRequests.mergeChangeRequest({ params })
        const merged = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        assert.deepStrictEqual(merged.pages.map((p) => p.title), ["Home", "User guide", "About", "Release Notes 4.2"])
        const closed = yield* Effect.flip(alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [docx] }, target: { space: space.id, changeRequest: changeRequestId } } }))
        assert.strictEqual(errorCode(closed), 400)
        assert.include(errorMessage(closed), "target.changeRequest")
      }))

    it.effect("a cancelled run writes nothing; an import under a page nests its pages there", () =>
      Effect.gen(function*() {
        const { alice, organizationId, space } = yield* spaceWith()
        const key = yield* uploadKey(alice.token, organizationId, "handbook.zip", zipOf("mkdocs"))
        const first = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [key] }, target: { space: space.id } } })
        const cancelled = yield* alice.api.imports.cancelImportRun({ params: { organizationId, importRunId: first.id } }).pipe(Effect.catch(() => Effect.succeed(undefined)))
        const run = yield* settled(alice.api, organizationId, first.id)
        const tree = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        // Either the cancel came first and nothing was written, or the run had written and the cancel was refused.
        if (cancelled !== undefined) {
          assert.strictEqual(run.status, "cancelled")
          assert.strictEqual(tree.pages.length, 0)
        } else {
          assert.strictEqual(run.status, "completed")
          assert.deepStrictEqual(tree.pages.map((p) => p.title), ["Home", "User guide", "About"])
        }
        const docx = yield* uploadKey(alice.token, organizationId, "release-notes.docx", readFileSync(join(fixtures, "release-notes.docx")))
        const parent = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [docx] }, target: { space: space.id } } })
        yield* settled(alice.api, organizationId, parent.id)
        const withDoc = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        const notes = (withDoc.pages as unknown as ReadonlyArray<Page>).find((p) => p.title === "Release Notes 4.2")!
        // The run that read the upload ended, and the upload went with it: the file is sent again.
        const resent = yield* uploadKey(alice.token, organizationId, "release-notes.docx", readFileSync(join(fixtures, "release-notes.docx")))
        const nested = yield* alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [resent] }, target: { space: space.id, page: notes.id } } })
        const nestedRun = yield* settled(alice.api, organizationId, nested.id)
        assert.strictEqual(nestedRun.status, "completed")
        const final = yield* alice.api.spaceContent.listPages({ params: { spaceId: space.id }, query: {} })
        const again = (final.pages as unknown as ReadonlyArray<Page>).find((p) => p.id === notes.id)!
        assert.deepStrictEqual(again.pages.map((p) => p.title), ["Release Notes 4.2"])
        const badPage = yield* Effect.flip(alice.api.imports.startImportRun({ params: { organizationId }, payload: { source: { type: "file", files: [resent] }, target: { space: space.id, page: "missing" } } }))
        assert.strictEqual(errorCode(badPage), 400)
      }))
  })
}
