/** Each GitBook block of a page's markdown in GitBook's document shape, and written back. */
import { assert, describe, it } from "@effect/vitest"
import { documentMarkdown, type RefWriter } from "../../src/markdown/DocumentMarkdown.ts"
import type { JsonBlock, RefResolver } from "../../src/markdown/JsonDocument.ts"
import type { Fragment, Leaf } from "../../src/markdown/GitbookModel.ts"
import { toJsonDocument } from "../../src/markdown/JsonDocument.ts"
// GitBook's spec (`@gitbook/api`'s openapi.json) as a checker, the one the server's tests hold its answers to.
import { schemas, violations } from "@quire/testkit/GitbookSchemas"

const only = (markdown: string): JsonBlock => {
  const nodes = toJsonDocument(markdown, (url) => ({ kind: "url", url }), (ref) => ref).nodes
  assert.strictEqual(nodes.length, 1, JSON.stringify(nodes))
  return nodes[0]!
}
const p = (text: string): JsonBlock => ({ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }] })
/** As Quire resolves a page's references: files of the revision (`.gitbook/assets/…`) by id, anything else a URL; and back. */
const assetRefs: RefResolver = (url) => (url.startsWith(".gitbook/assets/") ? { kind: "file", file: `f-${url.slice(16)}` } : { kind: "url", url })
const assetWriter: RefWriter = (ref) => (ref.kind === "file" ? `.gitbook/assets/${ref.file.slice(2)}` : ref.kind === "url" ? ref.url : "")
/** GitBook's caption fragment of one paragraph of `leaves`. */
const caption = (leaves: ReadonlyArray<Leaf>): Array<Fragment> => [{ object: "fragment", fragment: "caption", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves }] }] }]
/**
 * `markdown` written back from its document beside the page before (as a page's update is); alone
 * (a GitBook client's new page) the document is written in GitBook's style, which reads as the same blocks.
 */
const back = (markdown: string) => {
  const refs = (url: string) => ({ kind: "url" as const, url })
  const includes = (ref: string) => ref
  const document = toJsonDocument(markdown, refs, includes)
  assert.deepStrictEqual(toJsonDocument(documentMarkdown(document), refs, includes), document, "written from the document alone, it reads as the same blocks")
  return documentMarkdown(document, { base: { markdown, refs, includes } })
}

describe("GitBook blocks of a page's document", () => {
  it("a hint is GitBook's hint with its style", () => {
    const md = "{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n"
    assert.deepStrictEqual(only(md), { object: "block", type: "hint", isVoid: false, data: { style: "warning" }, nodes: [p("Careful.")] })
    assert.strictEqual(back(md), md)
  })

  it("a hint's icon is GitBook's data.icon, and is written back", () => {
    const md = "{% hint style=\"success\" icon=\"books\" %}\nRead on.\n{% endhint %}\n"
    const document = toJsonDocument(md)
    assert.deepStrictEqual(document.nodes[0]?.data, { style: "success", icon: "books" })
    assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
    assert.strictEqual(documentMarkdown({ nodes: document.nodes }), md)
  })

  it("tabs hold tabs-items with their titles; steppers steps; columns columns with widths", () => {
    const tabs = "{% tabs %}\n{% tab title=\"npm\" %}\nnpm i\n{% endtab %}\n\n{% tab title=\"yarn\" %}\nyarn add\n{% endtab %}\n{% endtabs %}\n"
    const block = only(tabs)
    assert.strictEqual(block.type, "tabs")
    assert.deepStrictEqual(block.nodes?.map((n) => [n.object === "block" ? n.type : "", n.object === "block" ? n.data : {}]), [["tabs-item", { title: "npm" }], ["tabs-item", { title: "yarn" }]])
    assert.strictEqual(back(tabs), tabs, JSON.stringify(back(tabs)))
    const stepper = only("{% stepper %}\n{% step %}\nOne\n{% endstep %}\n{% endstepper %}\n")
    assert.deepStrictEqual([stepper.type, stepper.nodes?.[0]?.object === "block" ? stepper.nodes[0].type : ""], ["stepper", "stepper-step"])
    const columns = only("{% columns %}\n{% column width=\"50%\" %}\nLeft\n{% endcolumn %}\n{% endcolumns %}\n")
    assert.deepStrictEqual(columns.nodes?.[0]?.object === "block" ? columns.nodes[0].data : undefined, { width: { unit: "%", value: 50 } })
  })

  it("an expandable has its title and body as fragments", () => {
    const md = "<details>\n\n<summary>More <strong>here</strong></summary>\n\nHidden.\n\n</details>\n"
    const block = only(md)
    assert.deepStrictEqual([block.type, block.isVoid, block.fragments?.map((f) => [f.fragment, f.type])], ["expandable", true, [["expandable-title", "expandable-title"], ["expandable-body", "expandable-body"]]])
    assert.deepStrictEqual(block.fragments?.[1]?.nodes, [p("Hidden.")])
  })

  it("tabs and expandables have GitBook's meta.id, after the headings' and as the published page names them", () => {
    const md = [
      "## Install", "", "{% tabs %}", "{% tab title=\"macOS (Intel)\" %}", "mac", "{% endtab %}", "{% tab title=\"Install\" %}", "same", "{% endtab %}",
      "{% tab title=\"🚀\" %}", "none", "{% endtab %}", "{% endtabs %}", "", "<details>", "", "<summary>How do I <code>reset</code>?</summary>", "", "Body.", "", "</details>", ""
    ].join("\n")
    const nodes = toJsonDocument(md).nodes
    const tabs = nodes[1]!.nodes as ReadonlyArray<JsonBlock>
    assert.deepStrictEqual([nodes[0]!.meta, ...tabs.map((t) => t.meta), nodes[2]!.meta], [
      { id: "install" }, { id: "macos-intel" }, { id: "install-1" }, undefined, { id: "how-do-i-reset" }
    ])
  })

  it("code keeps its title, line numbers and overflow, a line per code-line", () => {
    const md = "{% code title=\"app.ts\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```ts\nconst a = 1\nconst b = 2\n```\n{% endcode %}\n"
    const block = only(md)
    assert.deepStrictEqual(block.data, { syntax: "ts", title: "app.ts", overflow: "wrap", lineNumbers: true })
    assert.deepStrictEqual(block.nodes?.map((n) => (n.object === "block" ? n.type : "")), ["code-line", "code-line"])
    assert.strictEqual(back(md), md)
  })

  it("embeds, files, content references, math, includes and OpenAPI operations are GitBook's void blocks", () => {
    assert.deepStrictEqual(only("{% embed url=\"https://youtu.be/x\" %}\n"), { object: "block", type: "embed", isVoid: true, data: { url: "https://youtu.be/x" } })
    assert.deepStrictEqual(toJsonDocument("{% file src=\"/files/f1\" %}\n").nodes[0]!.data, { ref: { kind: "file", file: "f1" } })
    assert.deepStrictEqual(only("{% content-ref url=\"b.md\" %}\n[b.md](b.md)\n{% endcontent-ref %}\n").type, "content-ref")
    assert.deepStrictEqual(only("$$\nx^2\n$$\n"), { object: "block", type: "math", isVoid: true, data: { formula: "x^2" } })
    assert.deepStrictEqual(only("{% include \"../.gitbook/includes/a.md\" %}\n").data, { ref: { kind: "reusable-content", reusableContent: "../.gitbook/includes/a.md" } })
    assert.deepStrictEqual(only("{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}\n[OpenAPI pets](x)\n{% endopenapi-operation %}\n").data, { ref: { kind: "openapi", spec: "pets" }, path: "/pets", method: "get" })
    assert.deepStrictEqual(only("{% openapi-schemas spec=\"pets\" schemas=\"Pet,Tag\" grouped=\"false\" %}\n[OpenAPI pets](x)\n{% endopenapi-schemas %}\n").data, { ref: { kind: "openapi", spec: "pets" }, schemas: ["Pet", "Tag"], grouped: false })
    assert.deepStrictEqual(only("{% swagger src=\"a.yaml\" path=\"/p\" method=\"post\" %}\n[a.yaml](a.yaml)\n{% endswagger %}\n").data, { ref: { kind: "url", url: "a.yaml" }, path: "/p", method: "post" })
    assert.deepStrictEqual(only("{% @figma/embed url=\"https://figma.com/x\" %}\n").data, { integration: "figma", block: "embed", props: { url: "https://figma.com/x" } })
  })

  it("an embed's and a file's caption is GitBook's caption fragment, not dropped, and is written back", () => {
    const md = "{% embed url=\"https://youtu.be/x\" %}\nA **short** video\n{% endembed %}\n\n{% file src=\"/files/f1\" %}\nThe manual.\n{% endfile %}\n"
    const document = toJsonDocument(md)
    assert.deepStrictEqual(document.nodes.map((n) => [n.type, n.fragments]), [
      ["embed", caption([{ object: "leaf", text: "A ", marks: [] }, { object: "leaf", text: "short", marks: [{ object: "mark", type: "bold" }] }, { object: "leaf", text: " video", marks: [] }])],
      ["file", caption([{ object: "leaf", text: "The manual.", marks: [] }])]
    ])
    assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
    assert.strictEqual(documentMarkdown({ nodes: document.nodes }), md)
    // Without a caption, no fragment: the tag alone.
    assert.deepStrictEqual(only("{% embed url=\"https://youtu.be/x\" %}\n").fragments, undefined)
  })

  it("a file block attached by URL (no file of the space) is GitBook's embed of the URL with its caption, as GitBook's file holds a file only; written back as it was", () => {
    const md = "Before.\n\n{% file src=\"https://example.com/x.pdf\" %}\nThe manual.\n{% endfile %}\n\n{% file src=\".gitbook/assets/y.pdf\" %}\n"
    const document = toJsonDocument(md, assetRefs)
    assert.deepStrictEqual(document.nodes.slice(1), [
      { object: "block", type: "embed", isVoid: true, data: { url: "https://example.com/x.pdf" }, fragments: caption([{ object: "leaf", text: "The manual.", marks: [] }]) },
      // A file of the space stays GitBook's file block.
      { object: "block", type: "file", isVoid: true, data: { ref: { kind: "file", file: "f-y.pdf" } } }
    ])
    assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
    assert.strictEqual(documentMarkdown(document, { refs: assetWriter, base: { markdown: md, refs: assetRefs } }), md)
    // Without the page before, it is written as the embed it is, which reads back as the same document.
    const alone = documentMarkdown({ nodes: document.nodes }, { refs: assetWriter })
    assert.strictEqual(alone, "Before.\n\n{% embed url=\"https://example.com/x.pdf\" %}\nThe manual.\n{% endembed %}\n\n{% file src=\".gitbook/assets/y.pdf\" %}\n")
    assert.deepStrictEqual(toJsonDocument(alone, assetRefs).nodes, document.nodes)
  })

  it("footnotes are GitBook's annotations of the words before them, their definitions the bodies; written back as GitBook writes annotations", () => {
    // GitBook's own export: the annotated words linked to the footnote, the definitions at the end.
    const exported = "Input an [0x address](#user-content-fn-1)[^1] or a [Farcaster name](#user-content-fn-2)[^2].\n\n[^1]: e.g. `0xd8`\n[^2]: e.g. `fc_fname:dwr`\n"
    const document = toJsonDocument(exported)
    assert.deepStrictEqual(document.nodes.map((n) => n.type), ["paragraph"])
    const notes = (document.nodes[0]!.nodes ?? []).filter((n) => n.object === "inline")
    assert.deepStrictEqual(notes.map((n) => [n.type, n.nodes, n.fragments?.map((f) => [f.type, f.nodes])]), [
      ["annotation", [{ object: "text", leaves: [{ object: "leaf", text: "0x address", marks: [] }] }], [["annotation-body", [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "e.g. ", marks: [] }, { object: "leaf", text: "0xd8", marks: [{ object: "mark", type: "code" }] }] }] }]]]],
      ["annotation", [{ object: "text", leaves: [{ object: "leaf", text: "Farcaster name", marks: [] }] }], [["annotation-body", [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "e.g. ", marks: [] }, { object: "leaf", text: "fc_fname:dwr", marks: [{ object: "mark", type: "code" }] }] }] }]]]]
    ])
    assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
    assert.notInclude(JSON.stringify(document.nodes), "[^")
    assert.strictEqual(documentMarkdown({ nodes: document.nodes }), exported)
    // A reference written after a word annotates that word; one after no word stays text.
    const written = "A footnote[^1], and a **longer** one[^big]; alone [^x].\n\n[^1]: The first.\n\n[^big]: The second.\n"
    const nodes = toJsonDocument(written).nodes
    assert.deepStrictEqual(nodes[0]!.nodes?.flatMap((n) => (n.object === "inline" ? [n.nodes?.[0]?.object === "text" ? n.nodes[0].leaves[0]!.text : ""] : [])), ["footnote", "one"])
    assert.include(JSON.stringify(nodes[0]), "alone [^x].")
    assert.deepStrictEqual(toJsonDocument("Index with `a[^1]`.\n").nodes[0]!.nodes?.map((n) => n.object), ["text"])
    // Definitions are the page's: in a list they are its words.
    const listed = "* [^1]: not a definition\n"
    assert.deepStrictEqual(toJsonDocument(listed).nodes.map((n) => n.type), ["list-unordered"])
    assert.strictEqual(documentMarkdown({ nodes: toJsonDocument(listed).nodes }), listed)
    assert.strictEqual(documentMarkdown(toJsonDocument(written), { base: { markdown: written } }), written)
    assert.strictEqual(documentMarkdown({ nodes }), "A [footnote](#user-content-fn-1)[^1], and a **longer** [one](#user-content-fn-big)[^big]; alone [^x].\n\n[^1]: The first.\n[^big]: The second.\n")
    // Beside the page before, its paragraph and its definitions are kept as written; an edited
    // definition is written anew, one no annotation refers to any more left out.
    assert.strictEqual(documentMarkdown({ nodes }, { base: { markdown: written } }), written)
    const edited = JSON.parse(JSON.stringify(nodes).replace("The second.", "The new second.").replace("\"footnote-1\"", "\"footnote-gone\""))
    assert.strictEqual(documentMarkdown({ nodes: edited }, { base: { markdown: written } }), "A [footnote](#user-content-fn-gone)[^gone], and a **longer** [one](#user-content-fn-big)[^big]; alone [^x].\n\n[^big]: The new second.\n\n[^gone]: The first.\n")
  })

  it("a footnote whose definition goes on in indented paragraphs is one annotation whose body holds them all, and is written back as it was", () => {
    // GitBook's own example (its docs' "Annotations"): the footnote's further paragraphs and code indented under it.
    const md = "A longer one[^bignote].\n\n[^bignote]: Here's one with multiple paragraphs and code.\n\n    Indent paragraphs to include them in the footnote.\n\n    `{ my code }`\n\n    Add as many paragraphs as you like.\n"
    const document = toJsonDocument(md)
    assert.deepStrictEqual(document.nodes.map((n) => n.type), ["paragraph"])
    const bodyOf = (nodes: ReadonlyArray<JsonBlock>) => nodes.flatMap((n) => n.nodes ?? []).filter((n) => n.object === "inline").map((n) => n.fragments?.[0]?.nodes)
    const code: JsonBlock = { object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "{ my code }", marks: [{ object: "mark", type: "code" }] }] }] }
    assert.deepStrictEqual(bodyOf(document.nodes), [[p("Here's one with multiple paragraphs and code."), p("Indent paragraphs to include them in the footnote."), code, p("Add as many paragraphs as you like.")]])
    assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
    assert.strictEqual(documentMarkdown(document, { base: { markdown: md } }), md)
    // Without the page before (a GitBook client's document), written as GitBook writes it: the further paragraphs indented.
    const alone = documentMarkdown({ nodes: document.nodes })
    assert.strictEqual(alone, "A longer [one](#user-content-fn-bignote)[^bignote].\n\n[^bignote]: Here's one with multiple paragraphs and code.\n\n    Indent paragraphs to include them in the footnote.\n\n    `{ my code }`\n\n    Add as many paragraphs as you like.\n")
    assert.deepStrictEqual(toJsonDocument(alone).nodes, document.nodes)
    // A definition's next lines (indented or not) go on with its first paragraph; the next definition may follow the indented ones directly.
    const lazy = "One[^1] and two[^2].\n\n[^1]: First line\n    goes on.\n\n    Second.\n[^2]: Other.\n"
    assert.deepStrictEqual(bodyOf(toJsonDocument(lazy).nodes), [[p("First line\ngoes on."), p("Second.")], [p("Other.")]])
    assert.strictEqual(documentMarkdown(toJsonDocument(lazy), { base: { markdown: lazy } }), lazy)
    assert.deepStrictEqual(toJsonDocument(documentMarkdown({ nodes: toJsonDocument(lazy).nodes })).nodes, toJsonDocument(lazy).nodes)
  })

  it("an image with a caption and width is an image of an images block, its caption a fragment", () => {
    const md = "<figure><img src=\"a.png\" alt=\"Alt\" width=\"300\"><figcaption><p>A caption</p></figcaption></figure>\n"
    const image = only(md).nodes?.[0] as JsonBlock
    assert.deepStrictEqual(image, { object: "block", type: "image", isVoid: true, data: { ref: { kind: "url", url: "a.png" }, alt: "Alt", width: 300 }, fragments: [{ object: "fragment", fragment: "caption", nodes: [p("A caption")] }] })
    assert.strictEqual(back(md), md)
  })

  it("a table and cards are GitBook's table with a grid or cards view, records and definitions", () => {
    const grid = only("| Name | Age |\n| - | -: |\n| Ann | 3 |\n")
    assert.deepStrictEqual(grid.data?.["view"], { type: "grid", columns: ["c0", "c1"], hideHeader: false })
    assert.deepStrictEqual(grid.data?.["definition"], { c0: { id: "c0", title: "Name", type: "text", textAlignment: "left" }, c1: { id: "c1", title: "Age", type: "text", textAlignment: "right" } })
    assert.deepStrictEqual(grid.data?.["records"], { r0: { orderIndex: "a0000", values: { c0: "r0c0", c1: "r0c1" } } })
    assert.deepStrictEqual(grid.fragments?.find((f) => f.fragment === "r0c0")?.nodes, [p("Ann")])
    const md = "<table data-view=\"cards\"><thead><tr><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th></tr></thead><tbody><tr><td><strong>Start</strong></td><td><a href=\"start.md\">start.md</a></td></tr></tbody></table>\n"
    const cards = only(md)
    assert.deepStrictEqual(cards.data?.["view"], { type: "cards", columns: ["c0"], cardSize: "medium", targetDefinition: "c1" })
    assert.deepStrictEqual((cards.data?.["records"] as Record<string, { values: unknown }> | undefined)?.["r0"]?.values, { c0: "r0c0", c1: { kind: "url", url: "start.md" } })
    assert.deepStrictEqual(cards.fragments?.[0]?.nodes, [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Start", marks: [{ object: "mark", type: "bold" }] }] }] }])
    assert.strictEqual(back(md), md)
  })

  it("a card's cover (an image column) is a file's or a URL's reference, as GitBook's renderer reads a cover, not a cell's key", () => {
    const md = [
      "<table data-view=\"cards\"><thead><tr><th></th><th data-hidden data-card-cover data-type=\"image\">Cover image</th><th data-hidden data-card-cover-dark data-type=\"image\">Cover image (dark)</th></tr></thead>",
      "<tbody><tr><td><strong>Files</strong></td><td><a href=\".gitbook/assets/cli.png\">cli.png</a></td><td><a href=\"https://example.com/cli-dark.png?x=1\">cli-dark.png</a></td></tr>",
      "<tr><td>None</td><td></td><td></td></tr></tbody></table>\n"
    ].join("")
    const document = toJsonDocument(md, assetRefs)
    const cards = document.nodes[0]!
    assert.deepStrictEqual(cards.data?.["view"], { type: "cards", columns: ["c0"], cardSize: "medium", coverDefinition: "c1", coverDefinitionDark: "c2" })
    assert.deepStrictEqual(Object.values(cards.data?.["records"] as Record<string, { values: unknown }>).map((r) => r.values), [
      { c0: "r0c0", c1: { kind: "file", file: "f-cli.png" }, c2: { kind: "url", url: "https://example.com/cli-dark.png?x=1" } },
      { c0: "r1c0", c1: null, c2: null }
    ])
    assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
    // Written back from the document alone (a GitBook client's), the covers are GitBook's links again.
    assert.strictEqual(back(md), md)
    assert.strictEqual(documentMarkdown({ nodes: document.nodes }, { refs: assetWriter }), md)
  })

  it("a column of tags (`<select>` in its header) is GitBook's select column, each card the ids of its options, not the header's HTML as a title", () => {
    const md = [
      "<table data-view=\"cards\"><thead><tr><th></th><th><select multiple><option value=\"a1\" label=\"One user\" color=\"blue\"></option><option value=\"b2\" label=\"$12 &#x26; more\" color=\"red\"></option></select></th></tr></thead>",
      "<tbody><tr><td>Free</td><td><span data-option=\"a1\">One user</span></td></tr><tr><td>Pro</td><td><span data-option=\"a1\">One user, </span><span data-option=\"b2\">$12 &#x26; more</span></td></tr>",
      "<tr><td>None</td><td></td></tr></tbody></table>\n"
    ].join("")
    const document = toJsonDocument(md)
    const cards = document.nodes[0]!
    assert.deepStrictEqual((cards.data!["definition"] as Record<string, unknown>)["c1"], {
      id: "c1", title: "", type: "select", multiple: true, options: [{ value: "a1", label: "One user", color: "blue" }, { value: "b2", label: "$12 & more", color: "red" }]
    })
    assert.deepStrictEqual(Object.values(cards.data?.["records"] as Record<string, { values: Record<string, unknown> }>).map((r) => r.values["c1"]), [["a1"], ["a1", "b2"], []])
    assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
    assert.strictEqual(back(md), md)
    assert.strictEqual(documentMarkdown(document), md)
  })

  it("a link button without a target is GitBook's inactive button (drawn disabled), and is written back", () => {
    const md = "Inactive: <a class=\"button primary\">Not yet</a> and <a href=\"https://example.com\" class=\"button secondary\">Go</a>\n"
    const document = toJsonDocument(md)
    const buttons = (document.nodes[0]!.nodes ?? []).filter((node) => node.object === "inline")
    assert.deepStrictEqual(buttons.map((b) => (b as { data: unknown }).data), [
      { label: "Not yet", kind: "primary" },
      { label: "Go", kind: "secondary", ref: { kind: "url", url: "https://example.com" } }
    ])
    assert.strictEqual(back(md), md)
    assert.strictEqual(documentMarkdown(document), md)
  })

  it("`<br>` alone on its line is a paragraph of one line break, not the text `<br>`, and is written back", () => {
    const md = "Get started today.\n\n<br>\n\nAfter.\n"
    const document = toJsonDocument(md)
    assert.deepStrictEqual(document.nodes[1], p("\n"))
    assert.notInclude(JSON.stringify(document), "<br>")
    assert.strictEqual(back(md), md)
    assert.strictEqual(documentMarkdown(document), md)
  })

  it("a conditional block is GitBook's `if` with its expression", () => {
    const md = "{% if visitor.claims.beta %}\nBeta only.\n{% endif %}\n"
    assert.deepStrictEqual(only(md), { object: "block", type: "if", isVoid: false, data: { expression: "visitor.claims.beta" }, nodes: [p("Beta only.")] })
    assert.strictEqual(back(md), md)
  })

  it("marks, colours, links, anchors, mentions, inline math and icons are GitBook's marks and inline nodes", () => {
    const md = "**b** *i* `c` ~~s~~ <mark style=\"color:red;\">red</mark> [x](#part) [Page](page.md \"mention\") $$e=mc^2$$ <i class=\"fa-check\">:check:</i>\n"
    const document = toJsonDocument(md)
    const nodes = document.nodes[0]?.nodes ?? []
    const marks = nodes.flatMap((n) => (n.object === "text" ? n.leaves.flatMap((l) => l.marks.map((m) => m.type)) : []))
    assert.deepStrictEqual(marks, ["bold", "italic", "code", "strikethrough", "color"])
    assert.deepStrictEqual(nodes.filter((n) => n.object === "inline").map((n) => [n.object === "inline" ? n.type : "", n.object === "inline" ? n.data : {}]), [
      ["link", { ref: { kind: "anchor", anchor: "part" } }],
      ["mention", { ref: { kind: "url", url: "page.md" } }],
      ["inline-math", { formula: "e=mc^2" }],
      ["icon", { icon: "check" }]
    ])
  })

  it("keyboard keys, dark-mode pictures and link buttons are GitBook's keyboard mark, inline image with refDark and button", () => {
    const md = "Press <kbd>Ctrl</kbd> then <picture><source srcset=\"dark.png\" media=\"(prefers-color-scheme: dark)\"><img src=\"light.png\" alt=\"\"></picture> and <a href=\"start.md\" class=\"button primary\">Start</a>\n"
    const nodes = toJsonDocument(md).nodes[0]?.nodes ?? []
    assert.deepStrictEqual(nodes[0], { object: "text", leaves: [{ object: "leaf", text: "Press ", marks: [] }, { object: "leaf", text: "Ctrl", marks: [{ object: "mark", type: "keyboard" }] }, { object: "leaf", text: " then ", marks: [] }] })
    assert.deepStrictEqual(nodes[1], { object: "inline", type: "inline-image", isVoid: true, data: { ref: { kind: "url", url: "light.png" }, refDark: { kind: "url", url: "dark.png" } } })
    assert.deepStrictEqual(nodes[3], { object: "inline", type: "button", isVoid: true, data: { label: "Start", kind: "primary", ref: { kind: "url", url: "start.md" } } })
    assert.strictEqual(back(md), md)
  })

  it("a document without its markdown (as a GitBook client may send one) is written in GitBook's style: figures for images, underscores for italics, `&#x20;` for a closing space", () => {
    const md = "![Logo](logo.png)\n\nSome *words* here&#x20;\n"
    assert.strictEqual(documentMarkdown(toJsonDocument(md)), "<figure><img src=\"logo.png\" alt=\"Logo\"><figcaption></figcaption></figure>\n\nSome _words_ here&#x20;\n")
  })

  it("a document carries no copy of its markdown: the page before gives its unchanged blocks their text", () => {
    const md = "Intro  with *odd*   spacing.\n\n- one\n- two\n\n\n#### Deep heading\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n"
    const document = JSON.parse(JSON.stringify(toJsonDocument(md)))
    assert.deepStrictEqual(Object.keys(document.data), ["schemaVersion"])
    assert.strictEqual(documentMarkdown(document, { base: { markdown: md } }), md)
    // Alone, it is GitBook's style, which reads as the same blocks.
    const alone = documentMarkdown(document)
    assert.notStrictEqual(alone, md)
    assert.deepStrictEqual(toJsonDocument(alone), toJsonDocument(md))
  })

  it("a page shown as plain text (past a nesting limit) written back beside the page before keeps its text", () => {
    const md = `${"> ".repeat(400)}deep\n`
    const document = toJsonDocument(md)
    assert.strictEqual(document.nodes.length, 2)
    assert.strictEqual(documentMarkdown(document, { base: { markdown: md } }), md)
  })

  it("an edited, added or removed block is written in GitBook's style, the blocks around it as they were written", () => {
    const md = "Intro  with *odd*   spacing.\n\n- one\n- two\n\nMiddle *here*.\n\nLast  *one*.\n"
    const document = toJsonDocument(md)
    const [intro, list, , last] = document.nodes
    const base = { markdown: md }
    const edited = { ...document, nodes: [intro!, list!, p("New *middle*"), last!] }
    assert.strictEqual(documentMarkdown(edited, { base }), "Intro  with *odd*   spacing.\n\n- one\n- two\n\nNew \\*middle\\*\n\nLast  *one*.\n")
    assert.strictEqual(documentMarkdown({ ...document, nodes: [intro!, last!] }, { base }), "Intro  with *odd*   spacing.\n\nLast  *one*.\n")
    const changedList = { ...document, nodes: [intro!, { ...list!, nodes: [list!.nodes![0]!] }, last!] }
    assert.strictEqual(documentMarkdown(changedList, { base }), "Intro  with *odd*   spacing.\n\n* one\n\nLast  *one*.\n")
  })

  it("a heading's custom anchor is its data.id, the anchor it has its meta.id", () => {
    const md = "## Set up <a href=\"#custom\" id=\"custom\"></a>\n"
    const block = only(md)
    assert.deepStrictEqual([block.data, block.meta], [{ id: "custom" }, { id: "custom" }])
    assert.strictEqual(back(md), md)
  })

  it("a block written back beside the page before keeps the page's other blocks byte for byte", () => {
    const before = "Intro  with  odd   spacing.\n\n* one\n* two\n\nLast.\n"
    const document = toJsonDocument(before)
    const edited = { ...document, nodes: [...document.nodes.slice(0, 2), { object: "block" as const, type: "paragraph", nodes: [{ object: "text" as const, leaves: [{ object: "leaf" as const, text: "New last.", marks: [] }] }] }] }
    assert.strictEqual(documentMarkdown(edited, { base: { markdown: before } }), "Intro  with  odd   spacing.\n\n* one\n* two\n\nNew last.\n")
  })

  describe("the HTML GitBook writes is its blocks, never tags shown as text", () => {
    /** The document of `md`, checked against GitBook's schema, and its markdown from its blocks alone (a GitBook client's document). */
    const read = (md: string) => {
      const document = toJsonDocument(md, (url) => ({ kind: "url", url }), (ref) => ref)
      assert.deepStrictEqual(violations(document, schemas["JSONDocument"]!, "document"), [])
      assert.strictEqual(back(md), md, "with the markdown it was read from, byte for byte")
      return { nodes: document.nodes, written: documentMarkdown({ nodes: document.nodes }) }
    }
    /** The words of a node: its leaves' text. */
    const words = (node: unknown): string =>
      Array.isArray(node) ? node.map(words).join("") : typeof node !== "object" || node === null ? ""
      : "leaves" in node ? (node.leaves as ReadonlyArray<Leaf>).map((l) => l.text).join("")
      : "nodes" in node ? words(node.nodes) : ""

    it("a framed, aligned or full-width figure is GitBook's images block with withFrame, align and fullWidth", () => {
      const framed = "<div data-with-frame=\"true\"><figure><img src=\"a.png\" alt=\"\"><figcaption><p>View it.</p></figcaption></figure></div>\n"
      const { nodes, written } = read(framed)
      assert.deepStrictEqual(nodes[0]!.data, { withFrame: true })
      assert.deepStrictEqual((nodes[0]!.nodes![0] as JsonBlock).fragments, caption([{ object: "leaf", text: "View it.", marks: [] }]))
      assert.strictEqual(written, framed)
      const aligned = read("<div align=\"left\"><figure><img src=\"b.png\" alt=\"B\" width=\"188\"><figcaption><p>Left.</p></figcaption></figure></div>\n")
      assert.deepStrictEqual([aligned.nodes[0]!.data, (aligned.nodes[0]!.nodes![0] as JsonBlock).data], [{ align: "left" }, { ref: { kind: "url", url: "b.png" }, alt: "B", width: 188 }])
      assert.deepStrictEqual(read("<div data-full-width=\"false\"><figure><img src=\"c.png\" alt=\"\"><figcaption><p>C.</p></figcaption></figure></div>\n").nodes[0]!.data, { fullWidth: false })
      const pair = "<div><figure><img src=\"d.png\" alt=\"\"><figcaption><p>D.</p></figcaption></figure> <figure><img src=\"e.png\" alt=\"\"><figcaption><p>E.</p></figcaption></figure></div>\n"
      const two = read(pair)
      assert.deepStrictEqual(two.nodes[0]!.nodes?.map((image) => (image as JsonBlock).data?.["ref"]), [{ kind: "url", url: "d.png" }, { kind: "url", url: "e.png" }])
      assert.strictEqual(two.written, pair)
    })

    it("an aligned paragraph or heading is GitBook's paragraph or heading with its alignment, and its links and images inline", () => {
      const { nodes, written } = read("<p align=\"center\">\n  <img src=\"logo.svg\" alt=\"Logo\" width=\"48\" />\n</p>\n")
      assert.deepStrictEqual(nodes[0], { object: "block", type: "paragraph", data: { align: "center" }, nodes: [{ object: "inline", type: "inline-image", isVoid: true, data: { ref: { kind: "url", url: "logo.svg" }, alt: "Logo" } }] })
      assert.strictEqual(written, "<p align=\"center\"><img src=\"logo.svg\" alt=\"Logo\"></p>\n")
      const links = read("<p align=\"center\">\n<a href=\"https://gitbook.com\">Home</a> - <a href=\"https://github.com\">Code</a> \n</p>\n").nodes[0]!
      assert.deepStrictEqual(links.nodes?.map((n) => n.object === "inline" ? n.type : words(n)), ["link", " - ", "link"])
      const heading = read("<h3 align=\"center\">What do you want to build?</h3>\n")
      assert.deepStrictEqual([heading.nodes[0]!.type, heading.nodes[0]!.data, heading.nodes[0]!.meta], ["heading-2", { align: "center" }, { id: "what-do-you-want-to-build" }])
      assert.strictEqual(heading.written, "<h3 align=\"center\">What do you want to build?</h3>\n")
    })

    it("`<pre><code>` is GitBook's code block with its title, a line per code-line, bold lines bold", () => {
      const md = "<pre class=\"language-yaml\" data-title=\"a.yaml\"><code class=\"lang-yaml\"><strong>scopes:\n</strong>    - read &#x3C;all>\n</code></pre>\n"
      const { nodes, written } = read(md)
      assert.deepStrictEqual(nodes[0], {
        object: "block",
        type: "code",
        data: { syntax: "yaml", title: "a.yaml" },
        nodes: [
          { object: "block", type: "code-line", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "scopes:", marks: [{ object: "mark", type: "bold" }] }] }] },
          { object: "block", type: "code-line", data: {}, nodes: [{ object: "text", leaves: [{ object: "leaf", text: "    - read <all>", marks: [] }] }] }
        ]
      })
      assert.strictEqual(written, md)
    })

    it("an HTML table is GitBook's grid table: its columns' titles and widths, each cell's blocks", () => {
      const md = "<table data-search=\"false\"><thead><tr><th width=\"168\">Field</th><th>Use</th></tr></thead><tbody><tr><td><a href=\"a.md#name\"><code>name</code></a></td><td><p>One.</p><p>Two.</p></td></tr></tbody></table>\n"
      const table = read(md).nodes[0]!
      assert.deepStrictEqual(table.data?.["view"], { type: "grid", columns: ["c0", "c1"], hideHeader: false, columnWidths: { c0: 168 }, useNewSizing: true })
      assert.deepStrictEqual(table.data?.["search"], false)
      const definition = (table.data?.["definition"] ?? {}) as Record<string, { title: string }>
      assert.deepStrictEqual([definition["c0"]?.title, definition["c1"]?.title], ["Field", "Use"])
      const cell = (id: string) => table.fragments?.find((f) => f.fragment === id)?.nodes ?? []
      assert.deepStrictEqual(cell("r0c0")[0]!.nodes?.map((n) => n.object === "inline" ? n.type : ""), ["link"])
      assert.deepStrictEqual(cell("r0c1").map(words), ["One.", "Two."])
    })

    it("a markdown table's cell of `<p>` paragraphs, a `<ul>` list or `<code>` holding a pipe is those blocks and marks", () => {
      const md = "| Field | Notes |\n| --- | --- |\n| <code>a \\| b</code> | <p>string</p><p>Optional</p> |\n| x | <ul><li><code>/message</code></li><li>page</li></ul> |\n"
      const table = read(md).nodes[0]!
      const cell = (id: string) => table.fragments?.find((f) => f.fragment === id)?.nodes ?? []
      assert.deepStrictEqual(cell("r0c1").map(words), ["string", "Optional"])
      assert.deepStrictEqual(cell("r1c1").map((b) => b.type), ["list-unordered"])
      assert.deepStrictEqual(cell("r1c1")[0]!.nodes?.map(words), ["/message", "page"])
      assert.include(JSON.stringify(cell("r0c0")), "\"type\":\"code\"")
      assert.notInclude(JSON.stringify(table.fragments), "<code>")
    })

    it("a card's cell of a heading, an icon and an emoji is those blocks and inline nodes", () => {
      const md = "<table data-view=\"cards\"><thead><tr><th></th></tr></thead><tbody><tr><td><h4><i class=\"fa-rocket\">:rocket:</i></h4></td></tr><tr><td><strong>Go</strong> <span data-gb-custom-inline data-tag=\"emoji\" data-code=\"1f680\">🚀</span></td></tr></tbody></table>\n"
      const cards = read(md).nodes[0]!
      const cell = (id: string) => cards.fragments?.find((f) => f.fragment === id)?.nodes ?? []
      assert.deepStrictEqual(cell("r0c0").map((b) => [b.type, b.nodes]), [["heading-3", [{ object: "inline", type: "icon", isVoid: true, data: { icon: "rocket" } }]]])
      assert.deepStrictEqual(cell("r1c0")[0]!.nodes?.at(-1), { object: "inline", type: "emoji", isVoid: true, data: { code: "1f680" } })
    })

    it("a button that opens Ask is GitBook's button with its action, and is written back", () => {
      const md = "<button type=\"button\" class=\"button secondary\" data-action=\"ask\" data-query=\"How do I start?\" data-icon=\"sparkle\">Ask</button>\n"
      const { nodes, written } = read(md)
      assert.deepStrictEqual(nodes[0]!.nodes, [{ object: "inline", type: "button", isVoid: true, data: { label: "Ask", kind: "secondary", icon: "sparkle", action: { action: "ask", query: "How do I start?" } } }])
      assert.strictEqual(written, md)
    })

    it("a prompt is GitBook's prompt block around its code; a changelog GitBook's updates, one update a date; both written back", () => {
      const prompt = "{% prompt description=\"Example prompt\" icon=\"rectangle-terminal\" defaultExpanded=\"full\" %}\n```markdown\nSummarize this.\n```\n{% endprompt %}\n"
      const read1 = read(prompt)
      assert.deepStrictEqual([read1.nodes[0]!.type, read1.nodes[0]!.data, read1.nodes[0]!.nodes?.map((n) => n.object === "block" ? n.type : "")], ["prompt", { description: "Example prompt", icon: "rectangle-terminal", defaultExpanded: "full" }, ["code"]])
      assert.strictEqual(read1.written, prompt)
      const updates = "{% updates format=\"full\" %}\n{% update date=\"2022-12-15\" %}\n## Editor improvements\n\nFaster.\n{% endupdate %}\n\n{% update date=\"2022-11-30\" %}\nFootnotes.\n{% endupdate %}\n{% endupdates %}\n"
      const read2 = read(updates)
      assert.deepStrictEqual([read2.nodes[0]!.type, read2.nodes[0]!.data], ["updates", { format: "full" }])
      assert.deepStrictEqual(read2.nodes[0]!.nodes?.map((n) => n.object === "block" ? [n.type, n.data, n.nodes?.map(words)] : []), [
        ["update", { date: "2022-12-15" }, ["Editor improvements", "Faster."]],
        ["update", { date: "2022-11-30" }, ["Footnotes."]]
      ])
      assert.strictEqual(read2.written, updates)
    })

    it("a hint written as HTML is GitBook's hint; HTML that is none of these forms stays text", () => {
      const hint = read("<div data-gb-custom-block data-tag=\"hint\" data-style=\"success\" class=\"hint hint-success\"><p><strong>Handoff</strong> helps.</p></div>\n").nodes[0]!
      assert.deepStrictEqual([hint.type, hint.data, words(hint)], ["hint", { style: "success" }, "Handoff helps."])
      assert.deepStrictEqual(read("<div class=\"container\"><span>open\n").nodes.map(words), ["<div class=\"container\"><span>open"])
    })
  })
})
