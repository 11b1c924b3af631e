import { describe, expect, it } from "vitest"
import { Syntax } from "../src/index.ts"

const one = (text: string) => {
  const tags = Syntax.tagsIn(text)
  expect(tags).toHaveLength(1)
  return tags[0]!
}

describe("tags", () => {
  it("reads GitBook's block tags with their parameters in order", () => {
    const hint = one(`{% hint style="info" %}`)
    expect(hint).toMatchObject({ name: "hint", closes: undefined, args: `style="info"` })
    expect(hint.params).toEqual([{ key: "style", value: "info", quote: "\"", valueStart: 15, valueEnd: 19 }])
    expect(one("{% endhint %}")).toMatchObject({ name: "endhint", closes: "hint", params: [] })
    expect(one(`{% tab title="x" %}`).params?.map((p) => [p.key, p.value])).toEqual([["title", "x"]])
    expect(Syntax.tagAttributes(one(`{% openapi-operation spec="petstore" path="/pets" method="get" %}`))).toEqual({ spec: "petstore", path: "/pets", method: "get" })
    expect(one(`{% include "../.gitbook/includes/x.md" %}`).params).toMatchObject([{ key: null, value: "../.gitbook/includes/x.md", quote: "\"" }])
    expect(Syntax.paramValue(one(`{% content-ref url="a b.md" %}`).params, "url")).toBe("a b.md")
    expect(Syntax.paramValue(one(`{% file src='x.pdf' %}`).params, "src")).toBe("x.pdf")
    expect(Syntax.paramValue(one(`{% embed url=https://a.b/c?d=e %}`).params, "url")).toBe("https://a.b/c?d=e")
    expect(one("{% swagger %}").name).toBe("swagger")
  })

  it("reads integration tags named @scope/name", () => {
    const figma = one(`{% @figma/embed fileId="abc" url="https://www.figma.com/file/abc" %}`)
    expect(figma.name).toBe("@figma/embed")
    expect(Syntax.isIntegrationTag(figma.name)).toBe(true)
    expect(Syntax.tagAttributes(figma)).toEqual({ fileId: "abc", url: "https://www.figma.com/file/abc" })
    expect(one(`{% @github-files/github-code-block url="https://github.com/a/b" %}`).name).toBe("@github-files/github-code-block")
    expect(Syntax.parseLiquidTag(`{% @figma/embed url="u" %}`)).toEqual({ name: "@figma/embed", params: [{ key: "url", value: "u", quote: "\"" }] })
  })

  it("keeps a condition that is not a parameter list as the tag's arguments", () => {
    const cond = one(`{% if visitor.claims.plan === "pro" %}`)
    expect(cond).toMatchObject({ name: "if", args: `visitor.claims.plan === "pro"`, params: undefined })
    expect(Syntax.parseLiquidTag(`{% if visitor.claims.plan === "pro" %}`)).toBeUndefined()
    expect(one("{% if visitor.claims.beta %}").params).toMatchObject([{ key: null, value: "visitor.claims.beta" }])
  })

  it("finds tags inline, over several lines, and with whitespace control", () => {
    const text = `a {% hint style="info" %} b {%- endhint -%}\n{% embed\n  url="x" %}`
    expect(Syntax.tagsIn(text).map((t) => [t.name, text.slice(t.start, t.end) === t.source])).toEqual([["hint", true], ["endhint", true], ["embed", true]])
    expect(Syntax.paramValue(Syntax.tagsIn(text)[2]!.params, "url")).toBe("x")
    expect(Syntax.tagsIn("{%%} {% 5 %} {% hint")).toEqual([])
    expect(Syntax.readTag(` {% hint %}`)).toBeUndefined()
    expect(Syntax.readTag(`{% a %} {% b %}`)).toBeUndefined()
    expect(Syntax.opensUnclosedTag(`text {% embed url="x"`)).toBe(true)
    expect(Syntax.opensUnclosedTag(`{% a %} b`)).toBe(false)
    expect(Syntax.unclosedTagName(`x {% hint style="info"`)).toBe("hint")
    expect(Syntax.unclosedTagName(`{% hint %}`)).toBeUndefined()
  })

  it("knows GitBook's block tags and their end tags", () => {
    for (const name of ["hint", "tabs", "tab", "code", "stepper", "step", "content-ref", "swagger", "openapi-operation", "if", "updates", "columns"]) {
      expect(Syntax.blockTagNames.has(name)).toBe(true)
      expect(Syntax.closedName(Syntax.endName(name))).toBe(name)
    }
    expect(Syntax.blockTagNames.has("include")).toBe(false)
    expect(Syntax.closedName("end")).toBeUndefined()
  })

  it("rewrites parameter values in place and nothing else", () => {
    const text = `x {% content-ref url='a.md' %}\n[a](a.md)\n{% endcontent-ref %} {% include "a.md" %}`
    const next = Syntax.replaceParamValues(text, (tag, p) => (p.value === "a.md" && tag.name !== "include" ? "b/a.md" : undefined))
    expect(next).toBe(`x {% content-ref url='b/a.md' %}\n[a](a.md)\n{% endcontent-ref %} {% include "a.md" %}`)
    expect(Syntax.replaceParamValues(text, () => undefined)).toBe(text)
  })
})

describe("parameters and quoting round-trip", () => {
  const lines = [
    `{% hint style="info" %}`,
    `{% hint style='info' %}`,
    `{% hint style=info %}`,
    `{% include "a.md" %}`,
    `{% include 'a b.md' %}`,
    `{% embed url="https://x.y/?a=b&c" %}`,
    `{% code title="main.js" lineNumbers="true" overflow="wrap" %}`,
    `{% @figma/embed fileId="1" url="https://figma.com" %}`,
    `{% tab title="It's" %}`,
    `{% tab title='say "hi"' %}`
  ]
  it("renders each tag back as it was written", () => {
    for (const line of lines) {
      const tag = Syntax.parseLiquidTag(line)!
      expect(Syntax.renderLiquidTag(tag.name, tag.params)).toBe(line)
      expect(Syntax.parseLiquidTag(Syntax.renderLiquidTag(tag.name, tag.params))).toEqual(tag)
    }
  })

  it("keeps the original line while it says the same thing", () => {
    const original = `{%- hint   style = "info" -%}`
    const tag = Syntax.parseLiquidTag(original)!
    expect(Syntax.renderLiquidLine("hint", tag.params, original)).toBe(original)
    expect(Syntax.renderLiquidLine("hint", Syntax.setParam(tag.params, "style", "warning"), original)).toBe(`{% hint style="warning" %}`)
    expect(Syntax.setParam(tag.params, "title", "T")).toEqual([...tag.params, { key: "title", value: "T", quote: "\"" }])
    expect(Syntax.getParam(tag.params, "style")).toBe("info")
  })

  it("quotes a value that would not read back unquoted", () => {
    for (const value of ["a b", "", "x=y", `it's`, "50%", "{x}"]) {
      for (const key of ["k", null]) {
        const line = Syntax.renderLiquidTag("t", [{ key, value, quote: "" }])
        expect(Syntax.parseLiquidTag(line)?.params[0]).toMatchObject({ key, value })
      }
    }
  })
})

describe("end tags", () => {
  const lines = [
    "{% tabs %}",
    "{% tab title=\"a\" %}",
    "```",
    "{% endtab %}",
    "```",
    "{% tabs %}",
    "{% endtabs %}",
    "{% endtab %}",
    "{% endtabs %}"
  ]
  it("finds the matching end tag, nested blocks and fenced code skipped", () => {
    expect(Syntax.isEndTag("{% endtab %}", "tab")).toBe(true)
    expect(Syntax.findLiquidEnd(lines, 1, "tab")).toBe(7)
    expect(Syntax.findLiquidEnd(lines, 0, "tabs")).toBe(8)
    expect(Syntax.findLiquidEnd(lines, 0, "tabs", true)).toBe(-1)
    expect(Syntax.findLiquidEnd(["{% embed url=\"x\" %}"], 0, "embed", true)).toBe(-1)
  })
})

describe("frontmatter fences", () => {
  it("opens with --- and closes with --- or ...", () => {
    expect(Syntax.findFrontmatter("---\na: 1\n---\nbody")).toEqual({ yamlStart: 4, yamlEnd: 9, end: 13, close: "---" })
    expect(Syntax.findFrontmatter("---\na: 1\n...\nbody")).toEqual({ yamlStart: 4, yamlEnd: 9, end: 13, close: "..." })
    expect(Syntax.findFrontmatter("---  \r\na: 1\r\n...\t\r\nbody")).toEqual({ yamlStart: 7, yamlEnd: 13, end: 19, close: "..." })
    expect(Syntax.findFrontmatter("---\ra: 1\r---")).toEqual({ yamlStart: 4, yamlEnd: 9, end: 12, close: "---" })
    expect(Syntax.findFrontmatter("---\n---\n")).toEqual({ yamlStart: 4, yamlEnd: 4, end: 8, close: "---" })
  })

  it("is no frontmatter without a closing fence, indented, or fenced otherwise", () => {
    for (const text of ["---\na: 1\n", "---", " ---\na: 1\n---\n", "+++\na = 1\n+++\n", "----\na: 1\n---\n", "---\na: 1\n ---\n", "---\na: 1\n....\n", "# x\n---\na: 1\n---\n"]) {
      expect(Syntax.findFrontmatter(text)).toBeUndefined()
    }
  })

  it("agrees line by line and writes ... as --- for parsers that know only ---", () => {
    expect(Syntax.frontmatterCloseLine(["---", "a: 1", "...", "---"])).toBe(2)
    expect(Syntax.frontmatterCloseLine(["---\r", "a: 1\r", "---\r"])).toBe(2)
    expect(Syntax.frontmatterCloseLine(["a: 1", "---"])).toBe(-1)
    expect(Syntax.withDashClose("---\na: 1\n...\nx ...\n")).toBe("---\na: 1\n---\nx ...\n")
    expect(Syntax.withDashClose("---\na: 1\n---\n...\n")).toBe("---\na: 1\n---\n...\n")
  })
})

// A seeded generator, so that a failure reproduces.
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const values = (tag: Syntax.LiquidTag | undefined) => tag && [tag.name, ...tag.params.map((p) => [p.key, p.value])]

describe("malformed input", () => {
  const pieces = ["{%", "%}", "{%-", "-%}", " ", "\n", "\r", "\"", "'", "=", "end", "hint", "@", "/", "a", "-", "%", "{", "}", "---", "...", "`", "\t"]

  it("never throws, and every tag found is a slice of the text, in order", () => {
    const next = random(7)
    for (let n = 0; n < 3000; n++) {
      let text = ""
      const length = Math.floor(next() * 30)
      for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)]
      let last = 0
      for (const tag of Syntax.tagsIn(text)) {
        expect(tag.start).toBeGreaterThanOrEqual(last)
        expect(text.slice(tag.start, tag.end)).toBe(tag.source)
        for (const p of tag.params ?? []) expect(text.slice(p.valueStart, p.valueEnd)).toBe(p.value)
        last = tag.end
      }
      const parsed = Syntax.parseLiquidTag(text)
      if (parsed !== undefined) expect(values(Syntax.parseLiquidTag(Syntax.renderLiquidTag(parsed.name, parsed.params)))).toEqual(values(parsed))
      Syntax.readTag(text)
      Syntax.opensUnclosedTag(text)
      Syntax.findLiquidEnd(text.split("\n"), 0, "hint")
      const front = Syntax.findFrontmatter(text)
      if (front !== undefined) expect(front.end).toBeLessThanOrEqual(text.length)
      expect(Syntax.withDashClose(text)).toHaveLength(text.length)
    }
  })

  it("reads a long run of unclosed or nameless tags in linear time", () => {
    const started = performance.now()
    expect(Syntax.tagsIn(`${"{% ".repeat(200_000)}%}`)).toEqual([])
    expect(Syntax.tagsIn("{%".repeat(200_000))).toEqual([])
    expect(Syntax.findFrontmatter(`---\n${"a\n".repeat(200_000)}`)).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
