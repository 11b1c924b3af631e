import { assert, describe, it } from "@effect/vitest"
import { parse } from "yaml"
import { fenceFrontmatter, plainYaml, readFrontmatter, splitFrontmatter, yamlOf, yamlPair } from "../src/Frontmatter.ts"
import { parseMarkdown } from "../src/Markdown.ts"

describe("splitFrontmatter", () => {
  it("finds the frontmatter where the editor does, and nowhere else", () => {
    const cases: ReadonlyArray<readonly [markdown: string, block: string]> = [
      ["---\ntitle: A\n---\n# Body\n", "---\ntitle: A\n---\n"],
      ["---  \r\ntitle: A\r\n---\t\r\nBody", "---  \r\ntitle: A\r\n---\t\r\n"],
      ["---\n---\nBody", "---\n---\n"],
      ["---\ntitle: A\n---", "---\ntitle: A\n---"],
      ["---\na: 1\n----\nb: 2\n---\nBody", "---\na: 1\n----\nb: 2\n---\n"],
      // YAML's document end `...` closes it as `---` does (GitBook and the editor agree).
      ["---\ntitle: A\n...\nBody", "---\ntitle: A\n...\n"],
      ["---\r\ntitle: A\r\n... \r\n---\r\nBody", "---\r\ntitle: A\r\n... \r\n"],
      // TOML's `+++` is none, nor is an indented or unclosed fence.
      ["+++\ntitle = \"A\"\n+++\nBody", ""],
      [" ---\ntitle: A\n---\n", ""],
      ["---\ntitle: A\n", ""],
      ["--- x\ntitle: A\n---\n", ""],
      ["Text\n---\ntitle: A\n---\n", ""]
    ]
    for (const [markdown, block] of cases) {
      const split = splitFrontmatter(markdown)
      assert.strictEqual(split.block, block, JSON.stringify(markdown))
      assert.strictEqual(split.block + split.body, markdown)
      const [first] = parseMarkdown(markdown).children
      assert.strictEqual(first?.type === "yaml", block !== "", JSON.stringify(markdown))
      if (first?.type === "yaml") assert.strictEqual(split.yaml!.replace(/\r?\n$/, ""), first.value)
    }
  })
})

describe("plainYaml", () => {
  it("reads plain frontmatter as the YAML library does, and leaves anything else to it", () => {
    const plain = [
      "description: Page 1 of section 2\nowner: team-2\n",
      "icon: rocket\ncoverY: -12.5\nhidden: true\nlayout:\n  width: wide\n  cover:\n    visible: false\n    size: hero\n  title:\n    visible: true\n",
      "a: yes\nb: null\nc: ~\nd: 1e3\ne: +7\nf:\ng: x-y_z (1)\n"
    ]
    for (const yaml of plain) assert.deepStrictEqual(plainYaml(yaml), parse(yaml))
    const other = ["description: >-\n  folded\n", "tags: [a, b]\n", "a: 'quoted'\n", "a: b # comment\n", "a: 0x1F\n", "a: .inf\n", "- item\n", "a: b: c\n", "a: 1\na: 2\n"]
    for (const yaml of other) assert.isUndefined(plainYaml(yaml), yaml)
  })
})

describe("readFrontmatter", () => {
  it("reads frontmatter as the YAML library does", () => {
    const valid = [
      "description: Page 1 of section 2\nowner: team-2\n",
      "icon: rocket\ncoverY: -12.5\nhidden: true\nlayout:\n  width: wide\n  cover:\n    visible: false\n    size: hero\n  title:\n    visible: true\n",
      "a: yes\nb: null\nc: ~\nd: 1e3\ne: +7\nf:\ng: x-y_z (1)\n",
      "description: >-\n  folded\n", "tags: [a, b]\n", "a: 'quoted'\n", "a: b # comment\n", "a: 0x1F\n", "a: .inf\n"
    ]
    for (const yaml of valid) assert.deepStrictEqual(readFrontmatter(yaml), { ok: true, data: parse(yaml) }, yaml)
    assert.deepStrictEqual(readFrontmatter(""), { ok: true, data: {} })
  })

  it("says why frontmatter cannot be read: invalid YAML, or not a mapping", () => {
    for (const yaml of ["a: b: c\n", "a: 1\na: 2\n"]) {
      const read = readFrontmatter(yaml)
      assert.isFalse(read.ok, yaml)
      if (!read.ok) assert.match(read.reason, /^frontmatter is not valid YAML \(line \d+\): /)
    }
    assert.deepStrictEqual(readFrontmatter("- item\n"), { ok: false, reason: "frontmatter is not a mapping of keys to values" })
  })
})

describe("writing frontmatter", () => {
  it("writes values and pairs as YAML between fences, in the file's line endings", () => {
    assert.strictEqual(yamlOf({ description: "A long description ".repeat(10).trim(), hidden: true }), `description: ${"A long description ".repeat(10).trim()}\nhidden: true\n`)
    assert.strictEqual(yamlPair("layout", { width: "wide" }), "layout:\n  width: wide\n")
    assert.strictEqual(fenceFrontmatter("a: 1\nb: 2\n", "\r\n"), "---\r\na: 1\r\nb: 2\r\n---\r\n")
  })
})
