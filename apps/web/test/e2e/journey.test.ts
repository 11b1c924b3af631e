/**
 * Issue 21's story in one run, all in the browser: Ada signs in on the sign-in screen, creates a
 * space, writes its first page (a heading, a hint and code from the slash menu, a list by markdown
 * shortcut) and a second page in a change request, and asks Rita for a review; Rita, who joined
 * through an invitation link, comments on a block and approves; Ada merges. Ada edits the page
 * again while a colleague's change to the same line lands on main; she updates from main, resolves
 * the conflict, merges, and browses the space's history. Only the organization, its invitation link
 * and the colleague's change come from the API (their screens are the next issue's). The revision
 * screen is captured (light and dark, axe) by history.test.ts.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { open, sharedBrowser, signInOnScreen } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface PageRead { readonly id: string; readonly title: string; readonly markdown?: string }

/** Picks a block from the slash menu by typing its name. */
const slash = async (page: Page, query: string, expected: string) => {
  await page.keyboard.type(`/${query}`)
  const menu = page.getByRole("listbox", { name: "Insert a block" })
  await expect.poll(() => menu.getByRole("option").first().textContent()).toMatch(new RegExp(`^${expected}`))
  await page.keyboard.press("Enter")
  await menu.waitFor({ state: "detached" })
}

/**
 * The markdown of a change request's page, as stored (read through the API): what the live
 * editor's server has written. A "Saved" already on screen can be the one before the last
 * keystrokes, and the server writes the markdown a moment after storing a change, so the tests wait
 * for the words they typed rather than for the word Saved.
 */
const storedMarkdown = async (spaceId: string, cr: number, title: string): Promise<string> => {
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${spaceId}/change-requests/${cr}/content/pages`)
  const page = pages.pages.find((p) => p.title === title)
  return page === undefined ? "" : (await api<PageRead>(url, "GET", `/spaces/${spaceId}/change-requests/${cr}/content/page/${page.id}?format=markdown`)).markdown ?? ""
}

it("a newcomer's first space: write, review with a second person, merge, resolve a conflict, browse the history", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Journey Org" })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "review" })
  const a = await open(browser(), url, { expected: [/status of 409 \(Conflict\)/] })
  const b = await open(browser(), url)
  try {
    // Ada signs in and creates a space; it is empty, and says how to start.
    await a.page.goto(`/o/${org.id}`)
    await signInOnScreen(a.page)
    await a.page.getByRole("heading", { name: "Journey Org" }).waitFor()
    await a.page.getByRole("button", { name: "New space" }).click()
    await a.page.getByLabel("Title of the new space").fill("Field Guide")
    await a.page.getByRole("button", { name: "Create", exact: true }).click()
    // The new space opens on its first page, its title selected to be typed.
    await a.page.waitForURL(/\/~\/changes\/\d+\/untitled/)
    const first = Number(/\/changes\/(\d+)\//.exec(a.page.url())![1])
    const spaceId = /\/s\/([^/]+)\//.exec(a.page.url())![1]!

    // The first page, written with the slash menu and markdown shortcuts.
    const titleField = a.page.getByRole("textbox", { name: "Page title", exact: true })
    await expect.poll(() => titleField.evaluate((element) => element === document.activeElement)).toBe(true)
    await a.page.keyboard.type("Getting started")
    await a.page.keyboard.press("Enter")
    await a.page.waitForURL(/\/~\/changes\/\d+\/getting-started$/)
    const editor = a.page.getByRole("textbox", { name: "Page content" })
    await editor.waitFor()
    await editor.click()
    await a.page.keyboard.type("Quire keeps our field notes.")
    await a.page.keyboard.press("Enter")
    await slash(a.page, "h2", "Heading 2")
    await a.page.keyboard.type("Before you go")
    await a.page.keyboard.press("Enter")
    await slash(a.page, "hint warn", "Hint: Warning")
    await a.page.keyboard.type("Charge the radio.")
    await a.page.keyboard.press("ControlOrMeta+End")
    await slash(a.page, "code", "Code block")
    await a.page.keyboard.type("check --all")
    await a.page.keyboard.press("ControlOrMeta+End")
    await a.page.keyboard.type("- Maps")
    await a.page.keyboard.press("Enter")
    await a.page.keyboard.type("Water")
    await expect.poll(() => storedMarkdown(spaceId, first, "Getting started"), { timeout: 15_000 }).toContain("- Maps\n- Water")
    // A second page.
    await a.page.getByRole("button", { name: "New page", exact: true }).click()
    await a.page.getByLabel("New page title").fill("Checklists")
    await a.page.getByRole("button", { name: "Add page" }).click()
    await a.page.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: "Checklists" }).waitFor()
    const written = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${spaceId}/change-requests/${first}/content/pages`)
    expect(written.pages.map((p) => p.title)).toEqual(["Getting started", "Checklists"])
    const guide = written.pages[0]!
    const markdown = (await api<PageRead>(url, "GET", `/spaces/${spaceId}/change-requests/${first}/content/page/${guide.id}?format=markdown`)).markdown!
    expect(markdown, markdown).toContain("Quire keeps our field notes.\n\n## Before you go")
    expect(markdown).toContain("{% hint style=\"warning\" %}\nCharge the radio.\n{% endhint %}")
    expect(markdown).toContain("check --all\n```")
    expect(markdown).toContain("- Maps\n- Water")

    // Rita joins through the invitation link; Ada asks her for a review.
    await b.page.goto(`/invite/${org.id}.${link.id}`)
    await b.page.getByLabel("Your name").fill("Rhea Reviewer")
    await b.page.getByLabel("Email").fill("rhea@quire.test")
    await b.page.getByLabel("Password").fill("a password long enough")
    await b.page.getByRole("button", { name: "Create the account and join" }).click()
    await b.page.getByRole("heading", { name: "Journey Org", exact: true }).waitFor()
    const review = `/s/${spaceId}/~/changes/${first}/~/review`
    await a.page.getByRole("navigation", { name: "Change request", exact: true }).getByRole("link", { name: /^Review/ }).click()
    await a.page.waitForURL(new RegExp(`${review}$`))
    await a.page.getByLabel("Ask for a review").selectOption({ label: "Rhea Reviewer" })
    await a.page.getByRole("button", { name: "Request review" }).click()
    await a.page.getByText("Rhea Reviewer: review requested").waitFor()

    // Rita finds the request in her notifications, comments on the hint and approves.
    await b.page.getByRole("link", { name: /Notifications/ }).click()
    await b.page.getByRole("link", { name: /review/i }).first().click()
    await b.page.waitForURL(new RegExp(`${review}$`))
    await b.page.locator(".review-row", { hasText: "Charge the radio." }).getByRole("button", { name: /Comment on block/ }).click()
    const hintRow = b.page.locator(".review-row", { hasText: "Charge the radio." })
    await hintRow.getByLabel("Comment on this block").fill("Spare batteries too?")
    await hintRow.getByRole("button", { name: "Post comment" }).click()
    await b.page.getByRole("article", { name: "Comment by Rhea Reviewer" }).getByText("Spare batteries too?").waitFor()
    await b.page.getByRole("button", { name: "Approve" }).click()
    await b.page.getByText("Rhea Reviewer: approved").waitFor()

    // Ada reads the comment and merges.
    await a.page.reload()
    await a.page.getByRole("article", { name: "Comment by Rhea Reviewer" }).getByText("Spare batteries too?").waitFor()
    await a.page.getByText("Rhea Reviewer: approved").waitFor()
    await a.page.getByRole("button", { name: "Merge", exact: true }).click()
    await a.page.getByTestId("status").filter({ hasText: "merged" }).waitFor()

    // Ada edits the page again; meanwhile a colleague's change to the same line lands on main.
    await a.page.goto(`/s/${spaceId}/getting-started`)
    await a.page.getByRole("button", { name: "Edit", exact: true }).click()
    await a.page.waitForURL(/\/~\/changes\/\d+\/getting-started$/)
    const second = Number(/\/changes\/(\d+)\//.exec(a.page.url())![1])
    expect(second).not.toBe(first)
    await editor.getByText("Charge the radio.").click()
    await a.page.keyboard.press("End")
    await a.page.keyboard.type(" And spare batteries.")
    await expect.poll(() => storedMarkdown(spaceId, second, "Getting started"), { timeout: 15_000 }).toContain("Charge the radio. And spare batteries.")
    const colleague = await api<{ id: string }>(url, "POST", `/spaces/${spaceId}/change-requests`, { subject: "Radio wording" })
    await api(url, "POST", `/spaces/${spaceId}/change-requests/${colleague.id}/content`, {
      changes: [{ operation: "update_page", page: guide.id, document: { markdown: markdown.replace("Charge the radio.", "Charge the radio fully.") } }]
    })
    await api(url, "POST", `/spaces/${spaceId}/change-requests/${colleague.id}/merge`)

    // She updates from main, keeps her wording, merges.
    await a.page.getByRole("navigation", { name: "Change request", exact: true }).getByRole("link", { name: /^Review/ }).click()
    await a.page.getByRole("button", { name: "Update from main" }).click()
    await a.page.getByRole("heading", { name: "Conflicts" }).waitFor()
    const conflict = a.page.getByRole("group", { name: "Conflict on Getting started" })
    await conflict.getByText("Charge the radio fully.").waitFor()
    await conflict.getByLabel("Keep this change").check()
    await a.page.getByRole("button", { name: "Resolve conflicts" }).click()
    await a.page.getByRole("heading", { name: "Conflicts" }).waitFor({ state: "detached" })
    await a.page.getByRole("button", { name: "Merge", exact: true }).click()
    await a.page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
    const main = await api<PageRead>(url, "GET", `/spaces/${spaceId}/content/page/${guide.id}?format=markdown`)
    expect(main.markdown).toContain("Charge the radio. And spare batteries.")

    // The history lists the three merges after the space's creation; the first merge shows what it added.
    await a.page.goto(`/s/${spaceId}/~/history`)
    const list = a.page.getByRole("list", { name: "Revisions" })
    await list.getByRole("link", { name: /Radio wording/ }).waitFor()
    expect(await list.locator("> li").count()).toBe(4)
    // The oldest is the empty space's own revision; the first merge's says what it added.
    await list.locator("> li", { hasText: "Added page “Getting started”" }).getByRole("link").first().click()
    await a.page.waitForURL(/\/~\/revisions\//)
    await a.page.getByText("Added page “Getting started”").waitFor()
    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
  } catch (error) {
    await a.page.screenshot({ path: "test/artifacts/journey-failure-a.png", fullPage: true })
    await b.page.screenshot({ path: "test/artifacts/journey-failure-b.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${[...a.problems, ...b.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
  }
})
