/**
 * GitBook's own client (`@gitbook/api`) reading a page as GitBook's JSON document, which carries no
 * copy of the page's markdown, and that document written back: onto the page, the page's own
 * spelling (bullets, emphasis, deep headings, table padding) is kept from the page before; as a new
 * page, it is written in GitBook's style and reads as the same blocks.
 */
import { assert, layer } from "@effect/vitest"
import { GitBookAPI } from "@gitbook/api"
import { Effect } from "effect"
import { backends, baseUrl, mergeIntoMain, spaceWith } from "./Harness.ts"

interface DocumentPage {
  readonly id: string
  readonly document?: { readonly object: string; readonly data: Record<string, unknown>; readonly nodes: ReadonlyArray<{ readonly type: string; readonly key?: string }> }
}

/** The part of GitBook's client this test uses (its published typings cannot be resolved under NodeNext). */
interface GitBookClient {
  readonly spaces: {
    getPageByPath(spaceId: string, pagePath: string, query?: { format?: "markdown" | "document" }): Promise<{ readonly status: number; readonly data: DocumentPage }>
  }
}

const styled = [
  "Intro  with *odd*   spacing and \\[brackets].",
  "",
  "- one",
  "- two",
  "",
  "",
  "#### A fourth-level heading",
  "",
  "| Name | Value |",
  "|:-----|------:|",
  "| a    |     1 |",
  "",
  "~~~js",
  "let x = 1",
  "~~~",
  ""
].join("\n")

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`@gitbook/api documents on ${backend.name}`, (it) => {
    it.effect("a page read as GitBook's document by GitBook's client: written back onto the page it keeps its spelling, as a new page it reads as the same blocks", () =>
      Effect.gen(function*() {
        const setup = yield* spaceWith()
        const api = setup.alice.api
        const spaceId = setup.space.id
        yield* mergeIntoMain(api, spaceId, [{ operation: "insert_page", ref: "styled", title: "Styled", document: { markdown: styled } }])

        const gitbook = new GitBookAPI({ endpoint: yield* baseUrl, authToken: setup.alice.token }) as unknown as GitBookClient
        const read = yield* Effect.promise(() => gitbook.spaces.getPageByPath(spaceId, "styled", { format: "document" }))
        const document = read.data.document!
        assert.strictEqual(read.status, 200)
        assert.deepStrictEqual(document.nodes.map((n) => n.type), ["paragraph", "list-unordered", "heading-3", "table", "code"])
        assert.deepStrictEqual(Object.keys(document.data), ["schemaVersion"])

        // Written back onto the page with one paragraph edited: the others keep their spelling.
        const page = read.data.id
        const edited = { ...document, nodes: document.nodes.map((node, i) => (i === 0 ? { ...node, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Intro, edited.", marks: [] }] }] } : node)) }
        yield* mergeIntoMain(api, spaceId, [{ operation: "update_page", page, document: { document: edited } }])
        const updated = yield* api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "styled" }, query: { format: "markdown" } })
        assert.strictEqual(updated.markdown, styled.replace("Intro  with *odd*   spacing and \\[brackets].", "Intro, edited."))

        // A new page has no page before: GitBook's style, the same blocks.
        yield* mergeIntoMain(api, spaceId, [{ operation: "insert_page", ref: "copy", title: "Copy", document: { document } }])
        const copy = yield* api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "copy" }, query: { format: "markdown" } })
        assert.include(copy.markdown, "* one\n* two")
        assert.include(copy.markdown, "_odd_")
        const again = yield* Effect.promise(() => gitbook.spaces.getPageByPath(spaceId, "copy", { format: "document" }))
        const blocks = (nodes: ReadonlyArray<unknown>) => JSON.parse(JSON.stringify(nodes, (key, value: unknown) => (key === "key" ? undefined : value))) as unknown
        assert.deepStrictEqual(blocks(again.data.document!.nodes), blocks(document.nodes))
      }))
  })
}
