/**
 * A file moved in Git keeps the links to it, on memory, PostgreSQL and PGlite: the import goes
 * through content's revision writer, which rewrites the links of the other pages (and the moved
 * page's own relative links) in the same revision; the next export writes them to the repository.
 */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { as, Backends } from "@quire/testkit"
import { flattenPages, SpaceContent } from "@quire/content"
import { GitSync } from "../src/GitSync.ts"
import { GitTransport, MemoryGitRemotes } from "../src/GitTransport.ts"
import { backendsOver, main, newSpace, settle } from "./SyncStack.ts"

const remotes = new MemoryGitRemotes()
const backends = backendsOver(GitTransport.layerTest(remotes))

const project = {
  "README.md": "# Welcome\n\nStart with [installing](setup/install.md), then [configure](setup/configure.md).\n",
  "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](setup/install.md)\n* [Configure](setup/configure.md)\n",
  "setup/install.md": "# Install\n\nRun the installer, then [configure](configure.md).\n",
  "setup/configure.md": "# Configure\n\nAfter [installing](install.md).\n"
}

let repositories = 0

Backends.each(backends, (it, backend) => {
  describe("a file moved in Git", () => {
    it.effect("its import rewrites the links to it and its own relative links in the same revision", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const content = yield* SpaceContent
        const space = yield* newSpace("Docs")
        const url = `https://git.example.com/acme/moved-${backend}-${++repositories}.git`
        remotes.commit(url, main, project)
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle

        // The file moves (git mv, links left as they were), and SUMMARY follows it.
        remotes.commit(url, main, {
          "setup/install.md": null,
          "guides/installation.md": project["setup/install.md"],
          "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Install](guides/installation.md)\n* [Configure](setup/configure.md)\n"
        })
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const revision = (yield* content.revision(space.id).pipe(as("reader"))).revision
        const markdown = new Map<string, string>()
        for (const { page } of flattenPages(revision.pages)) markdown.set(page.title, (yield* content.page(space.id, page.id).pipe(as("reader"))).markdown ?? "")
        assert.include(markdown.get("Welcome"), "Start with [installing](guides/installation.md), then [configure](setup/configure.md).")
        assert.include(markdown.get("Configure"), "After [installing](../guides/installation.md).")
        assert.include(markdown.get("Install"), "Run the installer, then [configure](../setup/configure.md).")
      }))
  })
})
