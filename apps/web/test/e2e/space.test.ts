/** Reading a space: the tree navigates, the pages linking to a page are listed beside it, the table of contents scrolls to a heading, a comment with a mention, a reply, reactions and resolve, the open change requests are listed, the page and the space export. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Download } from "playwright-core"
import { expect, inject, it } from "vitest"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

/** A download's bytes (the browser runs apart from the test, so they are read through a stream). */
const bytesOf = async (download: Download): Promise<Buffer> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const long = ["Intro.", "", ...Array.from({ length: 40 }, (_, i) => `Filler paragraph ${i}.\n`), "## Deep section", "", "Found it.", ""].join("\n")

it("navigates the tree, scrolls by the table of contents, comments (mention, reply, reactions, resolve), lists change requests", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Readers Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [
      { operation: "insert_page", ref: "w", title: "Welcome", slug: "welcome", document: { markdown: "Hello. Start with [the setup](welcome/setup.md).\n" } },
      { operation: "insert_page", title: "Setup", slug: "setup", into: "w", document: { markdown: long } }
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const open1 = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Rewrite the intro" })
  await api(url, "PATCH", `/spaces/${space.id}/change-requests/${open1.id}`, { status: "open" })

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/welcome`)
    await page.getByRole("heading", { name: "Welcome" }).first().waitFor()
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Setup" }).click()
    await page.waitForURL(/\/welcome\/setup$/)
    await page.getByRole("heading", { name: "Setup" }).first().waitFor()
    expect(await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Setup" }).getAttribute("aria-current")).toBe("page")
    // Beside the page, the pages that link to it.
    await page.getByRole("region", { name: "Links to this page" }).getByRole("link", { name: "Welcome" }).waitFor()

    await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "Deep section" }).click()
    const heading = page.getByRole("heading", { name: "Deep section" })
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300)
    await expect.poll(async () => (await heading.boundingBox())?.y ?? 9999).toBeLessThan(800)

    await page.getByRole("link", { name: /Rewrite the intro/ }).waitFor()

    // Page comments: the review screen's threads (mentions, nested replies, reactions, resolve).
    const box = page.getByLabel("Comment on this page")
    await box.fill("Is this still right, ")
    await box.pressSequentially("@ada")
    const members = page.getByRole("listbox", { name: "Members to mention" })
    await members.getByRole("option", { name: /Ada Admin/ }).waitFor()
    await captureScreen(page, "space-mention")
    await box.press("Enter")
    await members.waitFor({ state: "detached" })
    await box.pressSequentially("?")
    await page.getByRole("button", { name: "Post comment" }).click()
    const thread = page.getByRole("article", { name: "Comment by Ada Admin" })
    await thread.locator(".mention-chip", { hasText: "@Ada Admin" }).waitFor()
    await thread.getByText("Is this still right,").waitFor()
    await thread.getByLabel("Reply", { exact: true }).fill("Yes.")
    await thread.getByRole("button", { name: "Reply", exact: true }).click()
    await thread.locator(".thread-replies").getByText("Yes.").waitFor()
    await thread.locator(".thread-replies").getByRole("button", { name: "Add a reaction to Ada Admin's answer" }).click()
    await page.keyboard.press("Escape")
    expect(await thread.getByRole("button", { name: "React with eyes" }).count()).toBe(0)
    await thread.getByRole("button", { name: "Add a reaction to Ada Admin's comment" }).click()
    await thread.getByRole("button", { name: "React with rocket" }).click()
    await thread.getByRole("button", { name: "🚀 1: Ada Admin" }).waitFor()
    await thread.getByRole("button", { name: "Resolve" }).click()
    await thread.getByText("Resolved by Ada Admin").waitFor()
    await thread.getByRole("button", { name: "Reopen" }).click()
    await thread.getByRole("button", { name: "Resolve" }).waitFor()
    await thread.getByRole("button", { name: "🚀 1: Ada Admin" }).click()
    await thread.getByRole("button", { name: "🚀 1: Ada Admin" }).waitFor({ state: "detached" })
    await thread.getByRole("button", { name: "Add a reaction to Ada Admin's comment" }).click()
    await thread.getByRole("button", { name: "React with thumbs up" }).click()
    await thread.getByRole("button", { name: "👍 1: Ada Admin" }).waitFor()

    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "space-reading")
    expect(problems).toEqual([])

    // Export, from the toolbar's "More" menu: the page shown as a PDF, the space as GitBook markdown in a zip, by keyboard.
    const more = page.getByRole("button", { name: "More", exact: true })
    await more.focus()
    await page.keyboard.press("Enter")
    const menu = page.getByRole("menu", { name: "More" })
    await menu.waitFor()
    // Focus is on the first entry; End, then ArrowUp, is on the entry before the last.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("New change request")
    await page.keyboard.press("End")
    await page.keyboard.press("ArrowUp")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Markdown files (.zip)")
    await captureScreen(page, "space-export")
    const [archive] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")])
    expect(archive.suggestedFilename()).toBe("Handbook.zip")
    const zip = await bytesOf(archive)
    expect(zip.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04")
    for (const name of ["README.md", "SUMMARY.md", "setup.md"]) expect(zip.includes(Buffer.from(name))).toBe(true)
    // The menu closed as the export started, focus back on its button; Escape closes it too, back on its button.
    expect(await menu.isVisible()).toBe(false)
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("More")
    await more.click()
    await page.keyboard.press("Escape")
    expect(await menu.isVisible()).toBe(false)
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("More")
    // A click outside closes it.
    await more.click()
    await page.locator("h1").first().click()
    expect(await menu.isVisible()).toBe(false)
    await more.click()
    const [pdf] = await Promise.all([page.waitForEvent("download"), menu.getByRole("menuitem", { name: "This page as PDF" }).click()])
    expect(pdf.suggestedFilename()).toBe("Handbook.pdf")
    expect((await bytesOf(pdf)).subarray(0, 5).toString("latin1")).toBe("%PDF-")
    // The page alone as markdown, titled; Setup has no subpages, so no section PDF is offered for it.
    await more.click()
    expect(await menu.getByRole("menuitem", { name: /subpages as PDF/ }).count()).toBe(0)
    const [markdownFile] = await Promise.all([page.waitForEvent("download"), menu.getByRole("menuitem", { name: "This page as markdown (.md)" }).click()])
    expect(markdownFile.suggestedFilename()).toBe("Setup.md")
    expect((await bytesOf(markdownFile)).toString("utf8")).toMatch(/^# Setup\n\nIntro\.\n/)
    expect(problems).toEqual([])

    // Import: a folder keeps its structure, as pages of a new change request that opens.
    const folder = mkdtempSync(join(tmpdir(), "quire-import-"))
    mkdirSync(join(folder, "guides"), { recursive: true })
    writeFileSync(join(folder, "README.md"), "# Team notes\n\nWhat we keep.\n")
    writeFileSync(join(folder, "guides", "README.md"), "# Guides\n\nHow we work.\n")
    writeFileSync(join(folder, "guides", "deploy.md"), "# Deploying\n\nShip it.\n")
    writeFileSync(join(folder, "picture.png"), "not markdown")
    await more.click()
    await menu.getByRole("menuitem", { name: "Import…" }).click()
    const imports = page.getByRole("dialog", { name: "Import" })
    await captureScreen(page, "space-import")
    await imports.locator("input[webkitdirectory]").setInputFiles(folder)
    await page.waitForURL(/\/~\/changes\/\d+\/$/)
    const crTree = page.getByRole("navigation", { name: "Pages of the change request" })
    await crTree.getByRole("link", { name: "Deploying" }).waitFor()
    const number = Number(/changes\/(\d+)/.exec(page.url())![1])
    const crs = await api<{ items: ReadonlyArray<{ id: string; number: number; subject: string }> }>(url, "GET", `/spaces/${space.id}/change-requests?status=draft`)
    const imported = crs.items.find((cr) => cr.number === number)!
    expect(imported.subject).toBe("Import 3 pages")
    const tree = await api<{ pages: ReadonlyArray<{ title: string; pages?: ReadonlyArray<{ title: string; pages?: ReadonlyArray<{ title: string }> }> }> }>(url, "GET", `/spaces/${space.id}/change-requests/${imported.id}/content/pages`)
    const added = tree.pages.filter((p) => !["Welcome"].includes(p.title))
    expect(added.map((p) => [p.title, (p.pages ?? []).map((c) => [c.title, (c.pages ?? []).map((g) => g.title)])])).toEqual([["Team notes", []], ["Guides", [["Deploying", []]]]])
    expect(problems).toEqual([])

    // A path no page has says so in words, with the tree still there to pick another page.
    await page.goto(`/s/${space.id}/no-such-page`)
    await page.getByText(/No page at\s*no-such-page/).waitFor()
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Welcome" }).waitFor()
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/space-failure.png" })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})
