/**
 * `SUMMARY.md` entries that list a file again at one of its headings (`[Icons](blocks/inline.md#icons)`
 * beside `[Inline](blocks/inline.md)`), as GitBook's own documentation does: each is a navigation
 * link to the heading of the page, and export writes the same lines back. Memory, PostgreSQL, PGlite.
 */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { as, Backends } from "@quire/testkit"
import { flattenPages, type PageNode, SpaceContent } from "@quire/content"
import { GitSync } from "../src/GitSync.ts"
import { GitTransport, MemoryGitRemotes } from "../src/GitTransport.ts"
import { backendsOver, currentRevision, exportTo, importedFiles, main } from "./SyncStack.ts"

const remotes = new MemoryGitRemotes()
const backends = backendsOver(GitTransport.layerTest(remotes))

let repositories = 0
const newRepository = (backend: string) => `https://git.example.com/acme/anchors-${backend}-${++repositories}.git`

const summary = [
  "# Table of contents",
  "",
  "* [Welcome](README.md)",
  "",
  "## Blocks",
  "",
  "* [Inline content](blocks/inline.md)",
  "  * [Buttons](blocks/inline.md#buttons)",
  "  * [Icons](blocks/inline.md#icons \"Icon set\")",
  "* [Tables](blocks/tables.md)",
  "* [Table sizes](blocks/tables.md#sizes)",
  ""
].join("\n")

/** A project in GitBook's layout, written from its documented syntax. */
const project: Readonly<Record<string, string>> = {
  "docs/SUMMARY.md": summary,
  "docs/README.md": "# Welcome\n\nStart here.\n",
  "docs/blocks/inline.md": "# Inline content\n\n## Buttons\n\nPress them.\n\n## Icons <a href=\"#icons\" id=\"icons\"></a>\n\nLook at them.\n",
  "docs/blocks/tables.md": "# Tables\n\n## Sizes\n\nSmall and large.\n",
  ".gitbook.yaml": "root: ./docs/\n"
}

const filesAt = (url: string) => remotes.read(url, remotes.head(url, main)!)!.files

const importedProject = (title: string, backend: string) => importedFiles(remotes, newRepository(backend), project, title)

const outline = (nodes: ReadonlyArray<PageNode>, ids: ReadonlyMap<string, string>): Array<unknown> =>
  nodes.map((node) => [
    node.type,
    node.title,
    ...(node.linkTitle === undefined ? [] : [node.linkTitle]),
    ...(node.target?.kind === "page" ? [`${ids.get(node.target.page)}#${node.target.anchor ?? ""}`] : []),
    ...(node.pages.length === 0 ? [] : [outline(node.pages, ids)])
  ])

Backends.each(backends, (it, backend) => {
  describe("SUMMARY.md entries to a heading", () => {
    it.effect("are imported as links to the heading of the page, and the page itself once", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const { space } = yield* importedProject("Anchors", backend)
        const info = yield* sync.info(space.id).pipe(as("admin"))
        assert.strictEqual(info.lastImport?.status, "succeeded")
        const pages = (yield* currentRevision(space.id)).pages
        const titles = new Map(flattenPages(pages).map(({ page }) => [page.id, page.title]))
        assert.deepStrictEqual(outline(pages, titles), [
          ["document", "Welcome"],
          ["group", "Blocks", [
            ["document", "Inline content", [
              ["link", "Buttons", "Inline content#buttons"],
              ["link", "Icons", "Icon set", "Inline content#icons"]
            ]],
            ["document", "Tables"],
            ["link", "Table sizes", "Tables#sizes"]
          ]]
        ])
      }))

    it.effect("are written back as the same lines: an export without edits changes no file, into an empty repository every file", () =>
      Effect.gen(function*() {
        const { space, url, commit } = yield* importedProject("Round trip", backend)
        const same = yield* exportTo(space.id, url, "Nothing changed")
        assert.strictEqual(same?.status, "succeeded", same?.error ?? "")
        assert.strictEqual(remotes.head(url, main), commit, "no commit: no file changed")
        const empty = newRepository(backend)
        const fresh = yield* exportTo(space.id, empty, "Into an empty repository")
        assert.strictEqual(fresh?.status, "succeeded", fresh?.error ?? "")
        assert.strictEqual(filesAt(empty).get("docs/SUMMARY.md"), summary)
      }))

    it.effect("a heading link added in Quire is written as an entry to the page's file and anchor", () =>
      Effect.gen(function*() {
        const content = yield* SpaceContent
        const { space, url } = yield* importedProject("Added", backend)
        const tables = flattenPages((yield* currentRevision(space.id)).pages).find((p) => p.page.title === "Tables")!.page
        const at = "2026-01-01T00:00:00.000Z"
        const link: PageNode = {
          id: "link-large", type: "link", title: "Large tables", slug: "large-tables",
          target: { kind: "page", page: tables.id, anchor: "sizes" }, createdAt: at, updatedAt: at, pages: []
        }
        yield* content.commit(space.id, (parent) => Effect.succeed({ pages: [...parent.pages, link] })).pipe(as("editor"))
        const exported = yield* exportTo(space.id, url, "A link to sizes")
        assert.strictEqual(exported?.status, "succeeded", exported?.error ?? "")
        assert.include(filesAt(url).get("docs/SUMMARY.md") ?? "", "* [Large tables](blocks/tables.md#sizes)\n")
        assert.include(filesAt(url).get("docs/SUMMARY.md") ?? "", "  * [Icons](blocks/inline.md#icons \"Icon set\")\n")
      }))
  })
})
