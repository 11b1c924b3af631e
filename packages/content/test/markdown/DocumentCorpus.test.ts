/**
 * Markdown → GitBook document → markdown over every page of real GitBook repositories (their bare
 * git mirrors). A machine without them fails here, naming the missing mirrors, unless
 * `QUIRE_NO_CORPUS=1` says it has none on purpose (then the tests show as skipped, with why).
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import { splitFrontmatter } from "@quire/markdown"
import { documentMarkdown, type RefWriter } from "../../src/markdown/DocumentMarkdown.ts"
import { type IncludeResolver, type RefResolver, toJsonDocument } from "../../src/markdown/JsonDocument.ts"
import { gitPages, MIRRORS } from "../../../document/test/pages.ts"

const missing = MIRRORS.filter(([, dir]) => !existsSync(dir))
const optOut = process.env["QUIRE_NO_CORPUS"] === "1"

/** Every .md file at HEAD of a mirror, named `<repo>:<path>`. */
const pagesOf = ([repo, dir]: readonly [string, string]): Array<readonly [string, string]> =>
  gitPages(dir).map(([path, text]) => [`${repo}:${path}`, text] as const)

// References stay as written both ways, so that the round trip is the blocks' alone.
const refs: RefResolver = (url) => ({ kind: "url", url })
const includes: IncludeResolver = (ref) => ref
const writer: RefWriter = (ref) => (ref.kind === "url" ? ref.url : ref.kind === "reusable-content" ? ref.reusableContent : ref.kind === "anchor" ? `#${ref.anchor}` : "")

/** A page's document without its slices, as a GitBook client may send one. */
const withoutSlices = (markdown: string) => ({ nodes: toJsonDocument(markdown, refs, includes).nodes })

/** What a page's first differing line says about what was lost: the formatting choice, by kind. */
const category = (expected: string, written: string): { readonly kind: string; readonly line: number; readonly was: string; readonly now: string } => {
  const a = expected.split("\n")
  const b = written.split("\n")
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  const was = a[i] ?? "<end>"
  const now = b[i] ?? "<end>"
  const kind = was.trimEnd() === now.trimEnd()
    ? "trailing whitespace"
    : was.trim() === "" || now.trim() === ""
    ? "blank lines"
    : was.replaceAll("\\", "") === now.replaceAll("\\", "")
    ? "escaping"
    : /^\s*(?:```|~~~)/.test(was) || /^\s*(?:```|~~~)/.test(now)
    ? "code fences"
    : /^#{4,}/.test(was)
    ? "headings of level 4+"
    : /^\s*[-+*] /.test(was) && /^\s*[-+*] /.test(now) && was.replace(/[-+*]/, "") === now.replace(/[-+*]/, "")
    ? "list markers"
    : /^\s*\d+[.)]\s/.test(was) && /^\s*\d+[.)]\s/.test(now)
    ? "ordered list numbers and spacing"
    : /^\s*\|/.test(was) || /^\s*\|/.test(now)
    ? "tables"
    : /{%/.test(was) || /{%/.test(now)
    ? "tag spellings"
    : was.replace(/[*_]/g, "") === now.replace(/[*_]/g, "")
    ? "emphasis characters"
    : /^\s*</.test(was)
    ? "HTML"
    : "other"
  return { kind, line: i + 1, was, now }
}

describe("GitBook repositories through GitBook's document", () => {
  if (missing.length > 0 && optOut) {
    it.skip(`QUIRE_NO_CORPUS=1: git mirrors absent (${missing.map(([r]) => r).join(", ")})`, () => {})
    return
  }
  it("this machine has every mirror of the fidelity corpus", () => {
    assert.deepStrictEqual(missing.map(([repo, dir]) => `${repo} at ${dir}`), [])
  })
  const pages = missing.length > 0 ? [] : MIRRORS.flatMap(pagesOf)

  // Without its slices (a GitBook client's document), the page before keeps what reads the same.
  it("every page written back from its document without its slices, the page before given, is the same bytes", () => {
    const differ = pages.filter(([, markdown]) => documentMarkdown(withoutSlices(markdown), { refs: writer, base: { markdown, refs, includes } }) !== markdown)
    assert.deepStrictEqual(differ.map(([name]) => name), [])
    // Every page of three repositories, twice through the parser: minutes beside the other suites.
  }, 300_000)

  /**
   * From its document alone (the frontmatter, which GitBook keeps as the page's fields, given),
   * every page comes back byte for byte; the failures are counted and shown by what they lost.
   */
  it("every page written from its document alone is the same bytes", () => {
    const failed = new Map<string, Array<string>>()
    for (const [name, markdown] of pages) {
      const document = JSON.parse(JSON.stringify(toJsonDocument(markdown, refs, includes)))
      const written = documentMarkdown(document, { refs: writer, base: { markdown: splitFrontmatter(markdown).block } })
      if (written === markdown) continue
      const c = category(markdown, written)
      const list = failed.get(c.kind) ?? []
      list.push(`${name}:${c.line}\n    was: ${JSON.stringify(c.was.slice(0, 160))}\n    now: ${JSON.stringify(c.now.slice(0, 160))}`)
      failed.set(c.kind, list)
    }
    const total = [...failed.values()].reduce((n, l) => n + l.length, 0)
    console.log(`${pages.length - total}/${pages.length} pages come back from their document alone`)
    for (const [kind, list] of [...failed].toSorted((x, y) => y[1].length - x[1].length)) console.log(`${kind}: ${list.length}\n  ${list.slice(0, 3).join("\n  ")}`)
    assert.isAbove(pages.length, 600)
    assert.deepStrictEqual(Object.fromEntries([...failed].map(([k, l]) => [k, l.length])), {})
  }, 300_000)

  it("converts 1.5 MB of these pages as one page", () => {
    let page = ""
    for (const [, markdown] of pages) {
      if (page.length > 1_500_000) break
      page += `${markdown}\n\n`
    }
    const document = toJsonDocument(page, refs, includes)
    assert.isAbove(document.nodes.length, 1000)
  }, 120_000)
})
