/**
 * The one tag grammar against the two readings it replaced (the editor's `liquid.ts` and the
 * server's `GitbookTags.ts`), over every GitBook page and tag the repository's tests hold and
 * GitBook's own API descriptions: they differ only where they disagreed, as docs/content.md decides.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Syntax } from "../src/index.ts"
import * as Editor from "./reference/EditorLiquid.ts"
import { serverTags } from "./reference/ServerTags.ts"

const root = new URL("../../../", import.meta.url).pathname

// The syntax's own tests state the differences; the corpus is every other test (the codec's here
// included) and fixture, and the fixtures (test/fixtures: GitBook block shapes, written here).
const own = join(root, "packages", "document")
const skipped = new Set([join(own, "src"), join(own, "test", "reference"), join(own, "test", "Syntax.test.ts"), join(own, "test", "Differential.test.ts")])

const walk = (dir: string, out: Array<string>): Array<string> => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".") || skipped.has(path)) continue
    if (entry.isDirectory()) walk(path, out)
    else if (/\.(md|ts)$/.test(entry.name) && /\/(test|fixtures)\//.test(path)) out.push(path)
  }
  return out
}

/** Each `.md` file whole, and each tag written in a test's string literals (escapes undone). */
const corpus = (): Array<string> => {
  const texts: Array<string> = []
  const files = [...walk(join(root, "apps"), []), ...walk(join(root, "packages"), [])]
  for (const path of files) {
    const text = readFileSync(path, "utf8")
    if (!text.includes("{%")) continue
    if (path.endsWith(".md")) texts.push(text)
    else for (const m of text.matchAll(/\{%[^\n%`]*%\}/g)) texts.push(m[0].replaceAll("\\\"", "\"").replaceAll("\\'", "'"))
  }
  return texts
}

const texts = corpus()
const lines = [...new Set(texts.flatMap((t) => t.split(/\r?\n/)).filter((l) => l.includes("{%")))]

/** Where the editor was wrong: integration tags, spaces around `=`, a keyed unquoted value holding `=`. */
const agreedEditorChange = (line: string): boolean =>
  /\{%-?\s*@/.test(line) || /[\w-]\s+=|=\s+["'\w]/.test(line) || /=[^\s"']*=/.test(line)

describe("differential: the grammar against the editor's and the server's readings", () => {
  it("has a corpus of real GitBook markdown", () => {
    expect(texts.length).toBeGreaterThan(40)
    expect(lines.length).toBeGreaterThan(150)
  })

  it("reads every line as the editor did, except where the editor was wrong", () => {
    const differ = lines.filter((line) => JSON.stringify(Syntax.parseLiquidTag(line)) !== JSON.stringify(Editor.parseLiquidTag(line)))
    expect(differ.filter((line) => !agreedEditorChange(line))).toEqual([])
    for (const line of lines) {
      const tag = Editor.parseLiquidTag(line)
      if (tag === undefined) continue
      expect(Syntax.renderLiquidTag(tag.name, tag.params)).toBe(Editor.renderLiquidTag(tag.name, tag.params))
      expect(Syntax.renderLiquidLine(tag.name, tag.params, line)).toBe(Editor.renderLiquidLine(tag.name, tag.params, line))
    }
  })

  it("finds every tag of every text as the server did, names and attributes alike", () => {
    for (const text of texts) {
      const ours = Syntax.tagsIn(text).map((t) => ({
        name: (t.closes ?? t.name).toLowerCase(), closing: t.closes !== undefined, attributes: Syntax.tagAttributes(t), start: t.start, end: t.end
      }))
      expect(ours).toEqual(serverTags(text))
    }
  })

  it("changes the editor's reading where it disagreed with GitBook", () => {
    expect(Editor.parseLiquidTag(`{% @figma/embed url="u" %}`)).toBeUndefined()
    expect(Syntax.parseLiquidTag(`{% @figma/embed url="u" %}`)?.name).toBe("@figma/embed")
    expect(Editor.parseLiquidTag(`{% hint style = "info" %}`)).toBeUndefined()
    expect(Syntax.parseLiquidTag(`{% hint style = "info" %}`)?.params).toEqual([{ key: "style", value: "info", quote: "\"" }])
    expect(Editor.parseLiquidTag(`{% embed url=https://x.y/?a=b %}`)).toBeUndefined()
    expect(Syntax.parseLiquidTag(`{% embed url=https://x.y/?a=b %}`)?.params).toEqual([{ key: "url", value: "https://x.y/?a=b", quote: "" }])
  })

  it("changes the server's reading where it disagreed with GitBook", () => {
    // A name is letters, digits, `_` and `-`, or an integration's `@scope/name`: `.` and `:` end it.
    expect(serverTags("{% hint.x %}")[0]?.name).toBe("hint.x")
    expect(Syntax.tagsIn("{% hint.x %}")[0]?.name).toBe("hint")
    // `@` starts an integration's name only: `{% a@b %}` is `a` with an argument.
    expect(serverTags("{% a@b %}")[0]?.name).toBe("a@b")
    expect(Syntax.tagsIn("{% a@b %}")[0]).toMatchObject({ name: "a", args: "@b" })
  })
})
