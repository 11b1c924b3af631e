/**
 * Git export writes what GitBook would, over a project written in GitBook's syntax (a custom root,
 * readme and summary names, folders with spaces, folded descriptions, unknown frontmatter keys,
 * title-only pages, a `coverY` without a cover, assets): exported with no edits it changes no file; exported into an empty
 * repository it gives back the imported files byte for byte; content written in Quire is written
 * with relative asset and page links at paths from its place in the tree. Memory, PostgreSQL, PGlite.
 */
import { assert, describe, layer as layerSuite } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { Transactor } from "@quire/kernel"
import { as, Backends } from "@quire/testkit"
import { ContentLayers } from "@quire/content"
import { contentTypeOf, documentHash, flattenPages, type PageNode, pageFrontmatterOf, SpaceContent } from "@quire/content"
import { readFrontmatter, splitFrontmatter } from "@quire/markdown"
import * as GitCli from "../src/GitCli.ts"
import { ConfigRedirects } from "../src/ConfigRedirects.ts"
import { GitSync } from "../src/GitSync.ts"
import * as GitSyncLayers from "../src/GitSyncLayers.ts"
import { GitTransport, MemoryGitRemotes } from "../src/GitTransport.ts"
import { backendsOver, currentRevision, exportTo, importedFiles, main, newSpace, settle, stackOver } from "./SyncStack.ts"

const remotes = new MemoryGitRemotes()
const backends = backendsOver(GitTransport.layerTest(remotes))

let repositories = 0
const newRepository = (backend: string) => `https://git.example.com/acme/fidelity-${backend}-${++repositories}.git`

const svg = (label: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>${label}</title></svg>\n`

/**
 * A GitBook project: `.gitbook.yaml` moves the root to `docs/`, names the readme and the summary,
 * and redirects old paths to files (a comment, quoting and a `./` prefix among them).
 */
const project: Readonly<Record<string, string>> = {
  ".gitbook.yaml": [
    "root: ./docs/",
    "",
    "structure:",
    "  readme: introduction.md",
    "  summary: toc.md",
    "",
    "# Pages that moved: their old URLs lead to the new files.",
    "redirects:",
    "  start: getting started/quick start.md",
    "  'setup/linux/': ./getting started/install/linux.md",
    "  \"reference/old api\":   reference/api.md # renamed in 2.0",
    ""
  ].join("\n"),
  "docs/toc.md": [
    "# Table of contents",
    "",
    "* [Introduction](introduction.md)",
    "",
    "## Getting Started <a href=\"#getting-started\" id=\"getting-started\"></a>",
    "",
    "* [Quick start](<getting started/quick start.md>)",
    "* [Install](<getting started/install/README.md>)",
    "  * [On Linux](<getting started/install/linux.md>)",
    "",
    "## Reference",
    "",
    "* [API](reference/api.md)",
    "* [Limits](reference/limits.md)",
    ""
  ].join("\n"),
  "docs/introduction.md": [
    "---",
    "description: >-",
    "  Everything about Widgets, in a description long enough that GitBook folds it",
    "  over two lines.",
    "cover: .gitbook/assets/cover image.svg",
    "coverY: -42",
    "coverHeight: 380",
    "layout:",
    "  width: wide",
    "  cover:",
    "    visible: true",
    "    size: full",
    "    mask: none",
    "  title:",
    "    visible: true",
    "  description:",
    "    visible: false",
    "  tags:",
    "    visible: true",
    "  metadata:",
    "    visible: false",
    "tags:",
    "  - start",
    "metadata:",
    "  owner: docs-team",
    "---",
    "",
    "# Introduction",
    "",
    "Start with the [quick start](<getting started/quick start.md>).",
    "",
    "<figure><img src=\".gitbook/assets/cover image.svg\" alt=\"\"><figcaption></figcaption></figure>",
    ""
  ].join("\n"),
  "docs/getting started/quick start.md": [
    "---",
    "icon: rocket",
    "description: >-",
    "  Five minutes from nothing to a running widget, every step explained along the",
    "  way.",
    "---",
    "",
    "# Quick start",
    "",
    "![Diagram](<../.gitbook/assets/diagram (1).svg>)",
    "",
    "Then [install it](install/), and see the [API](../reference/api.md).",
    ""
  ].join("\n"),
  "docs/getting started/install/README.md": "# Install\n\n",
  // GitBook writes `coverY: 0` on pages that have no cover.
  "docs/getting started/install/linux.md": "---\ndescription: On Linux.\ncoverY: 0\nhidden: true\n---\n\n# On Linux\n\n```sh\ncurl -fsSL https://example.com | sh\n```\n",
  "docs/reference/api.md": "---\nowner: api-team\n---\n\n# API\n\nThe API, see [limits](limits.md#rates).\n\n{% include \"../../.gitbook/includes/support.md\" %}\n",
  ".gitbook/includes/support.md": "---\ntitle: Support\n---\n\nWrite to **support@example.com**.\n",
  "docs/reference/limits.md": "# Limits\n\n",
  "docs/.gitbook/assets/cover image.svg": svg("cover"),
  "docs/.gitbook/assets/diagram (1).svg": svg("diagram")
}

const filesAt = (url: string) => remotes.read(url, remotes.head(url, main)!)!.files

/** A space that imported the project from a new repository: the space, the repository and its commit. */
const importedProject = (title: string, backend: string) => importedFiles(remotes, newRepository(backend), project, title)

Backends.each(backends, (it, backend) => {
  describe("export fidelity", () => {
    it.effect("an import exported again without edits changes no file: frontmatter bytes, unknown keys, title-only pages", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const { space, url, commit } = yield* importedProject("Unchanged", backend)
        assert.strictEqual((yield* sync.info(space.id).pipe(as("admin"))).lastImport?.status, "succeeded")
        const exported = yield* exportTo(space.id, url, "Nothing changed")
        assert.strictEqual(exported?.status, "succeeded", exported?.error ?? "")
        assert.strictEqual(remotes.head(url, main), commit, "no commit: no file changed")
      }))

    it.effect("an import exported into an empty repository gives back every file at its path with its bytes", () =>
      Effect.gen(function*() {
        const { space } = yield* importedProject("Fresh", backend)
        const empty = newRepository(backend)
        const exported = yield* exportTo(space.id, empty, "Into an empty repository")
        assert.strictEqual(exported?.status, "succeeded", exported?.error ?? "")
        const written = filesAt(empty)
        assert.deepStrictEqual([...written.keys()].toSorted(), Object.keys(project).toSorted())
        for (const [path, text] of Object.entries(project)) assert.strictEqual(written.get(path), text, path)
      }))

    it.effect("the redirects of .gitbook.yaml are the space's, from the documentation root; an edited space exports the file byte for byte", () =>
      Effect.gen(function*() {
        const content = yield* SpaceContent
        const { space, url } = yield* importedProject("Redirects", backend)
        const redirects = yield* Effect.flatMap(Effect.service(ConfigRedirects), (c) => c.forSpace(space.id)).pipe(Effect.provide(ConfigRedirects.layer))
        assert.deepStrictEqual(redirects, [
          { source: "start", target: "docs/getting started/quick start.md" },
          { source: "setup/linux", target: "docs/getting started/install/linux.md" },
          { source: "reference/old api", target: "docs/reference/api.md" }
        ])
        // Each target is the file of a page the import made.
        const paths = flattenPages((yield* currentRevision(space.id)).pages).map((e) => e.page.git?.path)
        for (const redirect of redirects) assert.include(paths, redirect.target)
        const retitle = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
          nodes.map((node) => node.title === "Limits" ? { ...node, description: "Every limit." } : { ...node, pages: retitle(node.pages) })
        yield* content.commit(space.id, (parent) => Effect.succeed({ pages: retitle(parent.pages) })).pipe(as("editor"))
        const exported = yield* exportTo(space.id, url, "Describe limits")
        assert.strictEqual(exported?.status, "succeeded", exported?.error ?? "")
        assert.strictEqual(filesAt(url).get(".gitbook.yaml"), project[".gitbook.yaml"])
        const empty = newRepository(backend)
        yield* exportTo(space.id, empty, "Into an empty repository")
        assert.strictEqual(filesAt(empty).get(".gitbook.yaml"), project[".gitbook.yaml"])
      }))

    it.effect("an edited frontmatter key is the only change: the other keys, folded or unknown, keep their bytes", () =>
      Effect.gen(function*() {
        const content = yield* SpaceContent
        const { space, url, commit: before } = yield* importedProject("One key", backend)
        const describe = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
          nodes.map((node) => node.title === "Quick start" ? { ...node, description: "Set up in five minutes." } : { ...node, pages: describe(node.pages) })
        yield* content.commit(space.id, (parent) => Effect.succeed({ pages: describe(parent.pages) })).pipe(as("editor"))
        yield* exportTo(space.id, url, "Shorter description")
        const after = filesAt(url)
        const old = remotes.read(url, before)!.files
        assert.deepStrictEqual([...after].filter(([path, text]) => old.get(path) !== text).map(([path]) => path), ["docs/getting started/quick start.md"])
        assert.strictEqual(
          after.get("docs/getting started/quick start.md"),
          project["docs/getting started/quick start.md"]!.replace(/description: >-\n(?: {2}.*\n)+/, "description: Set up in five minutes.\n")
        )
      }))

    it.effect("the cover's coverY, coverHeight and size reach the page; a height edited in Quire rewrites only its line", () =>
      Effect.gen(function*() {
        const content = yield* SpaceContent
        const { space, url } = yield* importedProject("Cover", backend)
        const intro = flattenPages((yield* currentRevision(space.id)).pages).find((p) => p.page.title === "Introduction")!.page
        assert.deepStrictEqual([intro.cover?.yPos, intro.cover?.height, intro.layout?.coverSize], [-42, 380, "full"])
        const taller = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
          nodes.map((node) => node.id === intro.id && node.cover !== undefined ? { ...node, cover: { ...node.cover, height: 500 } } : { ...node, pages: taller(node.pages) })
        yield* content.commit(space.id, (parent) => Effect.succeed({ pages: taller(parent.pages) })).pipe(as("editor"))
        yield* exportTo(space.id, url, "Taller cover")
        assert.strictEqual(filesAt(url).get("docs/introduction.md"), project["docs/introduction.md"]!.replace("coverHeight: 380\n", "coverHeight: 500\n"))
      }))

    it.effect("a table of contents edited in Quire is written as GitBook writes it: group anchors, navigation labels, links to pages", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const content = yield* SpaceContent
        const { space, url } = yield* importedProject("Summary", backend)
        const api = flattenPages((yield* currentRevision(space.id)).pages).find((p) => p.page.title === "API")!.page
        const at = "2026-01-01T00:00:00.000Z"
        const deploy = "Ship it.\n"
        const group: PageNode = {
          id: "group-how-to",
          type: "group",
          title: "How-to guides",
          slug: "how-to",
          createdAt: at,
          updatedAt: at,
          pages: [
            { id: "page-deploy", type: "document", title: "Deploy", slug: "deploy", document: documentHash(deploy), createdAt: at, updatedAt: at, pages: [] },
            { id: "page-rollback", type: "document", title: "Rollback", slug: "rollback", document: documentHash(""), createdAt: at, updatedAt: at, pages: [] },
            { id: "link-api", type: "link", title: "See the API", slug: "see-the-api", target: { kind: "page", page: api.id }, createdAt: at, updatedAt: at, pages: [] }
          ]
        }
        const labelled = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
          nodes.map((node) => node.title === "Quick start" ? { ...node, linkTitle: "Start" } : { ...node, pages: labelled(node.pages) })
        yield* content.commit(space.id, (parent) => Effect.succeed({ pages: [...labelled(parent.pages), group], documents: new Map([[documentHash(deploy), deploy], [documentHash(""), ""]]) }))
          .pipe(as("editor"))
        yield* exportTo(space.id, url, "Guides")
        const files = filesAt(url)
        const toc = files.get("docs/toc.md") ?? ""
        assert.include(toc, "* [Quick start](<getting started/quick start.md> \"Start\")\n")
        assert.include(toc, "\n## How-to guides <a href=\"#how-to\" id=\"how-to\"></a>\n\n* [Deploy](how-to/deploy.md)\n* [Rollback](how-to/rollback.md)\n* [See the API](reference/api.md)\n")
        // Unchanged lines keep their bytes, the heading anchor GitBook wrote included.
        assert.include(toc, "## Getting Started <a href=\"#getting-started\" id=\"getting-started\"></a>\n")
        assert.strictEqual(files.get("docs/how-to/deploy.md"), "# Deploy\n\nShip it.\n")
        // A title-only page as GitBook writes one: the heading and an empty line.
        assert.strictEqual(files.get("docs/how-to/rollback.md"), "# Rollback\n\n")

        const other = yield* newSpace("Summary back")
        yield* sync.importRepository(other.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const back = flattenPages((yield* currentRevision(other.id)).pages)
        assert.strictEqual(back.find((p) => p.page.title === "Deploy")?.path, "how-to/deploy")
        assert.strictEqual(back.find((p) => p.page.title === "Quick start")?.page.linkTitle, "Start")
      }))

    it.effect("unknown frontmatter keys written in Quire reach the file and come back on import; edited ones rewrite only their lines", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const content = yield* SpaceContent
        const { space, url } = yield* importedProject("Unknown keys", backend)
        // The page as content's writer makes it of markdown with frontmatter: unknown keys kept on the page.
        const { body, yaml } = splitFrontmatter("---\ntags: [a, b]\nmetadata: {x: 1}\n---\n\nTagged body.\n")
        const read = readFrontmatter(yaml!)
        assert.isTrue(read.ok)
        const front = pageFrontmatterOf(read.ok ? read.data : {}, [])
        const text = body.replace(/^\n/, "")
        const at = "2026-01-01T00:00:00.000Z"
        const tagged: PageNode = {
          id: "page-tagged", type: "document", title: "Tagged", slug: "tagged", document: documentHash(text), frontmatter: front.extra,
          createdAt: at, updatedAt: at, pages: []
        }
        const owned = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
          nodes.map((node) => node.title === "Introduction" ? { ...node, frontmatter: { ...node.frontmatter, metadata: { owner: "web-team" } } } : { ...node, pages: owned(node.pages) })
        yield* content.commit(space.id, (parent) => Effect.succeed({ pages: [...owned(parent.pages), tagged], documents: new Map([[tagged.document!, text]]) }))
          .pipe(as("editor"))
        yield* exportTo(space.id, url, "Tagged")
        const files = filesAt(url)
        assert.strictEqual(files.get("docs/tagged.md"), "---\ntags:\n  - a\n  - b\nmetadata:\n  x: 1\n---\n\n# Tagged\n\nTagged body.\n")
        assert.strictEqual(files.get("docs/introduction.md"), project["docs/introduction.md"]!.replace("  owner: docs-team\n", "  owner: web-team\n"))

        const other = yield* newSpace("Unknown keys back")
        yield* sync.importRepository(other.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const back = flattenPages((yield* currentRevision(other.id)).pages)
        assert.deepStrictEqual(back.find((p) => p.page.title === "Tagged")?.page.frontmatter, { tags: ["a", "b"], metadata: { x: 1 } })
        assert.deepStrictEqual(back.find((p) => p.page.title === "Introduction")?.page.frontmatter, { tags: ["start"], metadata: { owner: "web-team" } })
        // Exported again without edits: nothing to change.
        const head = remotes.head(url, main)
        yield* exportTo(space.id, url, "Again")
        assert.strictEqual(remotes.head(url, main), head, JSON.stringify([...filesAt(url)].filter(([p, t]) => files.get(p) !== t)))
      }))

    it.effect("a page given its first subpage becomes its folder's README.md, its links and include following it", () =>
      Effect.gen(function*() {
        const content = yield* SpaceContent
        const { space, url } = yield* importedProject("Folder", backend)
        const errors = "Every error has a code.\n"
        const child: PageNode = {
          id: "page-errors", type: "document", title: "Errors", slug: "errors", document: documentHash(errors),
          createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z", pages: []
        }
        const withChild = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
          nodes.map((node) => node.title === "API" ? { ...node, pages: [child] } : { ...node, pages: withChild(node.pages) })
        yield* content.commit(space.id, (parent) => Effect.succeed({ pages: withChild(parent.pages), documents: new Map([[child.document!, errors]]) }))
          .pipe(as("editor"))
        yield* exportTo(space.id, url, "Errors")
        const files = filesAt(url)
        assert.isUndefined(files.get("docs/reference/api.md"))
        assert.strictEqual(
          files.get("docs/reference/api/README.md"),
          "---\nowner: api-team\n---\n\n# API\n\nThe API, see [limits](../limits.md#rates).\n\n{% include \"../../../.gitbook/includes/support.md\" %}\n"
        )
        assert.strictEqual(files.get("docs/reference/api/errors.md"), "# Errors\n\nEvery error has a code.\n")
        assert.include(files.get("docs/getting started/quick start.md") ?? "", "see the [API](../reference/api/README.md).")
        assert.include(files.get("docs/toc.md") ?? "", "* [API](reference/api/README.md)\n  * [Errors](reference/api/errors.md)\n* [Limits](reference/limits.md)\n")
        // Exported again without edits: nothing to change.
        const head = remotes.head(url, main)
        yield* exportTo(space.id, url, "Again")
        assert.strictEqual(remotes.head(url, main), head, JSON.stringify([...filesAt(url)].filter(([p, t]) => files.get(p) !== t)))
      }))

    it.effect("content written in Quire exports in GitBook's form: assets in .gitbook/assets linked relatively, page links as .md paths", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const content = yield* SpaceContent
        const { space, url } = yield* importedProject("Written in Quire", backend)
        const imported = yield* currentRevision(space.id)
        const pages = flattenPages(imported.pages)
        const install = pages.find((p) => p.page.title === "Install")!.page
        const api = pages.find((p) => p.page.title === "API")!.page
        const organizationId = (yield* content.revision(space.id).pipe(as("admin"))).access.space.organizationId
        const image = yield* content.storeFile(organizationId, { name: "new shot.svg", contentType: contentTypeOf("new shot.svg"), bytes: new TextEncoder().encode(svg("shot")) })
          .pipe(as("editor"))
        const markdown = [
          `![A shot](/files/${image.id})`,
          "",
          `<img src="/files/${image.id}" alt="">`,
          "",
          `See [the API](/pages/${api.id}#auth) and [Install](/pages/getting-started/install).`,
          ""
        ].join("\n")
        const page: PageNode = {
          id: "new-page",
          type: "document",
          title: "Upgrade",
          slug: "upgrade",
          document: documentHash(markdown),
          createdAt: "2026-01-01T00:00:00.000Z",
          updatedAt: "2026-01-01T00:00:00.000Z",
          pages: []
        }
        const withChild = (nodes: ReadonlyArray<PageNode>): Array<PageNode> =>
          nodes.map((node) => node.id === install.id ? { ...node, pages: [...node.pages, page] } : { ...node, pages: withChild(node.pages) })
        yield* content.commit(space.id, (parent) =>
          Effect.succeed({ pages: withChild(parent.pages), files: [...parent.files, image], documents: new Map([[page.document!, markdown]]) }))
          .pipe(as("editor"))
        const exported = yield* exportTo(space.id, url, "Upgrade page")
        assert.strictEqual(exported?.status, "succeeded", exported?.error ?? "")
        const files = filesAt(url)
        // Under its parent's folder, as GitBook places a child of `install/README.md`.
        assert.strictEqual(files.get("docs/getting started/install/upgrade.md"), [
          "# Upgrade",
          "",
          "![A shot](<../../.gitbook/assets/new shot.svg>)",
          "",
          "<img src=\"../../.gitbook/assets/new shot.svg\" alt=\"\">",
          "",
          "See [the API](../../reference/api.md#auth) and [Install](README.md).",
          ""
        ].join("\n"))
        assert.strictEqual(files.get("docs/.gitbook/assets/new shot.svg"), svg("shot"))
        assert.include(files.get("docs/toc.md") ?? "", "\n  * [On Linux](<getting started/install/linux.md>)\n  * [Upgrade](<getting started/install/upgrade.md>)\n")
        assert.notInclude([...files.values()].join("\n"), "/files/")
        // The other files keep their bytes.
        for (const [path, text] of Object.entries(project)) if (path !== "docs/toc.md") assert.strictEqual(files.get(path), text, path)
        // Exported again without edits: nothing to change.
        const head = remotes.head(url, main)
        yield* exportTo(space.id, url, "Again")
        assert.strictEqual(remotes.head(url, main), head)

        // Imported into another space, the page is at the same place with its image.
        const other = yield* newSpace("Imported back")
        yield* sync.importRepository(other.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const back = yield* currentRevision(other.id)
        assert.strictEqual(flattenPages(back.pages).find((p) => p.page.title === "Upgrade")?.path, "getting-started/install/upgrade")
        const shot = back.files.find((file) => file.name === "new shot.svg")
        assert.strictEqual(shot?.git?.path, "docs/.gitbook/assets/new shot.svg")
      }))
  })
})

const git = (...args: ReadonlyArray<string>) => execFileSync("git", args, { encoding: "utf8" }).trim()

/** `files` written in a new folder. */
const folderOf = (files: Readonly<Record<string, string>>) => {
  const dir = mkdtempSync(join(tmpdir(), "quire-fidelity-"))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** A bare repository whose main branch holds `files` in one commit. */
const bareRepositoryOf = (files: Readonly<Record<string, string>>) => {
  const work = folderOf(files)
  git("-C", work, "init", "--quiet", "--initial-branch=main")
  git("-C", work, "add", "-A")
  git("-C", work, "-c", "user.name=Someone", "-c", "user.email=someone@example.com", "commit", "--quiet", "-m", "GitBook project")
  const bare = mkdtempSync(join(tmpdir(), "quire-fidelity-bare-"))
  git("clone", "--quiet", "--bare", work, bare)
  return { work, bare, url: `file://${bare}` }
}

layerSuite(
  stackOver(
    GitCli.layer({ cacheDir: mkdtempSync(join(tmpdir(), "quire-fidelity-cache-")), allowFile: true, allow: [] }),
    Layer.mergeAll(ContentLayers.layerReposMemory, GitSyncLayers.layerReposMemory, Transactor.Transactor.layerMemory)
  ),
  { timeout: "120 seconds" }
)("export fidelity with the git binary over file://", (it) => {
  it.effect("no edits: git diff --stat is empty; into an empty repository: diff -r against the project is empty", () =>
    Effect.gen(function*() {
      const sync = yield* GitSync
      const space = yield* newSpace("Round trip")
      const source = bareRepositoryOf(project)
      const imported = git("--git-dir", source.bare, "rev-parse", "main")
      yield* sync.importRepository(space.id, { url: source.url, ref: main }).pipe(as("admin"))
      yield* settle
      assert.strictEqual((yield* exportTo(space.id, source.url, "No edits"))?.status, "succeeded")
      assert.strictEqual(git("--git-dir", source.bare, "diff", "--stat", imported, "main"), "")

      const empty = mkdtempSync(join(tmpdir(), "quire-fidelity-empty-"))
      git("init", "--bare", "--quiet", "--initial-branch=main", empty)
      const exported = yield* exportTo(space.id, `file://${empty}`, "Fresh")
      assert.strictEqual(exported?.status, "succeeded", exported?.error ?? "")
      const checkout = mkdtempSync(join(tmpdir(), "quire-fidelity-checkout-"))
      git("clone", "--quiet", "--branch", "main", empty, checkout)
      assert.strictEqual(execFileSync("diff", ["-r", "--exclude=.git", source.work, checkout], { encoding: "utf8" }), "")
    }))
})
