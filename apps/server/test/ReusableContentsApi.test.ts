/**
 * Reusable contents end to end, on every backend: a Git import of `.gitbook/includes/`, GitBook's
 * reusable-content operations (main, revision, document, change request) with their access rules
 * and refusals, and a page that includes one: published, searched, as a JSON document and in a PDF.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect, Schedule } from "effect"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pdfText } from "@quire/testkit/PdfText"
import { backends, baseUrl, type Client, download, errorCode, errorMessage, newUser, raw, spaceWith } from "./Harness.ts"
import { get } from "./SiteFixtures.ts"

const main = "refs/heads/main"

/** A project in GitBook's layout with two reusable contents, included from pages in two folders. */
const project: Record<string, string> = {
  "README.md": "# Welcome\n\nStart here.\n\n{% include \".gitbook/includes/missing-block.md\" %}\n",
  "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Upgrade](guides/upgrade.md)\n",
  "guides/upgrade.md":
    "# Upgrade\n\nBefore you start:\n\n{% include \"../.gitbook/includes/upgrade-warning.md\" %}\n\nThen run `quire upgrade`.\n",
  ".gitbook/includes/upgrade-warning.md": "---\ntitle: Upgrade warning\n---\n\n{% hint style=\"warning\" %}\nBack up your narwhal data first.\n{% endhint %}\n",
  ".gitbook/includes/contact.md": "---\ntitle: Contact\n---\n\nWrite to [support](https://example.com/support).\n"
}

/** A bare repository holding `files` on `main`, removed with the scope; answers its `file://` URL and a way to push more. */
const repository = (files: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), "quire-includes-"))
      const work = join(dir, "work")
      const run = (...args: ReadonlyArray<string>) =>
        execFileSync("git", args, { cwd: work, env: { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" } })
      execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", join(dir, "docs.git")])
      mkdirSync(work)
      run("init", "--quiet", "--initial-branch=main")
      const push = (changed: Record<string, string>) => {
        for (const [path, text] of Object.entries(changed)) {
          mkdirSync(join(work, path, ".."), { recursive: true })
          writeFileSync(join(work, path), text)
        }
        run("add", ".")
        run("commit", "--quiet", "-m", "Docs")
        run("push", "--quiet", join(dir, "docs.git"), "main")
      }
      push(files)
      return { dir, url: `file://${join(dir, "docs.git")}`, push }
    }),
    ({ dir }) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

/** Imports the repository at `url` into the space and waits until main holds a revision other than `before`. */
const importInto = Effect.fnUntraced(function*(api: Client, spaceId: string, url: string, before: string) {
  yield* api.git.importGitRepository({ params: { spaceId }, payload: { url, ref: main } })
  return yield* api.spaceContent.getCurrentRevision({ params: { spaceId }, query: {} }).pipe(
    Effect.filterOrFail((revision) => revision.id !== before, () => new Error("import still running")),
    Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 }),
    Effect.orDie
  )
})

/** A space "Docs" imported from `project`, with a reader; answers the setup, the repository and the imported revision. */
const imported = Effect.fnUntraced(function*() {
  const setup = yield* spaceWith(["read"])
  const api = setup.alice.api
  const spaceId = setup.space.id
  const repo = yield* repository(project)
  const revision = yield* importInto(api, spaceId, repo.url, setup.space.revision)
  return { ...setup, api, spaceId, repo, revision, reader: setup.members.read!.api }
})

type Answer<A> = Promise<{ readonly status: number; readonly data: A }>
type ReusableContent = { readonly id: string; readonly title: string; readonly document?: string; readonly git?: { readonly path: string } }

/** The part of GitBook's client this suite uses (its published typings cannot be resolved under NodeNext). */
interface GitBookClient {
  readonly spaces: {
    getReusableContentById(spaceId: string, reusableContentId: string): Answer<ReusableContent>
    getReusableContentInRevisionById(spaceId: string, revisionId: string, reusableContentId: string): Answer<ReusableContent>
    getReusableContentDocumentInRevisionById(spaceId: string, revisionId: string, reusableContentId: string): Answer<{ readonly object: string }>
    getReusableContentInChangeRequestById(spaceId: string, changeRequestId: string, reusableContentId: string): Answer<ReusableContent>
  }
}

const idOf = (revision: { readonly reusableContents: ReadonlyArray<{ readonly id: string; readonly title: string }> }, title: string) =>
  revision.reusableContents.find((r) => r.title === title)!.id

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`reusable contents on ${backend.name}`, (it) => {
    it.effect("a Git import's includes are the revision's reusable contents, read by id in main, a revision, its document and a change request", () =>
      Effect.scoped(Effect.gen(function*() {
        const { api, reader, spaceId, revision } = yield* imported()
        assert.deepStrictEqual(
          revision.reusableContents.map((r) => [r.title, r.git?.path]),
          [["Contact", ".gitbook/includes/contact.md"], ["Upgrade warning", ".gitbook/includes/upgrade-warning.md"]]
        )
        assert.deepStrictEqual(revision.pages.map((p) => p.title), ["Welcome", "Upgrade"])
        const warningId = idOf(revision, "Upgrade warning")

        // A reader may read it; the markdown comes with format=markdown only.
        const plain = yield* reader.reusableContents.getReusableContentById({ params: { spaceId, reusableContentId: warningId }, query: {} })
        assert.deepStrictEqual([plain.id, plain.title, plain.git?.path, plain.markdown], [warningId, "Upgrade warning", ".gitbook/includes/upgrade-warning.md", undefined])
        assert.isString(plain.document)
        const withMarkdown = yield* reader.reusableContents.getReusableContentById({
          params: { spaceId, reusableContentId: warningId },
          query: { format: "markdown", metadata: false }
        })
        assert.include(withMarkdown.markdown, "Back up your narwhal data first.")
        assert.isUndefined(withMarkdown.git)

        const inRevision = yield* api.reusableContents.getReusableContentInRevisionById({
          params: { spaceId, revisionId: revision.id, reusableContentId: warningId },
          query: {}
        })
        assert.deepStrictEqual(inRevision, plain)
        const document = yield* api.reusableContents.getReusableContentDocumentInRevisionById({
          params: { spaceId, revisionId: revision.id, reusableContentId: warningId }
        })
        assert.strictEqual(document.object, "document")
        assert.include(JSON.stringify(document.nodes), "narwhal")

        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Words" } })
        const inChangeRequest = yield* reader.reusableContents.getReusableContentInChangeRequestById({
          params: { spaceId, changeRequestId: cr.id, reusableContentId: warningId },
          query: {}
        })
        assert.deepStrictEqual(inChangeRequest, plain)

        // What the import changed names them, as GitBook's semantic changes do.
        const changed = yield* api.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: revision.id }, query: { limit: 50 } })
        assert.deepStrictEqual(
          changed.changes.flatMap((c) => (c.type === "reusable_content_created" ? [c.reusableContent.title] : [])),
          ["Contact", "Upgrade warning"]
        )

        // An id the space does not hold, or a revision before the import, is a 404.
        const unknown = yield* Effect.flip(api.reusableContents.getReusableContentById({ params: { spaceId, reusableContentId: "nope" }, query: {} }))
        assert.strictEqual(errorCode(unknown), 404)
        const parent = revision.parents[0]!
        const before = yield* Effect.flip(api.reusableContents.getReusableContentInRevisionById({
          params: { spaceId, revisionId: parent, reusableContentId: warningId },
          query: {}
        }))
        assert.strictEqual(errorCode(before), 404)
      })))

    it.effect("a change request brought up to date with main takes main's reusable contents, changed by a later import", () =>
      Effect.scoped(Effect.gen(function*() {
        const { api, spaceId, repo, revision } = yield* imported()
        const warningId = idOf(revision, "Upgrade warning")
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Words" } })
        const read = (format: "markdown") =>
          api.reusableContents.getReusableContentInChangeRequestById({ params: { spaceId, changeRequestId: cr.id, reusableContentId: warningId }, query: { format } })
        repo.push({ ".gitbook/includes/upgrade-warning.md": "---\ntitle: Upgrade warning\n---\n\nSnapshot the narwhals, then upgrade.\n" })
        const next = yield* importInto(api, spaceId, repo.url, revision.id)
        assert.deepStrictEqual(next.reusableContents.map((r) => r.id).toSorted(), revision.reusableContents.map((r) => r.id).toSorted())
        assert.include((yield* read("markdown")).markdown, "Back up your narwhal data first.")
        yield* api.changeRequests.updateChangeRequest({ params: { spaceId, changeRequestId: cr.id } })
        assert.include((yield* read("markdown")).markdown, "Snapshot the narwhals")
        const edited = yield* api.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: next.id }, query: {} })
        assert.deepStrictEqual(
          edited.changes.flatMap((c) => (c.type === "reusable_content_edited" ? [[c.reusableContent.title, Object.keys(c.attributes)]] : [])),
          [["Upgrade warning", ["document"]]]
        )
      })))

    it.effect("GitBook's own client reads a reusable content in main, a revision, its document and a change request", () =>
      Effect.scoped(Effect.gen(function*() {
        const { alice, api, spaceId, revision } = yield* imported()
        const id = idOf(revision, "Contact")
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Words" } })
        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: alice.token }) as unknown as GitBookClient
        const got = yield* Effect.promise(async () => ({
          main: await gitbook.spaces.getReusableContentById(spaceId, id),
          inRevision: await gitbook.spaces.getReusableContentInRevisionById(spaceId, revision.id, id),
          document: await gitbook.spaces.getReusableContentDocumentInRevisionById(spaceId, revision.id, id),
          inChangeRequest: await gitbook.spaces.getReusableContentInChangeRequestById(spaceId, cr.id, id)
        }))
        assert.deepStrictEqual([got.main.status, got.main.data.title, got.main.data.git?.path], [200, "Contact", ".gitbook/includes/contact.md"])
        assert.deepStrictEqual(got.inRevision.data, got.main.data)
        assert.deepStrictEqual(got.inChangeRequest.data, got.main.data)
        assert.strictEqual(got.document.data.object, "document")
      })))

    it.effect("another organization's member gets a 404 for every form, and bad input is a 400 naming the field", () =>
      Effect.scoped(Effect.gen(function*() {
        const { alice, api, spaceId, revision } = yield* imported()
        const warningId = idOf(revision, "Upgrade warning")
        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "Words" } })
        const mallory = yield* newUser("Mallory")
        yield* mallory.api.organizations.createOrganization({ payload: { title: "Elsewhere" } })
        const outsider: Client = mallory.api
        const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
          outsider.reusableContents.getReusableContentById({ params: { spaceId, reusableContentId: warningId }, query: { format: "markdown" } }),
          outsider.reusableContents.getReusableContentInRevisionById({ params: { spaceId, revisionId: revision.id, reusableContentId: warningId }, query: {} }),
          outsider.reusableContents.getReusableContentDocumentInRevisionById({ params: { spaceId, revisionId: revision.id, reusableContentId: warningId } }),
          outsider.reusableContents.getReusableContentInChangeRequestById({ params: { spaceId, changeRequestId: cr.id, reusableContentId: warningId }, query: {} })
        ]
        for (const attempt of attempts) {
          const refused = yield* Effect.flip(attempt)
          assert.strictEqual(errorCode(refused), 404)
          assert.notInclude(errorMessage(refused), "narwhal")
        }

        const badId = yield* raw("GET", `/v1/spaces/${spaceId}/content/reusable-contents/not%20an%20id`, { token: alice.token })
        assert.strictEqual(badId.status, 400)
        assert.include(errorMessage(badId.body), "reusableContentId")
        const badFormat = yield* raw("GET", `/v1/spaces/${spaceId}/content/reusable-contents/${warningId}?format=html`, { token: alice.token })
        assert.strictEqual(badFormat.status, 400)
        assert.include(errorMessage(badFormat.body), "format")
      })))

    it.effect("a page is found by the words of the reusable content it includes, its JSON document holds a reusable-content block, its PDF the content", () =>
      Effect.scoped(Effect.gen(function*() {
        const { reader, spaceId, revision } = yield* imported()
        const warningId = idOf(revision, "Upgrade warning")
        const found = yield* reader.search.searchSpaceContent({ params: { spaceId }, query: { query: "narwhal" } })
        assert.deepStrictEqual(found.items.map((p) => p.title), ["Upgrade"])

        const pageId = revision.pages.find((p) => p.title === "Upgrade")!.id
        const page = yield* reader.spaceContent.getPageById({ params: { spaceId, pageId }, query: { format: "document" } })
        const nodes = (page as { readonly document?: { readonly nodes: ReadonlyArray<unknown> } }).document?.nodes ?? []
        const include = nodes.find((n) => (n as { type?: string }).type === "reusable-content") as { readonly [field: string]: unknown; readonly key?: string } | undefined
        assert.deepInclude(include, { object: "block", type: "reusable-content", isVoid: true, data: { ref: { kind: "reusable-content", reusableContent: warningId } } })
        assert.notInclude(JSON.stringify(nodes), "{% include")

        // GitBook's document read: as stored by default, the include replaced by its blocks when dereferenced.
        const documentOf = (dereferenced?: boolean | "reusable-contents") =>
          reader.revisions.getPageDocumentInRevisionById({
            params: { spaceId, revisionId: revision.id, pageId },
            query: dereferenced === undefined ? {} : { dereferenced, evaluated: true }
          })
        const stored = yield* documentOf()
        assert.deepStrictEqual(stored.nodes, nodes)
        for (const dereferenced of [true, "reusable-contents"] as const) {
          const expanded = JSON.stringify((yield* documentOf(dereferenced)).nodes)
          assert.notInclude(expanded, "\"reusable-content\"")
          assert.include(expanded, "\"hint\"")
          assert.include(expanded, "Back up your narwhal data first.")
          assert.include(expanded, "Then run ")
          // The included blocks' keys start with the include's, so none repeats a key of the page.
          const keys = [...expanded.matchAll(/"key":"([^"]+)"/g)].map((m) => m[1]!)
          assert.strictEqual(new Set(keys).size, keys.length)
          assert.isTrue(keys.some((key) => key.startsWith(`${include!.key!}K`)), keys.join(" "))
        }

        const pdf = yield* download((yield* reader.spacePdf.getSpacePDF({ params: { spaceId }, query: {} })).url)
        const text = (yield* pdfText(pdf.bytes)).join("\n")
        assert.include(text, "Back up your narwhal data first.")
        assert.notInclude(text, "{% include")
      })))

    it.effect("a published page shows the reusable content it includes, and nothing of an include that names none", () =>
      Effect.scoped(Effect.gen(function*() {
        const { api, organizationId, spaceId } = yield* imported()
        const site = yield* api.sites.createSite({ params: { organizationId }, payload: { title: "Handbook", visibility: "public" } })
        const siteParams = { organizationId, siteId: site.id }
        yield* api.siteSections.addSectionToSite({ params: siteParams, payload: { spaceId } })
        yield* api.sites.publishSite({ params: siteParams })

        const upgrade = yield* get(`/~sites/${site.id}/upgrade`)
        assert.strictEqual(upgrade.status, 200)
        assert.include(upgrade.text, "Back up your narwhal data first.")
        assert.notInclude(upgrade.text, "{% include")
        assert.notInclude(upgrade.text, "{% hint")
        const home = yield* get(`/~sites/${site.id}/`)
        assert.strictEqual(home.status, 200)
        assert.include(home.text, "Start here.")
        assert.notInclude(home.text, "{% include")
        assert.notInclude(home.text, "missing-block")
        // The page's markdown for machines has the reusable content in place too.
        const markdown = yield* get(`/~sites/${site.id}/upgrade.md`)
        assert.include(markdown.text, "Back up your narwhal data first.")
        const full = yield* get(`/~sites/${site.id}/llms-full.txt`)
        assert.include(full.text, "Back up your narwhal data first.")
        assert.notInclude(full.text, "{% include")
      })))
  })
}
