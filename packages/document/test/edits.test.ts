import type { Node as PMNode } from "@tiptap/pm/model"
import { describe, expect, it } from "vitest"
import { type HtmlAttr, type LiquidParam, setHtmlAttr, setParam } from "../src/index.ts"
import { codec, expectEditConfined, mapBlock, replaceText, setAttrs } from "./support.ts"

/** A page with one block of each kind, separated by paragraphs, in GitBook's own layout. */
const page = `---
description: Every block once
---

# Title <a href="#title" id="title"></a>

Intro paragraph with **bold** text.

- first item
- second item
  - nested item

1. one
2. two

- [ ] open task
- [x] done task

> quoted words

| Name | Value |
| ---- | ----- |
| a    | 1     |
| b    | 2     |

{% code title="index.js" lineNumbers="true" %}
\`\`\`javascript
console.log("hello")
\`\`\`
{% endcode %}

$$
a^2 + b^2
$$

<figure><img src="a.png" alt="An image" width="375"><figcaption><p>A caption</p></figcaption></figure>

---

{% hint style="info" %}
Hint words here.
{% endhint %}

{% tabs %}
{% tab title="First" %}
Tab one words.
{% endtab %}

{% tab title="Second" %}
Tab two words.
{% endtab %}
{% endtabs %}

<details>

<summary>More</summary>

Hidden words.

</details>

{% stepper %}
{% step %}
### Step one

Step words.
{% endstep %}
{% endstepper %}

{% columns %}
{% column width="50%" %}
Left words.
{% endcolumn %}

{% column %}
Right words.
{% endcolumn %}
{% endcolumns %}

<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td>Card one</td><td><a href="one.md">one.md</a></td></tr></tbody></table>

{% embed url="https://example.com/video" %}

{% content-ref url="other.md" %}
[other.md](other.md)
{% endcontent-ref %}

{% file src="report.pdf" %}
A caption.
{% endfile %}

{% openapi-operation spec="petstore" path="/pet" method="post" %}
[OpenAPI petstore](https://example.com/openapi.json)
{% endopenapi-operation %}

{% include "../.gitbook/includes/note.md" %}

<div align="center">raw html</div>

Last paragraph.
`

const doc = codec.parse(page)
const indexOf = (type: string, nth = 0): number => {
  const found: Array<number> = []
  doc.forEach((c, _o, i) => void (c.type.name === type && found.push(i)))
  if (found[nth] === undefined) throw new Error(`no ${type} in the page`)
  return found[nth]
}
const edit = (index: number, change: (d: PMNode) => PMNode): Array<string> => expectEditConfined(page, doc, change(doc), index)
const params = (f: (p: ReadonlyArray<LiquidParam>) => ReadonlyArray<LiquidParam>) => (a: Record<string, unknown>) => ({ params: f(a.params as ReadonlyArray<LiquidParam>) })

describe("an edit changes only the lines of the block it touches", () => {
  it("the page itself is exact and has every block", () => {
    expect(codec.serialize(doc)).toBe(page)
    expect(doc.childCount).toBe(25)
  })
  it("frontmatter", () => {
    const i = indexOf("frontmatter")
    expect(edit(i, (d) => setAttrs(d, i, "frontmatter", () => ({ text: "---\ndescription: Changed\n---" })))).toEqual(["description: Changed"])
  })
  it("heading keeps its anchor", () => {
    const i = indexOf("heading")
    expect(edit(i, (d) => replaceText(d, i, "Title", "New title"))).toEqual(['# New title <a href="#title" id="title"></a>'])
  })
  it("paragraph", () => {
    const i = indexOf("paragraph")
    expect(edit(i, (d) => replaceText(d, i, "Intro", "Opening"))).toEqual(["Opening paragraph with **bold** text."])
  })
  it("bullet list, nested item", () => {
    const i = indexOf("bulletList")
    expect(edit(i, (d) => replaceText(d, i, "nested", "deeper"))).toEqual(["  - deeper item"])
  })
  it("ordered list", () => {
    const i = indexOf("orderedList")
    expect(edit(i, (d) => replaceText(d, i, "two", "deux"))).toEqual(["2. deux"])
  })
  it("task list: toggle a task", () => {
    const i = indexOf("taskList")
    expect(edit(i, (d) => setAttrs(d, i, "taskItem", () => ({ checked: true })))).toEqual(["- [x] open task"])
  })
  it("blockquote", () => {
    const i = indexOf("blockquote")
    expect(edit(i, (d) => replaceText(d, i, "quoted", "cited"))).toEqual(["> cited words"])
  })
  it("table: only the edited row changes", () => {
    const i = indexOf("table")
    expect(edit(i, (d) => replaceText(d, i, "2", "22"))).toEqual(["| b | 22 |"])
  })
  it("code block: the code and the title", () => {
    const i = indexOf("codeBlock")
    expect(edit(i, (d) => replaceText(d, i, "hello", "bye"))).toEqual(['console.log("bye")'])
    expect(edit(i, (d) => setAttrs(d, i, "codeBlock", (a) => ({ wrapper: setParam(a.wrapper as ReadonlyArray<LiquidParam>, "title", "main.js") })))).toEqual([
      '{% code title="main.js" lineNumbers="true" %}'
    ])
  })
  it("math block", () => {
    const i = indexOf("mathBlock")
    expect(edit(i, (d) => replaceText(d, i, "b^2", "c^2"))).toEqual(["a^2 + c^2"])
  })
  it("figure: caption and width", () => {
    const i = indexOf("figure")
    const changed = edit(i, (d) =>
      setAttrs(d, i, "figure", (a) => ({ caption: "<p>New caption</p>", img: setHtmlAttr(a.img as ReadonlyArray<HtmlAttr>, "width", "500") }))
    )
    expect(changed).toEqual(['<figure><img src="a.png" alt="An image" width="500"><figcaption><p>New caption</p></figcaption></figure>'])
  })
  it("horizontal rule", () => {
    const i = indexOf("horizontalRule")
    expect(edit(i, (d) => setAttrs(d, i, "horizontalRule", () => ({ marker: "***" })))).toEqual(["***"])
  })
  it("hint: style and text", () => {
    const i = indexOf("hint")
    expect(edit(i, (d) => setAttrs(d, i, "hint", params((p) => setParam(p, "style", "warning"))))).toEqual(['{% hint style="warning" %}'])
    expect(edit(i, (d) => replaceText(d, i, "Hint", "Tip"))).toEqual(["Tip words here."])
  })
  it("tabs: a tab's title and text", () => {
    const i = indexOf("tabs")
    expect(edit(i, (d) => replaceText(d, i, "two", "2"))).toEqual(["Tab 2 words."])
    expect(edit(i, (d) => setAttrs(d, i, "tab", params((p) => setParam(p, "title", "One"))))).toEqual(['{% tab title="One" %}'])
  })
  it("expandable: summary, open and text", () => {
    const i = indexOf("expandable")
    expect(edit(i, (d) => setAttrs(d, i, "expandable", () => ({ summary: "Less" })))).toEqual(["<summary>Less</summary>"])
    expect(edit(i, (d) => setAttrs(d, i, "expandable", () => ({ openTag: "<details open>" })))).toEqual(["<details open>"])
    expect(edit(i, (d) => replaceText(d, i, "Hidden", "Shown"))).toEqual(["Shown words."])
  })
  it("stepper", () => {
    const i = indexOf("stepper")
    expect(edit(i, (d) => replaceText(d, i, "Step words", "Do this"))).toEqual(["Do this."])
  })
  it("columns: width and text", () => {
    const i = indexOf("columns")
    expect(edit(i, (d) => setAttrs(d, i, "column", params((p) => setParam(p, "width", "33%"))))).toEqual(['{% column width="33%" %}'])
    expect(edit(i, (d) => replaceText(d, i, "Right", "Other"))).toEqual(["Other words."])
  })
  it("cards: a cell, unknown columns kept", () => {
    const i = indexOf("cards")
    const changed = edit(i, (d) => setAttrs(d, i, "cards", (a) => ({ rows: [["Card 1", ...(a.rows as Array<Array<string>>)[0]!.slice(1)]] })))
    expect(changed).toHaveLength(1)
    expect(changed[0]).toContain("<td>Card 1</td>")
    expect(changed[0]).toContain('<th data-hidden data-card-target data-type="content-ref"></th>')
  })
  it("embed", () => {
    const i = indexOf("embed")
    expect(edit(i, (d) => setAttrs(d, i, "embed", params((p) => setParam(p, "url", "https://example.com/other"))))).toEqual([
      '{% embed url="https://example.com/other" %}'
    ])
  })
  it("content-ref", () => {
    const i = indexOf("contentRef")
    const changed = edit(i, (d) =>
      setAttrs(d, i, "contentRef", (a) => ({ params: setParam(a.params as ReadonlyArray<LiquidParam>, "url", "next.md"), body: "[next.md](next.md)" }))
    )
    expect(changed).toEqual(['{% content-ref url="next.md" %}', "[next.md](next.md)"])
  })
  it("file caption", () => {
    const i = indexOf("file")
    expect(edit(i, (d) => setAttrs(d, i, "file", () => ({ body: "New caption." })))).toEqual(["New caption."])
  })
  it("OpenAPI operation", () => {
    const i = indexOf("openapiOperation")
    expect(edit(i, (d) => setAttrs(d, i, "openapiOperation", params((p) => setParam(p, "method", "get"))))).toEqual([
      '{% openapi-operation spec="petstore" path="/pet" method="get" %}'
    ])
  })
  it("include", () => {
    const i = indexOf("include")
    expect(edit(i, (d) => setAttrs(d, i, "include", () => ({ params: [{ key: null, value: "other.md", quote: "\"" }] })))).toEqual(['{% include "other.md" %}'])
  })
  it("raw block, edited as source", () => {
    const i = indexOf("raw")
    expect(edit(i, (d) => setAttrs(d, i, "raw", () => ({ text: '<div align="left">raw html</div>' })))).toEqual(['<div align="left">raw html</div>'])
  })
  it("a new block between two others adds only its lines", () => {
    const i = indexOf("paragraph")
    const extra = codec.schema.nodes.paragraph!.create(null, codec.schema.text("Inserted."))
    const edited = mapBlock(doc, i, (b) => b)
    const children: Array<PMNode> = []
    edited.forEach((c, _o, k) => {
      children.push(c)
      if (k === i) children.push(extra)
    })
    const out = codec.serialize(doc.type.create(null, children))
    expect(out).toBe(page.replace("Intro paragraph with **bold** text.\n\n", "Intro paragraph with **bold** text.\n\nInserted.\n\n"))
  })
  it("CRLF pages keep CRLF in edited blocks", () => {
    const crlf = "# Title\r\n\r\nSome words.\r\n\r\n- a\r\n- b\r\n"
    const d = codec.parse(crlf)
    expect(codec.serialize(replaceText(d, 1, "Some", "More"))).toBe("# Title\r\n\r\nMore words.\r\n\r\n- a\r\n- b\r\n")
    expect(codec.serialize(replaceText(d, 2, "b", "c"))).toBe("# Title\r\n\r\nSome words.\r\n\r\n- a\r\n- c\r\n")
  })
})

describe("blocks put side by side (moved, dropped, or merged from another person's edit)", () => {
  const reorder = (markdown: string, order: ReadonlyArray<number>): string => {
    const doc = codec.parse(markdown)
    return codec.serialize(doc.type.create(doc.attrs, order.map((i) => doc.child(i))))
  }
  it("keeps neighbours as written, and sets apart kept slices that side by side would read as one block", () => {
    // As written: a heading right above its words, a frontmatter right above the title.
    const tight = "---\ndescription: Hi\n---\n# Title\nWords.\n\nLast.\n"
    expect(reorder(tight, [0, 1, 2, 3])).toBe(tight)
    // The page's last line moved above another: "Last.\nWords.\n" would be one paragraph.
    const moved = reorder(tight, [0, 1, 3, 2])
    expect(moved).toBe("---\ndescription: Hi\n---\n# Title\nLast.\n\nWords.\n\n")
    const again = codec.parse(moved)
    expect(again.childCount).toBe(4)
    expect([again.child(2).textContent, again.child(3).textContent]).toEqual(["Last.", "Words."])
    // A list's last item, then a paragraph that was its lazy continuation's neighbour.
    const list = "Intro.\n\n- one\n- two\n\nAfter.\n"
    const swapped = reorder(list, [0, 2, 1])
    expect(codec.parse(swapped).childCount).toBe(3)
    expect(codec.parse(reorder("A.\n\nB.\n\nC.", [2, 0, 1])).childCount).toBe(3)
  })
})
