/**
 * The lossless round trip through the real editor: every committed fixture page and every page of the real
 * GitBook repositories this machine has, loaded into the Editor component (TipTap in Chromium) and saved
 * untouched, must give back the same bytes; a word typed at the end of a paragraph must change only that
 * paragraph's lines. The editor runs in a test-only page (test/harness), built and served here.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Harness, HarnessResult } from "../harness/main.tsx"
import { buildHarness, serveHarness, type Served } from "../harness/serve.ts"
import { corpusPages, fixturePages, type Page as MarkdownPage } from "../../../../packages/document/test/pages.ts"
import { captureScreen, launch, open } from "./browser.ts"

let browser: Browser
let served: Served
let page: Page
let problems: Array<string>

const fixtures = fixturePages()
const corpus = corpusPages()

beforeAll(async () => {
  await buildHarness()
  served = await serveHarness()
  browser = await launch()
  const session = await open(browser, served.url)
  page = session.page
  problems = session.problems
  // Pages name images on other hosts: nothing leaves the machine, they answer empty.
  await page.route((url) => !url.href.startsWith(served.url), (route) => route.fulfill({ status: 204 }))
  await page.goto("/")
  await page.waitForFunction(() => window.quireHarness !== undefined && document.querySelector(".ProseMirror") !== null)
})

afterAll(async () => {
  await browser?.close()
  await served?.close()
})

/** Calls one of the harness page's functions (test/harness/main.tsx). */
const harness = <K extends keyof Harness>(name: K, ...args: Parameters<Harness[K]>): Promise<Awaited<ReturnType<Harness[K]>>> =>
  page.evaluate(
    ([n, a]) => (window.quireHarness![n] as (...xs: Array<unknown>) => unknown)(...a),
    [name, args] as const
  ) as Promise<Awaited<ReturnType<Harness[K]>>>

/** Every page through one page load, in batches (the markdown crosses the DevTools protocol once). */
const roundTrip = async (pages: ReadonlyArray<MarkdownPage>): Promise<Array<HarnessResult>> => {
  const results: Array<HarnessResult> = []
  for (let k = 0; k < pages.length; k += 40) results.push(...(await harness("roundTrip", pages.slice(k, k + 40))))
  return results
}

const expectAllIdentical = (results: ReadonlyArray<HarnessResult>, label: string) => {
  const differing = results.filter((r) => !r.identical).map((r) => `${r.name} at ${r.firstDifference!.at}: ${r.firstDifference!.expected} became ${r.firstDifference!.actual}`)
  const bytes = results.reduce((sum, r) => sum + r.bytes, 0)
  console.log(`${label}: ${results.length - differing.length}/${results.length} pages (${bytes} bytes) identical after load and save in Chromium`)
  expect(differing).toEqual([])
  // Every top-level block is drawn (a block the editor could not show would be missing from the page).
  expect(results.filter((r) => r.drawn !== r.blocks).map((r) => `${r.name}: ${r.drawn} of ${r.blocks} drawn`)).toEqual([])
}

/** The markdown the editor last reported, once it reported what is pending (it does when the tab is hidden, as when typing pauses). */
const reported = async () => {
  await page.evaluate(() => window.dispatchEvent(new Event("pagehide")))
  return harness("lastChange")
}

/** Types at the end of the first paragraph with text after `from` and checks only its lines changed. */
const editOneParagraph = async (markdown: string, from = 0): Promise<{ before: Array<string>; after: Array<string>; start: number; end: number } | undefined> => {
  await harness("load", markdown)
  const blocks = await harness("blocks")
  const index = blocks.findIndex((b, k) => k >= from && b.type === "paragraph" && b.text.trim() !== "" && b.source !== null)
  if (index < 0) return undefined
  const start = blocks.slice(0, index).reduce((n, b) => n + b.source!.split("\n").length - 1, 0)
  const end = start + blocks[index]!.source!.replace(/\r?\n[ \t\r\n]*$/, "").split("\n").length
  await harness("placeCursorAtEnd", index)
  await page.keyboard.type(" Quire edit", { delay: 0 })
  const out = await reported()
  expect(out, "the editor reported the edit").not.toBeNull()
  return { before: markdown.split("\n"), after: out!.split("\n"), start, end }
}

describe("the real editor in Chromium", () => {
  it("gives back every committed fixture page byte for byte", async () => {
    expect(fixtures.length).toBeGreaterThan(30)
    expectAllIdentical(await roundTrip(fixtures), "fixtures")
    expect(problems).toEqual([])
  })

  // One test a repository: each has its own time budget, so a slower machine does not fail the whole corpus at once.
  for (const repo of corpus.found) {
    const pages = corpus.pages.filter(([name]) => name.startsWith(`${repo}:`))
    it(`gives back every page of the real GitBook repository ${repo} byte for byte (${pages.length} pages)`, async () => {
      expect(pages.length).toBeGreaterThan(0)
      expectAllIdentical(await roundTrip(pages), `corpus ${repo}`)
      expect(problems).toEqual([])
    }, 600_000)
  }

  it("a word typed in one paragraph changes only that paragraph's lines", async () => {
    const sample = [...fixtures, ...corpus.pages.filter((_, k) => k % 23 === 0)]
    let edited = 0
    for (const [name, markdown] of sample) {
      const r = await editOneParagraph(markdown)
      if (!r) continue
      edited++
      const { before, after, start, end } = r
      const tail = before.length - end
      expect(after.slice(0, start), `${name}: lines before the paragraph`).toEqual(before.slice(0, start))
      expect(after.slice(after.length - tail), `${name}: lines after the paragraph`).toEqual(before.slice(end))
      expect(after.slice(start, after.length - tail).join("\n"), `${name}: the paragraph`).toContain("Quire edit")
    }
    console.log(`edits: ${edited} pages edited at one paragraph by keyboard, only its lines changed`)
    // The fixtures alone give 12 pages with a paragraph to edit (CI has no corpora on disk); with the corpora, 39.
    expect(edited).toBeGreaterThanOrEqual(corpus.pages.length === 0 ? 12 : 30)
    expect(problems).toEqual([])
  })
})

const PAGE = [
  "# Blocks",
  "A paragraph to show as source.",
  "",
  "| Name | Size |",
  "|:-----|-----:|",
  "| a    |    1 |",
  "",
  "{% hint style=\"warning\" %}",
  "A hint, drawn as the site draws it.",
  "{% endhint %}",
  "",
  "<div align=\"center\">",
  "Centered HTML the editor cannot draw",
  "</div>",
  "",
  "<table data-view=\"cards\"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th></tr></thead><tbody><tr><td><strong>One</strong></td><td>First card.</td><td><a href=\"one.md\">one.md</a></td></tr></tbody></table>",
  "",
  "Last paragraph.",
  ""
].join("\n")

const lines = (text: string | null) => (text ?? "").split("\n")
/** Lines of `after` that differ from `before` (same length assumed, or the whole changed middle). */
const changedLines = (before: string, after: string | null): Array<string> => {
  const a = lines(before)
  const b = lines(after)
  let start = 0
  while (start < a.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  return b.slice(start, b.length - end)
}

describe("editing blocks as markdown, tables and cards in the real editor", () => {
  it("Mod-Alt-U shows a block as its source; Escape reads it back, unchanged bytes when not edited", async () => {
    await harness("load", PAGE)
    await harness("placeCursorAtEnd", 1)
    await page.keyboard.press("Control+Alt+u")
    const source = page.getByRole("textbox", { name: "Markdown source of this block" })
    await expect.poll(() => source.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true)
    expect(await source.inputValue()).toBe("A paragraph to show as source.")
    await page.keyboard.press("Escape")
    expect(await harness("serialize")).toBe(PAGE)
    expect(await reported()).toBeNull()
    expect((await harness("blocks")).map((b) => b.type)).toEqual(["heading", "paragraph", "table", "hint", "raw", "cards", "paragraph"])

    await harness("placeCursorAtEnd", 1)
    await page.keyboard.press("Control+Alt+u")
    await source.press("Control+End")
    await page.keyboard.type(" Now *emphasised*.\n\n- and a list")
    await page.keyboard.press("Escape")
    expect(changedLines(PAGE, await reported())).toEqual(["A paragraph to show as source. Now *emphasised*.", "", "- and a list"])
    expect((await harness("blocks")).map((b) => b.type).slice(0, 4)).toEqual(["heading", "paragraph", "bulletList", "table"])
    // The editor takes focus back on the next frame (the source textarea is gone by then).
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("ProseMirror"))).toBe(true)

    // A hint's "Markdown" button: its liquid tags as written, and back unchanged.
    await harness("load", PAGE)
    await page.locator(".hint").getByRole("button", { name: "Edit this block as markdown" }).click()
    await expect.poll(() => source.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await source.inputValue()).toBe("{% hint style=\"warning\" %}\nA hint, drawn as the site draws it.\n{% endhint %}")
    await page.getByRole("button", { name: "Done: show this markdown as blocks" }).click()
    expect(await harness("serialize")).toBe(PAGE)
    expect((await harness("blocks"))[3]!.type).toBe("hint")
  })

  it("a block the editor cannot draw is edited in place as source: still unknown stays raw, known becomes blocks", async () => {
    await harness("load", PAGE)
    const raw = page.getByRole("textbox", { name: "Markdown the editor cannot show" })
    await raw.fill("<div align=\"center\">\nStill centered HTML\n</div>")
    await page.getByRole("button", { name: "Apply: read this markdown again" }).click()
    expect(changedLines(PAGE, await reported())).toEqual(["Still centered HTML"])
    expect((await harness("blocks"))[4]!.type).toBe("raw")
    await raw.fill("## A heading now")
    // Focus leaves the box (it may already have become the heading: no wait for it to be there).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    // Leaving the source box reads it back when the editor gets to it: wait for that, not a fixed time.
    await expect.poll(async () => changedLines(PAGE, await reported())).toEqual(["## A heading now"])
    expect((await harness("blocks"))[4]!.type).toBe("heading")
  })

  it("table rows and columns from the tool buttons and the keyboard; cards edited as fields", async () => {
    await harness("load", PAGE)
    await page.getByRole("cell", { name: "a", exact: true }).click()
    // The editor reads a click's selection a moment later: a key pressed before would act where the cursor was.
    await expect.poll(() => harness("cursorText")).toBe("a")
    await page.getByRole("button", { name: "Add a row below (Mod-Alt-Down)" }).click()
    expect(changedLines(PAGE, await reported())).toEqual(["| a    |    1 |", "|  |  |"].slice(1))
    await page.getByRole("columnheader", { name: "Name" }).click()
    await expect.poll(() => harness("cursorText")).toBe("Name")
    await page.keyboard.press("Control+Alt+ArrowRight")
    expect(changedLines(PAGE, await reported())).toEqual(["| Name |  | Size |", "| :----- | --- | -----: |", "| a |  | 1 |", "|  |  |  |"])
    await page.keyboard.press("Control+Alt+Shift+Backspace")
    expect(changedLines(PAGE, await reported())).toEqual(["|  | Size |", "| --- | -----: |", "|  | 1 |", "|  |  |"])
    await page.getByRole("cell", { name: "1", exact: true }).click()
    await expect.poll(() => harness("cursorText")).toBe("1")
    await page.keyboard.press("Control+Alt+Backspace")
    expect(changedLines(PAGE, await reported())).toEqual(["|  | Size |", "| --- | -----: |", "|  |  |"])

    await harness("load", PAGE)
    const card = page.getByRole("group", { name: "Card 1" })
    await card.getByRole("textbox", { name: "Title" }).fill("First")
    await page.keyboard.press("Tab")
    // Focus went on to the next field, through the card's redraw.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest("label")?.textContent)).toContain("Description")
    await card.getByRole("textbox", { name: "Target" }).click()
    await page.keyboard.press("Control+a")
    await page.keyboard.type("guide/first.md")
    await page.keyboard.press("Tab")
    const cards = lines(await reported()).find((l) => l.startsWith("<table"))
    expect(cards).toContain("<td><strong>First</strong></td><td>First card.</td><td><a href=\"guide/first.md\">guide/first.md</a></td>")
    await page.getByRole("button", { name: "Add a card" }).click()
    await expect.poll(() => page.getByRole("group", { name: /^Card \d$/ }).count()).toBe(2)
    await page.getByRole("button", { name: /^Remove card 2/ }).click()
    await expect.poll(() => page.getByRole("group", { name: /^Card \d$/ }).count()).toBe(1)
    expect(problems).toEqual([])
  })

  it("looks like the published page (the site's classes and render.css), light and dark, wide and narrow", async () => {
    await harness("load", PAGE)
    expect(await page.locator(".ProseMirror.markdown .hint.hint-warning").count()).toBe(1)
    expect(await page.locator("link[data-render-css]").count()).toBe(1)
    const background = await page.locator(".hint").evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(background).not.toBe("rgba(0, 0, 0, 0)")
    await captureScreen(page, "editor-blocks")
    expect(problems).toEqual([])
  })
})
