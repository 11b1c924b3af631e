/**
 * Markdown → GitBook document → markdown over every page of real GitBook repositories (their bare
 * git mirrors; skipped on machines without them).
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import { splitFrontmatter } from "@quire/markdown"
import { documentMarkdown, type RefWriter } from "../../src/markdown/DocumentMarkdown.ts"
import { type IncludeResolver, type RefResolver, toJsonDocument } from "../../src/markdown/JsonDocument.ts"
import { gitPages, MIRRORS } from "../../../document/test/pages.ts"

/** The mirrors this machine has. */
const mirrors = MIRRORS.filter(([, dir]) => existsSync(dir))

/** Every .md file at HEAD of a mirror, named `<repo>:<path>`. */
const pagesOf = ([repo, dir]: readonly [string, string]): Array<readonly [string, string]> =>
  gitPages(dir).map(([path, text]) => [`${repo}:${path}`, text] as const)

// References stay as written both ways, so that the round trip is the blocks' alone.
const refs: RefResolver = (url) => ({ kind: "url", url })
const includes: IncludeResolver = (ref) => ref
const writer: RefWriter = (ref) => (ref.kind === "url" ? ref.url : ref.kind === "reusable-content" ? ref.reusableContent : ref.kind === "anchor" ? `#${ref.anchor}` : "")

describe.skipIf(mirrors.length === 0)("GitBook repositories through GitBook's document", () => {
  const pages = mirrors.flatMap(pagesOf)

  it("every page written back from its document, the page before given, is the same bytes", () => {
    const differ = pages.filter(([, markdown]) => documentMarkdown(toJsonDocument(markdown, refs, includes), { refs: writer, base: { markdown, refs, includes } }) !== markdown)
    assert.deepStrictEqual(differ.map(([name]) => name), [])
    // Every page of three repositories, twice through the parser: minutes beside the other suites.
  }, 300_000)

  /**
   * Without the page before, a page is written in GitBook's style, so only what GitBook's model
   * holds comes back: of the 685 pages, 215 come back byte for byte. The others differ where the
   * model has no place for what they wrote: headings of level 4 and more (GitBook has three),
   * HTML blocks and inline HTML GitBook has no node for (`<table>` without cards, `<button>`,
   * `<div align>`, `{% updates %}`), which are kept as escaped text, and hand-written style (`-`
   * bullets, `*` emphasis, `1.  ` item spacing, escapes). 37 pages read back as another document
   * (a paragraph's closing hard break, HTML in cards' cells such as `<h4>` around an icon, cells
   * of several paragraphs, HTML blocks read as text), and 3 more whose rewrite escapes a `]` but
   * not its `[`, so that their brackets pass the nesting limit and the page reads back as plain text:
   * at most 40 may. The counts may only improve.
   */
  it("pages written from their document alone: how many come back as the same bytes, how many as the same document", () => {
    let same = 0
    const lossy: Array<string> = []
    for (const [name, markdown] of pages) {
      const document = toJsonDocument(markdown, refs, includes)
      const written = documentMarkdown(document, { refs: writer, base: { markdown: splitFrontmatter(markdown).block } })
      if (written === markdown) same++
      else if (JSON.stringify(toJsonDocument(written, refs, includes)) !== JSON.stringify(document)) lossy.push(name)
    }
    assert.isAtLeast(same, mirrors.length === 3 ? 215 : 0)
    assert.isAtMost(lossy.length, mirrors.length === 3 ? 40 : pages.length)
  }, 300_000)
  // How long it takes is a figure for the bench, not for a test on a shared machine.
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
