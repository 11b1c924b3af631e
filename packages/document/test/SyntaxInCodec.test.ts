/** The codec reads GitBook's tags and fences by `Syntax`, so it agrees with the server where the editor's own reading did not. */
import { describe, expect, it } from "vitest"
import { codec, setAttrs } from "./support.ts"

const blocks = (markdown: string) => {
  const names: Array<string> = []
  codec.parse(markdown).forEach((block) => void names.push(block.type.name))
  return names
}

describe("the codec reads tags and fences as the server does", () => {
  it("keeps an integration's block (`{% @figma/embed %}`) as its own source, never as a paragraph's text", () => {
    const markdown = `Before.\n\n{% @figma/embed fileId="abc" url="https://www.figma.com/file/abc" %}\n\nAfter.\n`
    expect(blocks(markdown)).toEqual(["paragraph", "raw", "paragraph"])
    expect(codec.serialize(codec.parse(markdown))).toBe(markdown)
    expect(codec.serialize(codec.parse(markdown), () => true)).toBe(markdown)
    // Written right under a line of text, it still starts a block of its own.
    expect(blocks(`Text\n{% @figma/embed url="u" %}\n`)).toEqual(["paragraph", "raw"])
  })

  it("reads a tag with spaces around `=` or an unquoted URL as the block it is, and writes it back as written until edited", () => {
    const hint = `{% hint style = "warning" %}\nCareful.\n{% endhint %}\n`
    expect(blocks(hint)).toEqual(["hint"])
    expect(codec.serialize(codec.parse(hint))).toBe(hint)
    const edited = setAttrs(codec.parse(hint), 0, "hint", (a) => ({ params: [{ ...(a.params as Array<object>)[0], value: "danger" }] }))
    expect(codec.serialize(edited)).toBe(`{% hint style="danger" %}\nCareful.\n{% endhint %}\n`)
    const embed = `{% embed url=https://example.com/?a=b %}\n`
    expect(blocks(embed)).toEqual(["embed"])
    expect(codec.serialize(codec.parse(embed))).toBe(embed)
  })

  it("takes frontmatter closed by `---` or `...` as the server now does", () => {
    for (const close of ["---", "..."]) {
      const markdown = `---\ndescription: d\n${close}\n\n# Title\n`
      expect(blocks(markdown)).toEqual(["frontmatter", "heading"])
      expect(codec.serialize(codec.parse(markdown))).toBe(markdown)
    }
  })
})
