/**
 * Pages read as GitBook's JSON document (`format=document`) carry GitBook's blocks (hints, tabs,
 * code with titles, tables), and a document written back through a change request is stored as
 * GitBook markdown: the blocks it did not change keep their bytes; JSON that is no document is a
 * 400 naming the field. A page's document is kept by revision and page: read again, it reads no
 * markdown, and the page edited in a new revision answers its new document.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { RevisionPage } from "@quire/api"
import { schemas, violations } from "@quire/testkit/GitbookSchemas"
import { backends, raw, spaceWith } from "./Harness.ts"
import { write } from "./SiteFixtures.ts"

/** Every block, inline, text and fragment of a document, in order: the nodes GitBook gives a `key`. */
const keyedNodes = (nodes: ReadonlyArray<unknown>): Array<{ readonly object: string; readonly key?: unknown }> =>
  nodes.flatMap((node) => {
    const n = node as { object: string; key?: unknown; nodes?: ReadonlyArray<unknown>; fragments?: ReadonlyArray<unknown> }
    return [n, ...keyedNodes(n.nodes ?? []), ...keyedNodes(n.fragments ?? [])]
  })

/** A page of every block Quire reads into GitBook's model. */
const everyBlock = [
  "# Title <a href=\"#custom\" id=\"custom\"></a>",
  "",
  "**b** _i_ `c` ~~s~~ <mark style=\"color:red;\">red</mark> <kbd>K</kbd> [a link](https://example.com) [x](#part) $$e=mc^2$$ <i class=\"fa-check\">:check:</i> a [note](#user-content-fn-1)[^1]",
  "",
  "* one",
  "  * nested",
  "",
  "1. first",
  "",
  "* [x] done",
  "",
  "> quoted",
  "",
  "{% hint style=\"success\" icon=\"books\" %}",
  "Done.",
  "{% endhint %}",
  "",
  "{% stepper %}",
  "{% step %}",
  "### Step one",
  "{% endstep %}",
  "{% endstepper %}",
  "",
  "{% columns %}",
  "{% column width=\"50%\" %}",
  "Left",
  "{% endcolumn %}",
  "{% endcolumns %}",
  "",
  "<details>",
  "",
  "<summary>More</summary>",
  "",
  "Hidden.",
  "",
  "</details>",
  "",
  "{% code title=\"a.ts\" lineNumbers=\"true\" %}",
  "```ts",
  "const a = 1",
  "```",
  "{% endcode %}",
  "",
  "$$",
  "x^2",
  "$$",
  "",
  "{% embed url=\"https://youtu.be/x\" %}",
  "A video",
  "{% endembed %}",
  "",
  "<figure><img src=\"https://example.com/a.png\" alt=\"A\" width=\"300\"><figcaption><p>Caption</p></figcaption></figure>",
  "",
  "<table data-view=\"cards\"><thead><tr><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th><th data-hidden data-card-cover data-type=\"image\">Cover image</th></tr></thead><tbody><tr><td><strong>Go</strong></td><td><a href=\"https://example.com\">x</a></td><td><a href=\"https://example.com/cover.png\">cover.png</a></td></tr></tbody></table>",
  "",
  "{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}",
  "[OpenAPI pets](https://example.com/pets.yaml)",
  "{% endopenapi-operation %}",
  "",
  "{% if visitor.claims.beta %}",
  "Beta.",
  "{% endif %}",
  "",
  "***",
  "",
  "[^1]: The note.",
  ""
].join("\n")

const markdown = [
  "Intro  with  the author's   spacing.",
  "",
  "{% hint style=\"warning\" %}",
  "Back up first.",
  "{% endhint %}",
  "",
  "{% tabs %}",
  "{% tab title=\"npm\" %}",
  "```bash",
  "npm i quire",
  "```",
  "{% endtab %}",
  "{% endtabs %}",
  "",
  "| Name | Age |",
  "|------|----:|",
  "| Ann  |   3 |",
  ""
].join("\n")

const text = (document: unknown) => JSON.stringify(document)

for (const backend of backends) {
  layer(backend.layer, { timeout: 120_000, excludeTestServices: true })(`pages as GitBook documents on ${backend.name}`, (it) => {
    it.effect("a page reads as GitBook's blocks, and its document written back with one block changed changes only that block's lines", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        yield* write(api, space.id, [{ operation: "insert_page", title: "Setup", document: { markdown } }])
        const pageId = (yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })).pages[0]!.id
        const read = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId }, query: { format: "document" } })
        const nodes = read.document!.nodes as ReadonlyArray<{ type: string; data?: Record<string, unknown>; nodes?: ReadonlyArray<{ type: string; data?: unknown }> }>
        assert.deepStrictEqual(nodes.map((n) => n.type), ["paragraph", "hint", "tabs", "table"])
        assert.deepStrictEqual(nodes[1]!.data, { style: "warning" })
        assert.deepStrictEqual(nodes[2]!.nodes?.map((n) => [n.type, n.data]), [["tabs-item", { title: "npm" }]])

        // The hint becomes a danger hint; everything else is sent back as it was read.
        const edited = { ...read.document!, nodes: nodes.map((n, i) => (i === 1 ? { ...n, data: { style: "danger" } } : n)) }
        yield* write(api, space.id, [{ operation: "update_page", page: pageId, document: { document: edited } }])
        const stored = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId }, query: { format: "markdown" } })
        assert.strictEqual(stored.markdown, markdown.replace("{% hint style=\"warning\" %}", "{% hint style=\"danger\" %}"))

        // Every block of a page, as GitBook's spec shapes them.
        yield* write(api, space.id, [{ operation: "insert_page", title: "Blocks", document: { markdown: everyBlock } }])
        const blocksId = (yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })).pages.find((p) => p.title === "Blocks")!.id
        const blocks = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId: blocksId }, query: { format: "document" } })
        const types = (blocks.document!.nodes as ReadonlyArray<{ type: string }>).map((n) => n.type)
        assert.deepStrictEqual(types, ["heading-1", "paragraph", "list-unordered", "list-ordered", "list-tasks", "blockquote", "hint", "stepper", "columns", "expandable", "code", "math", "embed", "images", "table", "openapi-operation", "if", "divider"])
        assert.deepStrictEqual(violations(blocks.document, schemas["JSONDocument"]!, "document"), [])
        // What GitBook's renderer read wrong before: a hint's icon, an embed's caption, a card's cover
        // (a URL's reference where a cell's key made it fail), `###` as heading-2.
        const byType = (type: string) => (blocks.document!.nodes as ReadonlyArray<{ type: string; data?: Record<string, unknown>; fragments?: ReadonlyArray<{ fragment: string }> }>).find((n) => n.type === type)!
        assert.deepStrictEqual(byType("hint").data, { style: "success", icon: "books" })
        assert.deepStrictEqual(byType("embed").fragments?.map((f) => f.fragment), ["caption"])
        assert.deepStrictEqual((byType("table").data!["records"] as Record<string, { values: Record<string, unknown> }>)["r0"]!.values["c2"], { kind: "url", url: "https://example.com/cover.png" })
        const step = (byType("stepper") as unknown as { nodes: ReadonlyArray<{ nodes: ReadonlyArray<{ type: string }> }> }).nodes[0]!.nodes[0]!
        assert.strictEqual(step.type, "heading-2")
        // A footnote is GitBook's annotation of the words it follows, its definition the body (no block).
        const note = (byType("paragraph") as unknown as { nodes: ReadonlyArray<{ type?: string; fragments?: ReadonlyArray<{ type: string; nodes: ReadonlyArray<unknown> }> }> }).nodes.find((n) => n.type === "annotation")
        assert.deepStrictEqual(note?.fragments?.map((f) => [f.type, f.nodes.length]), [["annotation-body", 1]])
        assert.notInclude(JSON.stringify(blocks.document!.nodes), "[^1]")
        assert.deepStrictEqual(violations(read.document, schemas["JSONDocument"]!, "document"), [])
        // GitBook's renderer keys its lists and names tabs and task items by each node's `key`:
        // every node has one, no two the same, and the page reads with the same keys again.
        const all = keyedNodes(blocks.document!.nodes)
        assert.deepStrictEqual(all.filter((n) => typeof n.key !== "string").map((n) => n.object), [])
        assert.strictEqual(new Set(all.map((n) => n.key)).size, all.length)
        const again = yield* api.revisions.getPageDocumentInRevisionById({
          params: { spaceId: space.id, revisionId: (yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })).id, pageId: blocksId },
          query: {}
        })
        assert.deepStrictEqual(keyedNodes(again.nodes).map((n) => n.key), all.map((n) => n.key))
        // The check itself tells a block GitBook would refuse.
        assert.isNotEmpty(violations({ object: "document", data: {}, nodes: [{ object: "block", type: "hint", data: { style: "bogus" }, nodes: [] }] }, schemas["JSONDocument"]!, "document"))
        assert.isNotEmpty(violations({ object: "document", data: {}, nodes: [{ object: "block", type: "image", data: {} }] }, schemas["JSONDocument"]!, "document"))

        const cr = yield* api.changeRequests.createChangeRequest({ params: { spaceId: space.id }, payload: { subject: "Bad" } })
        const bad = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: JSON.stringify({ changes: [{ operation: "update_page", page: pageId, document: { document: { object: "page", nodes: [] } } }] })
        })
        assert.strictEqual(bad.status, 400)
        assert.include(JSON.stringify(bad.body), "changes[0].document.document")
        // A document nested deeper than any page is refused, not walked until the stack runs out.
        // (Written as text: JSON.stringify itself recurses.)
        const bottom = JSON.stringify({ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "bottom", marks: [] }] }] })
        const deep = `${"{\"object\":\"block\",\"type\":\"blockquote\",\"nodes\":[".repeat(20_000)}${bottom}${"]}".repeat(20_000)}`
        const tooDeep = yield* raw("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
          token: alice.token,
          body: `{"changes":[{"operation":"update_page","page":${JSON.stringify(pageId)},"document":{"document":{"object":"document","data":{},"nodes":[${deep}]}}}]}`
        })
        assert.strictEqual(tooDeep.status, 400, JSON.stringify(tooDeep.body).slice(0, 300))
        assert.include(JSON.stringify(tooDeep.body), "changes[0].document.document")
      }))

    it.effect("a page's document read again reads no markdown, and the page edited in a new revision answers its new document", () =>
      Effect.gen(function*() {
        const { alice, space } = yield* spaceWith()
        const api = alice.api
        const word = `kept${Date.now()}`
        yield* write(api, space.id, [{ operation: "insert_page", title: "Kept", document: { markdown: `# Kept\n\nThe word is ${word}.\n` } }])
        const revision = yield* api.spaceContent.getCurrentRevision({ params: { spaceId: space.id }, query: {} })
        const pageId = revision.pages[0]!.id
        const path = `/v1/spaces/${space.id}/content/page/${pageId}`
        const first = yield* raw("GET", path, { token: alice.token })
        assert.strictEqual(first.status, 200)
        assert.include(text((first.body as RevisionPage).document), word)
        // The answer is what the endpoint's encoder writes: nothing its schema would leave out.
        assert.deepStrictEqual(Schema.encodeSync(RevisionPage)(Schema.decodeUnknownSync(RevisionPage)(first.body)), first.body)

        // The page's markdown leaves the store under the server (nothing else removes a document a
        // revision points to), so that a read that reads it fails, then comes back.
        // The suite runs on the databases (`backends`), whose SqlClient is the server's.
        const sql = Option.getOrThrow(yield* Effect.serviceOption(SqlClient.SqlClient))
        const stored = yield* sql<{ hash: string; markdown: string }>`SELECT hash, markdown FROM content_documents WHERE markdown LIKE ${`%${word}%`}`
        assert.strictEqual(stored.length, 1)
        yield* sql`DELETE FROM content_documents WHERE hash = ${stored[0]!.hash}`
        assert.strictEqual((yield* raw("GET", `${path}?format=markdown`, { token: alice.token })).status, 500)
        const again = yield* raw("GET", path, { token: alice.token })
        assert.strictEqual(again.status, 200)
        assert.deepStrictEqual(again.body, first.body)
        const byPath = yield* api.spaceContent.getPageByPath({ params: { spaceId: space.id, pagePath: "kept" }, query: {} })
        assert.include(text(byPath.document), word)
        const inRevision = yield* api.revisions.getPageInRevisionById({ params: { spaceId: space.id, revisionId: revision.id, pageId }, query: {} })
        assert.include(text(inRevision.document), word)
        yield* sql`INSERT INTO content_documents ${sql.insert(stored[0]!)}`

        yield* write(api, space.id, [{ operation: "update_page", page: pageId, document: { markdown: "# Kept\n\nThe word is edited.\n" } }])
        const edited = yield* api.spaceContent.getPageById({ params: { spaceId: space.id, pageId }, query: {} })
        assert.include(text(edited.document), "edited")
        assert.notInclude(text(edited.document), word)
        // The old revision still answers its own document.
        const old = yield* api.revisions.getPageInRevisionById({ params: { spaceId: space.id, revisionId: revision.id, pageId }, query: {} })
        assert.include(text(old.document), word)
      }))
  })
}
