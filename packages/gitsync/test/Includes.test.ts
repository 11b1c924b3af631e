/** GitBook's `.gitbook/includes/` read from a repository's files and written back, as pure functions. */
import { assert, describe, it } from "@effect/vitest"
import { defaultConfig } from "../src/layout/ConfigFile.ts"
import { includeFolders, readIncludes, writeIncludes } from "../src/layout/Includes.ts"
import { readRepository, type RepositoryFiles, writeRepository } from "../src/layout/Layout.ts"
import { Result } from "effect"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const filesOf = (files: Record<string, string>): RepositoryFiles =>
  new Map(Object.entries(files).map(([path, text], i) => [path, { oid: `oid-${i}`, bytes: encoder.encode(text) }]))

// Written the way GitBook exports a reusable content: a `title` frontmatter, a blank line, the body.
const warning = "---\ntitle: Upgrade warning\n---\n\n{% hint style=\"warning\" %}\nBack up your data first.\n{% endhint %}\n"
const untitled = "Contact **support@example.com**.\n"

describe("includes", () => {
  it("reads the includes of the documentation root and the project directory, titled by frontmatter or file name", () => {
    const files = filesOf({
      "docs/.gitbook.yaml": "root: ./content/\n",
      "docs/content/README.md": "# Home\n",
      "docs/content/.gitbook/includes/upgrade-warning.md": warning,
      "docs/.gitbook/includes/support.md": untitled,
      "docs/content/.gitbook/includes/nested/skipped.md": "Not an include.\n",
      "docs/content/.gitbook/includes/logo.png": "png",
      "other/.gitbook/includes/elsewhere.md": "Another project's.\n"
    })
    const folders = includeFolders("docs", { ...defaultConfig, root: "./content/" })
    assert.deepStrictEqual(folders, ["docs/content/.gitbook/includes", "docs/.gitbook/includes"])
    const read = readIncludes(files, folders)
    assert.deepStrictEqual(read.map((i) => [i.path, i.title]), [
      ["docs/.gitbook/includes/support.md", "support"],
      ["docs/content/.gitbook/includes/upgrade-warning.md", "Upgrade warning"]
    ])
    assert.strictEqual(read[1]!.markdown, "\n{% hint style=\"warning\" %}\nBack up your data first.\n{% endhint %}\n")
    assert.strictEqual(read[0]!.markdown, untitled)
  })

  it("writes nothing for includes that did not change, and an edited or new one in GitBook's form", () => {
    const previous = filesOf({ ".gitbook/includes/upgrade-warning.md": warning, ".gitbook/includes/support.md": untitled })
    const folders = includeFolders("", defaultConfig)
    const read = readIncludes(previous, folders)
    assert.strictEqual(writeIncludes(read, previous, folders).size, 0)

    const changes = writeIncludes(
      [
        { ...read[1]!, markdown: "\nBack up, then upgrade.\n" },
        read[0]!,
        { title: "Release note: 2.0", markdown: "Version 2.0 is out.\n" },
        { title: "Upgrade warning", markdown: "A second block with a taken name.\n" }
      ],
      previous,
      folders
    )
    assert.deepStrictEqual([...changes.keys()], [
      ".gitbook/includes/upgrade-warning.md",
      ".gitbook/includes/release-note-2-0.md",
      ".gitbook/includes/upgrade-warning-2.md"
    ])
    assert.strictEqual(decoder.decode(changes.get(".gitbook/includes/upgrade-warning.md")), "---\ntitle: Upgrade warning\n---\n\nBack up, then upgrade.\n")
    assert.strictEqual(decoder.decode(changes.get(".gitbook/includes/release-note-2-0.md")), "---\ntitle: \"Release note: 2.0\"\n---\n\nVersion 2.0 is out.\n")
    // What was written reads back as it was given.
    const after = new Map([...previous, ...[...changes].map(([path, bytes]) => [path, { oid: "new", bytes }] as const)])
    assert.deepStrictEqual(readIncludes(after, folders).find((i) => i.path.endsWith("release-note-2-0.md"))?.title, "Release note: 2.0")
  })

  it("a page that moves to another folder keeps its includes resolving: their paths follow it", () => {
    const previous = filesOf({
      "README.md": "# Welcome\n",
      "SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Upgrade](guides/upgrade.md)\n",
      "guides/README.md": "# Guides\n",
      "guides/upgrade.md": "# Upgrade\n\n{% include \"../.gitbook/includes/upgrade-warning.md\" %}\n",
      ".gitbook/includes/upgrade-warning.md": warning
    })
    const read = Result.getOrThrow(readRepository(previous))
    const [welcome, guides] = read.pages
    const upgrade = guides!.children[0]!
    // Upgrade leaves Guides for the top level.
    const written = Result.getOrThrow(writeRepository({ ...read, pages: [welcome!, { ...guides!, children: [] }, upgrade] }, previous))
    assert.strictEqual(written.changes.get("guides/upgrade.md"), null)
    assert.strictEqual(decoder.decode(written.changes.get("upgrade.md")!), "# Upgrade\n\n{% include \".gitbook/includes/upgrade-warning.md\" %}\n")
    assert.isFalse(written.changes.has(".gitbook/includes/upgrade-warning.md"))
  })
})
