/**
 * GitBook's own client (`@gitbook/api`) reading a page as GitBook's JSON document, and that document
 * written back as a new page: the page's own spelling (bullets, emphasis, deep headings, table
 * padding) survives through the document alone, in its `data.markdownSlices`.
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
    it.effect("a page read as GitBook's document by GitBook's client and written back as a new page is the same markdown", () =>
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
        assert.isTrue(Array.isArray(document.data["markdownSlices"]))

        // A new page has no page before: only the document says how it was written.
        yield* mergeIntoMain(api, spaceId, [{ operation: "insert_page", ref: "copy", title: "Copy", document: { document } }])
        const copy = yield* api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "copy" }, query: { format: "markdown" } })
        assert.strictEqual(copy.markdown, styled)

        // Without its slices (a document GitBook's editor made), the page is written in GitBook's style.
        const { markdownSlices: _slices, ...data } = document.data
        yield* mergeIntoMain(api, spaceId, [{ operation: "insert_page", ref: "plain", title: "Plain", document: { document: { ...document, data } } }])
        const plain = yield* api.spaceContent.getPageByPath({ params: { spaceId, pagePath: "plain" }, query: { format: "markdown" } })
        assert.include(plain.markdown, "* one\n* two")
        assert.include(plain.markdown, "_odd_")
      }))
  })
}
