/**
 * Reusable contents through Git sync's jobs, on memory, PostgreSQL and PGlite: an import makes
 * `.gitbook/includes/*.md` the space's reusable contents (ids kept across imports), an export
 * writes them back to their files and leaves unchanged ones alone.
 */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { as, Backends } from "@quire/testkit"
import { documentHash, SpaceContent } from "@quire/content"
import { GitSync } from "../src/GitSync.ts"
import { GitTransport, MemoryGitRemotes } from "../src/GitTransport.ts"
import { backendsOver, main, newSpace, settle } from "./SyncStack.ts"

const remotes = new MemoryGitRemotes()
const backends = backendsOver(GitTransport.layerTest(remotes))

const warning = "---\ntitle: Upgrade warning\n---\n\n{% hint style=\"warning\" %}\nBack up your data first.\n{% endhint %}\n"

/** A project in GitBook's layout whose pages include a reusable content from a nested folder and from the root. */
const project = {
  ".gitbook.yaml": "root: ./\n",
  "README.md": "# Welcome\n\n{% include \".gitbook/includes/upgrade-warning.md\" %}\n",
  "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Upgrade](guides/upgrade.md)\n",
  "guides/upgrade.md": "# Upgrade\n\nBefore you start:\n\n{% include \"../.gitbook/includes/upgrade-warning.md\" %}\n",
  ".gitbook/includes/upgrade-warning.md": warning,
  ".gitbook/includes/empty.md": "---\ntitle: Nothing yet\n---\n"
}

let repositories = 0

Backends.each(backends, (it, backend) => {
  describe("reusable contents through Git", () => {
    it.effect("an import makes the includes the space's reusable contents; a later import keeps their ids; an export writes back only what changed", () =>
      Effect.gen(function*() {
        const sync = yield* GitSync
        const content = yield* SpaceContent
        const space = yield* newSpace("Docs")
        const url = `https://git.example.com/acme/includes-${backend}-${++repositories}.git`
        remotes.commit(url, main, project)
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle

        const first = (yield* content.revision(space.id).pipe(as("reader"))).revision
        const nodes = first.reusableContents ?? []
        assert.deepStrictEqual(nodes.map((n) => [n.title, n.git?.path, n.document === undefined]), [
          ["Nothing yet", ".gitbook/includes/empty.md", true],
          ["Upgrade warning", ".gitbook/includes/upgrade-warning.md", false]
        ])
        // The pages stay as written, include tags and all; the includes are no pages.
        assert.deepStrictEqual(first.pages.map((p) => p.title), ["Welcome", "Upgrade"])
        const upgrade = nodes[1]!
        assert.strictEqual((yield* content.reusableContentIn(first, upgrade.id)).markdown, "\n{% hint style=\"warning\" %}\nBack up your data first.\n{% endhint %}\n")

        // The include changes in Git: same id, new body.
        remotes.commit(url, main, { ".gitbook/includes/upgrade-warning.md": "---\ntitle: Upgrade warning\n---\n\nBack up, then upgrade.\n" })
        yield* sync.importRepository(space.id, { url, ref: main }).pipe(as("admin"))
        yield* settle
        const second = (yield* content.revision(space.id).pipe(as("reader"))).revision
        const again = (second.reusableContents ?? []).find((n) => n.title === "Upgrade warning")!
        assert.strictEqual(again.id, upgrade.id)
        assert.strictEqual((yield* content.reusableContent(space.id, upgrade.id).pipe(as("reader"))).markdown, "\nBack up, then upgrade.\n")

        // An export with no edits commits nothing; an edit of a reusable content rewrites its file alone.
        const imported = remotes.head(url, main)
        yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "No edits" }).pipe(as("admin"))
        yield* settle
        assert.strictEqual(remotes.head(url, main), imported)
        const edited = "\nBack up, upgrade, then check the logs.\n"
        yield* content.commit(space.id, (parent) =>
          Effect.succeed({
            pages: parent.pages,
            reusableContents: (parent.reusableContents ?? []).map((n) => n.id === upgrade.id ? { ...n, document: documentHash(edited) } : n),
            documents: new Map([[documentHash(edited), edited]])
          })).pipe(as("editor"))
        yield* sync.exportRepository(space.id, { url, ref: main, commitMessage: "Edited include" }).pipe(as("admin"))
        yield* settle
        const exported = remotes.read(url, remotes.head(url, main)!)!
        const before = remotes.read(url, imported!)!
        const changed = [...exported.files].filter(([path, text]) => before.files.get(path) !== text).map(([path]) => path)
        assert.deepStrictEqual(changed, [".gitbook/includes/upgrade-warning.md"])
        assert.strictEqual(exported.files.get(".gitbook/includes/upgrade-warning.md"), `---\ntitle: Upgrade warning\n---\n${edited}`)
      }))
  })
})
