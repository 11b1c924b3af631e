/**
 * Reading repositories written the way GitBook writes them (issue 20): SUMMARY.md's group anchors,
 * link titles and entries without links, and assets that live beside pages rather than in
 * `.gitbook/assets/`. The fixture is written for these tests from GitBook's documented syntax.
 */
import { Result } from "effect"
import { assert, describe, it } from "vitest"
import { readRepository, type RepoPage, type RepositoryContent, writeRepository } from "../src/layout/Layout.ts"
import { parseSummary } from "../src/layout/Summary.ts"
import { gitbookFixture } from "./fixtures/GitbookRepo.ts"

const encoder = new TextEncoder()

const repo = (files: Record<string, string | Uint8Array>) =>
  new Map(Object.entries(files).map(([path, value]) => {
    const bytes = typeof value === "string" ? encoder.encode(value) : value
    return [path, { oid: `oid-${path}-${bytes.length}`, bytes }] as const
  }))

const read = (files: ReturnType<typeof repo>): RepositoryContent => {
  const result = readRepository(files)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const outline = (pages: ReadonlyArray<RepoPage>, depth = 0): Array<string> =>
  pages.flatMap((p) => [
    `${"  ".repeat(depth)}${p.kind} ${p.title} /${p.slug}${p.linkTitle === undefined ? "" : ` "${p.linkTitle}"`}`,
    ...outline(p.children, depth + 1)
  ])

describe("reading GitBook's SUMMARY.md", () => {
  it("gives a group the slug of its heading's anchor, keeps link titles, and makes entries without links groups", () => {
    const content = read(repo(gitbookFixture))
    assert.deepStrictEqual(outline(content.pages), [
      "document Mining handbook /mining-handbook",
      "group Get Started /getting-started",
      "  document Getting started with mining /getting-started \"Quickstart\"",
      "  group Concepts /concepts",
      "    document Node types /node-types",
      "    document Rigs and pools /rigs \"Rigs\"",
      "group Reference /reference",
      "  document Glossary /glossary"
    ])
  })

  it("parses link titles in double quotes, single quotes and parentheses, and anchors on group headings", () => {
    const summary = parseSummary([
      "## Start here <a href=\"#start\" id=\"start\"></a>",
      "* [A](a.md \"Label A\")",
      "* [B](<b c.md> 'Label B')",
      "* [C](c.md (Label C))",
      "* [D](d.md)",
      "* Not a link"
    ].join("\n"))
    const [group] = summary.nodes
    assert.strictEqual(group?.kind === "group" ? group.slug : undefined, "start")
    assert.strictEqual(group?.title, "Start here")
    assert.deepStrictEqual(group?.children.map((e) => [e.title, e.target, e.label, e.unlinked]), [
      ["A", "a.md", "Label A", undefined],
      ["B", "b c.md", "Label B", undefined],
      ["C", "c.md", "Label C", undefined],
      ["D", "d.md", undefined, undefined],
      ["Not a link", "", undefined, true]
    ])
  })

  it("warns about an entry without link that holds nothing, and reads on", () => {
    const content = read(repo({ "README.md": "# Home\n", "SUMMARY.md": "* [Home](README.md)\n* Loose words\n" }))
    assert.deepStrictEqual(outline(content.pages), ["document Home /home"])
    assert.include(content.warnings.join("\n"), "\"Loose words\" is not a link and holds no entries")
  })
})

describe("reading assets wherever pages keep them", () => {
  it("imports every file a page refers to, beside it or in another folder, and the assets folder", () => {
    const content = read(repo(gitbookFixture))
    assert.deepStrictEqual(content.files.map((f) => [f.path, f.name]).toSorted(), [
      ["docs/.gitbook/assets/image (3).png", "image (3).png"],
      ["docs/mining/files/checklist.pdf", "checklist.pdf"],
      ["docs/mining/images/pool.png", "pool.png"],
      ["docs/mining/images/rig.png", "rig.png"],
      ["docs/mining/setup/img/logo small.png", "logo small.png"]
    ])
    // Bodies keep such references as written (relative, from the page's file).
    const quickstart = content.pages[1]!.children[0]!
    assert.include(quickstart.markdown, "![The rig](../images/rig.png)")
    assert.include(quickstart.markdown, "![Screenshot](</.gitbook/assets/image (3).png>)")
  })

  it("changes no file when such a repository is exported back without edits", () => {
    const files = repo(gitbookFixture)
    const content = read(files)
    const written = writeRepository({ config: content.config, pages: content.pages, files: content.files }, files)
    if (Result.isFailure(written)) throw new Error(written.failure.message)
    assert.deepStrictEqual([...written.success.changes.keys()], [])
  })
})
