/** Where the editor read a page otherwise than GitBook (found by packages/markdown's EditorCodec differential test). */
import { describe, expect, it } from "vitest"
import { codec, expectExact, replaceText, setAttrs } from "./support.ts"

describe("the editor reads these as GitBook does", () => {
  it("a link whose text starts with an image is a link, the image inside it", () => {
    const md = "Watch: [![](https://x.y/icon.png)Hosted Saved Rows](https://www.youtube.com/watch?v=5m80DgKW0x8)\n"
    const paragraph = codec.parse(md).child(0)
    const linked: Array<string> = []
    paragraph.forEach((child) => {
      const link = child.marks.find((m) => m.type.name === "link")
      if (link !== undefined) linked.push(`${child.type.name}:${link.attrs.href as string}`)
    })
    expect(linked).toEqual(["image:https://www.youtube.com/watch?v=5m80DgKW0x8", "text:https://www.youtube.com/watch?v=5m80DgKW0x8"])
    expectExact(md)
  })

  it("a link holding another link is still not a link", () => {
    const paragraph = codec.parse("[a [b](c) d](e)\n").child(0)
    const hrefs = new Set<string>()
    paragraph.forEach((child) => child.marks.forEach((m) => void (m.type.name === "link" && hrefs.add(m.attrs.href as string))))
    expect([...hrefs]).toEqual(["c"])
  })

  it("a block tag whose arguments are a condition, not parameters, is a block kept as written", () => {
    const md = "{% if visitor.claims.plan === \"pro\" %}\nPro plan content.\n{% else %}\nFree plan content.\n{% endif %}\n"
    const doc = codec.parse(md)
    expect(doc.childCount).toBe(1)
    expect(doc.child(0).type.name).toBe("raw")
    expectExact(md)
  })

  it("a conditional nested in another ends at its own closing tag", () => {
    const md = "{% if a %}\n{% if b === \"c\" %}\nInner.\n{% endif %}\nOuter.\n{% endif %}\n\nAfter.\n"
    const doc = codec.parse(md)
    expect(doc.child(0).type.name).toBe("raw")
    expect(doc.child(0).attrs.text).toBe(md.slice(0, md.indexOf("\n\nAfter")))
    expect(doc.child(1).textContent).toBe("After.")
  })

  it("`$$formula$$` alone in a paragraph is a math block, written back on one line", () => {
    const md = "Before.\n\n$$f(x) = x * e^{2 pi i \\xi x}$$\n\nInline $$x$$ stays inline.\n\n$$a$$ and $$b$$\n"
    const doc = codec.parse(md)
    expect([...Array(doc.childCount).keys()].map((i) => doc.child(i).type.name)).toEqual(["paragraph", "mathBlock", "paragraph", "paragraph"])
    expect(doc.child(1).textContent).toBe("f(x) = x * e^{2 pi i \\xi x}")
    expectExact(md)
  })

  it("a one-line math block edited onto several lines is written between `$$` lines", () => {
    const doc = codec.parse("$$a$$\n")
    const math = doc.child(0)
    const edited = doc.type.create(doc.attrs, [math.type.create({ ...math.attrs, source: null }, doc.type.schema.text("a\n+ b"))])
    expect(codec.serialize(edited)).toBe("$$\na\n+ b\n$$\n")
  })

  it("a tag whose parameters run over several lines is one block kept as written, not a paragraph", () => {
    const md = "# Diagram\n\n{% @mermaid/diagram content=\"graph TD\n  A-->B\" %}\n\nAfter.\n"
    const doc = codec.parse(md)
    expect(doc.child(1).type.name).toBe("raw")
    expect(doc.child(1).attrs.text).toBe("{% @mermaid/diagram content=\"graph TD\n  A-->B\" %}")
    expect(doc.child(2).textContent).toBe("After.")
    expectExact(md)
  })

  it("a block tag opened over several lines runs to its closing tag", () => {
    const md = "{% hint style=\"info\"\n   title=\"Note\" %}\nInside.\n{% endhint %}\n\nAfter.\n"
    const doc = codec.parse(md)
    expect(doc.child(0).attrs.text).toBe(md.slice(0, md.indexOf("\n\nAfter")))
    expectExact(md)
  })

  it("an unclosed `{%` stays a paragraph's text", () => {
    const md = "{% not a tag\nat all\n"
    expect(codec.parse(md).child(0).type.name).toBe("paragraph")
    expectExact(md)
  })

  describe("GitBook's tags written loosely are the blocks they name, and come back as written", () => {
    const names = (doc: ReturnType<typeof codec.parse>) => [...Array(doc.childCount).keys()].map((i) => doc.child(i).type.name)

    it("a block on one line: a hint with its words, a content reference with its link", () => {
      const md = "{% hint style=\"success\" %} All on **one** line {% endhint %}\n\n{% content-ref url=\"guide.md\" %}[The guide](guide.md){% endcontent-ref %}\n"
      const doc = codec.parse(md)
      expect(names(doc)).toEqual(["hint", "contentRef"])
      expect(doc.child(0).textContent).toBe("All on one line")
      expect(doc.child(1).attrs.body).toBe("[The guide](guide.md)")
      expectExact(md)
      // Edited, the hint is written as GitBook writes it, on lines of their own.
      const edited = setAttrs(doc, 0, "hint", (attrs) => ({ ...attrs, params: [{ key: "style", value: "danger", quote: "\"" }] }))
      expect(codec.serialize(edited).split("\n\n")[0]).toBe("{% hint style=\"danger\" %}\nAll on **one** line\n{% endhint %}")
    })

    it("tabs indented under their group, their content indented further, are tabs holding paragraphs", () => {
      const md = "{% tabs %}\n  {% tab title=\"A\" %}\n    Indented **content**\n  {% endtab %}\n{% endtabs %}\n"
      const doc = codec.parse(md)
      expect(names(doc)).toEqual(["tabs"])
      const tab = doc.child(0).child(0)
      expect(tab.attrs.params).toEqual([{ key: "title", value: "A", quote: "\"" }])
      expect(tab.child(0).type.name).toBe("paragraph")
      expect(tab.textContent).toBe("Indented content")
      expectExact(md)
    })

    it("a tag on its own line inside HTML opens its block there; the HTML around it stays as written", () => {
      const md = "<div>\n{% hint style=\"success\" %}\nInside\n{% endhint %}\n</div>\n"
      const doc = codec.parse(md)
      expect(names(doc)).toEqual(["raw", "hint", "raw"])
      expect(doc.child(1).textContent).toBe("Inside")
      expectExact(md)
    })

    it("a formula with a pipe in a table cell is one cell", () => {
      const md = "| Symbol | Meaning |\n| --- | --- |\n| $$a|b$$ | a divides b |\n"
      const doc = codec.parse(md)
      expect(names(doc)).toEqual(["table"])
      const row = doc.child(0).child(1)
      expect(row.childCount).toBe(2)
      expect(row.child(1).textContent).toBe("a divides b")
      expectExact(md)
      // Written again, the formula keeps its pipe; a pipe in words is escaped.
      const edited = replaceText(doc, 0, "a divides b", "a | b")
      expect(codec.serialize(edited)).toContain("| $$a|b$$ | a \\| b |")
    })

    it("indented four columns, a tag is code, not a block", () => {
      const md = "Text\n\n    {% hint style=\"info\" %}\n    shown as code\n"
      expect(names(codec.parse(md))).toEqual(["paragraph", "raw"])
      expectExact(md)
    })
  })
})
