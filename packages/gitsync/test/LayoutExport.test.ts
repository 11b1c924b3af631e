/** The layout's writing side in GitBook's style, over files written in GitBook's syntax: frontmatter as GitBook's js-yaml writes it. */
import { Result } from "effect"
import { assert, describe, it } from "vitest"
import { type ContentToWrite, readRepository, type RepoPage, type RepositoryFiles, writeRepository } from "../src/layout/Layout.ts"

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const repo = (files: Record<string, string>): RepositoryFiles =>
  new Map(Object.entries(files).map(([path, text]) => [path, { oid: `oid-${path}`, bytes: encoder.encode(text) }]))

const write = (content: ContentToWrite, previous: RepositoryFiles) => {
  const result = writeRepository(content, previous)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return new Map([...result.success.changes].map(([path, bytes]) => [path, bytes === null ? null : decoder.decode(bytes)]))
}

const long = "Widgets ship with a command line, a web console and an API, and this page shows how the three fit together in one deployment."

const files = repo({
  "SUMMARY.md": "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n",
  "README.md": "---\ndescription: Short.\ntags:\n  - home\n---\n\n# Home\n\nWelcome.\n",
  "guide.md": "# Guide\n\nRead on.\n"
})

const read = () => {
  const result = readRepository(files)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const withPages = (edit: (page: RepoPage) => RepoPage, add: ReadonlyArray<RepoPage> = []): ContentToWrite => {
  const content = read()
  return { ...content, pages: [...content.pages.map(edit), ...add] }
}

/** A new title-only page with a description. */
const page = (title: string, slug: string, description: string): RepoPage => ({ kind: "document", title, slug, markdown: "", description, children: [] })

describe("frontmatter in GitBook's style", () => {
  it("a long description is folded at 80 columns (`>-`), in place, other keys kept", () => {
    const changes = write(withPages((p) => p.title === "Home" ? { ...p, description: long } : p), files)
    assert.deepStrictEqual([...changes.keys()], ["README.md"])
    assert.strictEqual(changes.get("README.md"), [
      "---",
      "description: >-",
      "  Widgets ship with a command line, a web console and an API, and this page",
      "  shows how the three fit together in one deployment.",
      "tags:",
      "  - home",
      "---",
      "",
      "# Home",
      "",
      "Welcome.",
      ""
    ].join("\n"))
  })

  it("a new page's long description is folded too; a short one stays on its line", () => {
    const changes = write(withPages((p) => p, [page("Deploy", "deploy", long), page("Rollback", "rollback", "Undo a deployment.")]), files)
    assert.strictEqual(changes.get("deploy.md"), [
      "---",
      "description: >-",
      "  Widgets ship with a command line, a web console and an API, and this page",
      "  shows how the three fit together in one deployment.",
      "---",
      "",
      "# Deploy",
      "",
      ""
    ].join("\n"))
    assert.strictEqual(changes.get("rollback.md"), "---\ndescription: Undo a deployment.\n---\n\n# Rollback\n\n")
  })

  it("a description GitBook would quote (a no-break space) is not folded", () => {
    const quoted = `${long}\u00a0Really.`
    const changes = write(withPages((p) => p.title === "Guide" ? { ...p, description: quoted } : p), files)
    const text = changes.get("guide.md") ?? ""
    assert.notInclude(text, ">-")
    const back = readRepository(new Map([...files, ["guide.md", { oid: "x", bytes: encoder.encode(text) }]]))
    assert.isTrue(Result.isSuccess(back) && back.success.pages.find((p) => p.title === "Guide")?.description === quoted)
  })
})
