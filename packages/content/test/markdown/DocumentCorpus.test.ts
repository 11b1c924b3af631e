/**
 * Markdown → GitBook document → markdown over every page of real GitBook repositories (their bare
 * git mirrors). A machine without them fails here, naming the missing mirrors, unless
 * `QUIRE_NO_CORPUS=1` says it has none on purpose (then the tests show as skipped, with why).
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import { documentMarkdown, type RefWriter } from "../../src/markdown/DocumentMarkdown.ts"
import { schemas, violations } from "@quire/testkit/GitbookSchemas"
import { withKeys } from "../../src/markdown/DocumentKeys.ts"
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


describe("GitBook repositories through GitBook's document", () => {
  if (missing.length > 0 && optOut) {
    it.skip(`QUIRE_NO_CORPUS=1: git mirrors absent (${missing.map(([r]) => r).join(", ")})`, () => {})
    return
  }
  it("this machine has every mirror of the fidelity corpus", () => {
    assert.deepStrictEqual(missing.map(([repo, dir]) => `${repo} at ${dir}`), [])
  })
  const pages = missing.length > 0 ? [] : MIRRORS.flatMap(pagesOf)

  // The page before keeps the text of every block that reads the same.
  it("every page written back from its document, the page before given, is the same bytes", () => {
    const differ = pages.filter(([, markdown]) => documentMarkdown(toJsonDocument(markdown, refs, includes), { refs: writer, base: { markdown, refs, includes } }) !== markdown)
    assert.deepStrictEqual(differ.map(([name]) => name), [])
    // Every page of three repositories, twice through the parser: minutes beside the other suites.
  }, 300_000)

  /**
   * From its document alone (a GitBook client's new page: no page before), every page is written in
   * GitBook's style and reads back as the same blocks; the failures are counted and shown by the
   * first block that differs.
   */
  it("every page written from its document alone reads back as the same document", () => {
    const failed: Array<string> = []
    for (const [name, markdown] of pages) {
      const document = toJsonDocument(markdown, refs, includes)
      const written = documentMarkdown(JSON.parse(JSON.stringify(document)), { refs: writer })
      const again = toJsonDocument(written, refs, includes)
      if (JSON.stringify(again) === JSON.stringify(document)) continue
      const at = document.nodes.findIndex((block, i) => JSON.stringify(block) !== JSON.stringify(again.nodes[i]))
      failed.push(`${name} block ${at}\n    was: ${JSON.stringify(document.nodes[at]).slice(0, 300)}\n    now: ${JSON.stringify(again.nodes[at]).slice(0, 300)}`)
    }
    console.log(`${pages.length - failed.length}/${pages.length} pages read back from their document alone as the same document`)
    for (const line of failed.slice(0, 10)) console.log(line)
    assert.isAbove(pages.length, 600)
    assert.deepStrictEqual(failed.map((line) => line.split(" ")[0]), [])
  }, 300_000)

  /**
   * Every page's document is in GitBook's schema (`@gitbook/api`'s `JSONDocument`), but where
   * GitBook's own pages nest blocks its spec does not list (images in list items, tables, tabs
   * and files in stepper steps, steppers in tabs, tables and embeds in updates): those pages are
   * named here, so that any other page out of the schema fails. (A file attached by URL, as every
   * file is here where references stay URLs, is GitBook's embed of that URL.) GitBook's own page on
   * inline content shows an inactive button, a button with neither target nor action, which its
   * renderer draws disabled and its spec does not allow: that page is named too.
   */
  it("every page's document is in GitBook's schema, but for nestings GitBook's own pages use and its spec omits", () => {
    const outside = new Set([
      "GitbookIO/public-docs:changelog/2025-product-updates.md",
      "GitbookIO/public-docs:developers/gitbook-api/quickstart.md",
      "GitbookIO/public-docs:documentation/ai-for-your-readers/gitbook-ai-assistant.md",
      "GitbookIO/public-docs:documentation/docs-as-code/ai-coding-assistants-and-skillmd.md",
      "GitbookIO/public-docs:documentation/create-content/formatting/inline.md",
      "GitbookIO/public-docs:documentation/getting-started/quickstart.md",
      "GitbookIO/public-docs:documentation/gitbook-agent/channels.md",
      "GitbookIO/public-docs:documentation/publish/custom-domain/setting-a-custom-subdirectory/configuring-a-subdirectory-with-aws.md",
      "GitbookIO/public-docs:documentation/publish/embedding/README.md",
      "GitbookIO/public-docs:documentation/publish/site-audience/authenticated-access/setting-up-auth0.md",
      "GitbookIO/public-docs:documentation/publish/site-audience/authenticated-access/setting-up-azure-ad.md",
      "BeefreeSDK/beefree-sdk-docs:forms/form-block.md",
      "BeefreeSDK/beefree-sdk-docs:getting-started/readme/create-an-application.md",
      "BeefreeSDK/beefree-sdk-docs:other-customizations/advanced-options/advanced-permissions.md",
      "BeefreeSDK/beefree-sdk-docs:other-customizations/content-area-padding.md",
      "BeefreeSDK/beefree-sdk-docs:rows/reusable-content/create/save/implement-hosted-saved-rows.md",
      "BeefreeSDK/beefree-sdk-docs:rows/storage/hosted-saved-rows.md"
    ])
    const failing = pages.flatMap(([name, markdown]) => {
      const found = violations(withKeys(toJsonDocument(markdown)), schemas["JSONDocument"]!, "document")
      return found.length === 0 || outside.has(name) ? [] : [`${name}: ${found[0]!.slice(0, 300)}`]
    })
    assert.isAbove(pages.length, 600)
    assert.deepStrictEqual(failing, [])
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
