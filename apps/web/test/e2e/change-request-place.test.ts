/**
 * A change request as one place (issue 59 item 1): its editor and its review share one header
 * (number, subject, state, "Edit" / "Review" as tabs, the shown one marked), so Ada moves between
 * them by keyboard and submits the draft for review from either; nothing links "Back to the space".
 * The editor lists the review's threads on the open page (the words each is on, its author, its
 * replies, resolved or not), each a link to the thread in the review, and each answered, resolved
 * and reopened right there; the Review tab counts the
 * change request's open threads. Beside the review, the sidebar lists the space's change requests,
 * filtered by status and "Yours", the one shown marked; on a phone, behind the sidebar's button.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureAllPairs, errorOf, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { encodeAnchor, fingerprint } from "../../src/features/review/anchors.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

/** A comment's anchor on the words `quote` of top-level block `block`, whose text is `text` (as the review writes it). */
const on = (block: number, text: string, quote: string) =>
  encodeAnchor({ block, fingerprint: fingerprint(text), offset: text.indexOf(quote), length: quote.length, quote })

const tabs = (page: Page) => page.getByRole("navigation", { name: "Change request", exact: true })

it("joins the change request's editor and review under one header", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Place Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Explain restarts" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Restart", slug: "restart", document: { markdown: "Stop the worker, then the server.\n\nStart them in the other order.\n" } }]
  })
  // Threads as the review writes them: on words of the page's blocks, and on the change request itself.
  const comments = `/spaces/${space.id}/change-requests/${cr.id}/comments`
  const { pages } = await api<{ pages: ReadonlyArray<{ id: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/content/pages`)
  const pageId = pages[0]!.id
  const asked = await api<{ id: string }>(url, "POST", comments, { body: { markdown: "Which server: the web one?" }, page: pageId, node: on(0, "Stop the worker, then the server.", "the server") })
  const settled = await api<{ id: string }>(url, "POST", comments, { body: { markdown: "Say how long to wait." }, page: pageId, node: on(1, "Start them in the other order.", "other order") })
  await api(url, "POST", `${comments}/${settled.id}/replies`, { body: { markdown: "A minute, added." } })
  await api(url, "PUT", `${comments}/${settled.id}`, { resolved: true })
  await api(url, "POST", comments, { body: { markdown: "Ship it after the release." } })
  const ada = await open(browser(), url)
  try {
    await signInAsAdmin(ada, url)
    const { page, problems } = ada
    await page.goto(`/s/${space.id}/~/changes/${cr.number}`)
    await page.getByRole("heading", { name: `Change request #${cr.number}`, exact: true }).waitFor()
    expect(await page.getByLabel("Change request subject").inputValue()).toBe("Explain restarts")
    expect(await tabs(page).getByRole("link", { name: "Edit", exact: true }).getAttribute("aria-current")).toBe("page")
    expect(await tabs(page).getByRole("link", { name: /^Review/ }).getAttribute("aria-current")).toBeNull()
    expect(await page.getByRole("link", { name: "Back to the space" }).count()).toBe(0)
    expect(await page.getByRole("link", { name: "Open its review" }).count()).toBe(0)
    await page.getByRole("textbox", { name: "Page content" }).waitFor()

    // The page's threads in the right panel, each as the server has it; the one on the change request is not the page's.
    const onPage = page.getByRole("complementary", { name: "Change request details" }).getByRole("region", { name: "Comments on this page" })
    const askedLink = onPage.getByRole("article").filter({ hasText: "Which server: the web one?" }).getByRole("link", { name: "Open in the review" })
    await askedLink.waitFor()
    const items = onPage.getByRole("list", { name: "Threads on this page" }).locator(":scope > li")
    expect(await items.count()).toBe(2)
    expect(await items.nth(0).textContent()).toContain("On “the server”")
    expect(await items.nth(0).textContent()).toContain("Open · no reply")
    expect(await items.nth(1).textContent()).toContain("On “other order”")
    expect(await items.nth(1).textContent()).toContain("Resolved · 1 reply")
    expect(await askedLink.getAttribute("href")).toBe(`/s/${space.id}/~/changes/${cr.number}/~/review#thread-${asked.id}`)
    // Two threads are open: the page's first and the change request's own.
    expect(await tabs(page).getByRole("link", { name: /^Review/ }).textContent()).toBe("Review2, 2 open threads")
    await captureAllPairs(page, "cr-place-edit")

    // By keyboard to the review: the same header, the subject its heading, the Review tab the one shown.
    await tabs(page).getByRole("link", { name: /^Review/ }).focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByRole("heading", { name: "Explain restarts", level: 1 }).waitFor()
    expect(await tabs(page).getByRole("link", { name: /^Review/ }).getAttribute("aria-current")).toBe("page")
    expect(await tabs(page).getByRole("link", { name: "Edit", exact: true }).getAttribute("aria-current")).toBeNull()

    // The draft is submitted for review from the review's header; the server says so.
    await page.getByRole("button", { name: "Submit for review" }).click()
    await eventually("the change request open", () => api<{ status: string }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`), (read) => read.status === "open")
    await page.getByRole("button", { name: "Archive" }).waitFor()
    await captureAllPairs(page, "cr-place-review")

    // Beside the review, the space's change requests of a status, the one shown marked.
    const tidy = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Tidy the glossary" })
    const old = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "An old idea" })
    await api(url, "PATCH", `/spaces/${space.id}/change-requests/${old.id}`, { status: "archived" })
    await page.reload()
    const list = page.getByRole("navigation", { name: "Change requests", exact: true })
    const shown = list.getByRole("link", { name: `#${cr.number} Explain restarts` })
    await shown.waitFor()
    expect(await shown.getAttribute("aria-current")).toBe("page")
    await list.getByLabel("Status").selectOption({ label: "Archived" })
    await list.getByRole("link", { name: `#${old.number} An old idea` }).waitFor()
    expect(await list.getByRole("link").filter({ hasText: "Explain restarts" }).count()).toBe(0)
    await list.getByLabel("Status").selectOption({ label: "Draft" })
    await list.getByRole("checkbox", { name: "Yours" }).check()
    const tidyLink = list.getByRole("link", { name: `#${tidy.number} Tidy the glossary` })
    await tidyLink.waitFor()
    await captureAllPairs(page, "cr-place-list")
    // On a phone the list is in the sidebar the header's button opens.
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await list.isVisible()).toBe(false)
    await page.getByRole("button", { name: "Open the sidebar" }).click()
    await tidyLink.waitFor()
    await expectAccessible(page, "the change requests in the drawer (390 px)")
    if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}cr-place-list-drawer-light-390.png` })
    await tidyLink.click()
    await page.waitForURL(`**/s/${space.id}/~/changes/${tidy.number}/~/review`)
    await page.getByRole("heading", { name: "Tidy the glossary", level: 1 }).waitFor()
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goBack()
    await page.getByRole("heading", { name: "Explain restarts", level: 1 }).waitFor()

    // And back to the editor by keyboard.
    await tabs(page).getByRole("link", { name: "Edit", exact: true }).focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/s/${space.id}/~/changes/${cr.number}`)
    await page.getByRole("textbox", { name: "Page content" }).waitFor()

    // A thread's link in the editor opens the review on it: its page unfolded, the thread in view with the focus.
    await askedLink.focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/~/review#thread-${asked.id}`)
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 15_000 }).toBe(`thread-${asked.id}`)
    expect(problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})

/** Every text of a GitBook document, one line per top-level block (a list's items run together). */
const textOf = (doc: unknown): string => {
  const walk = (node: unknown): string => {
    const n = node as { leaves?: ReadonlyArray<{ text: string }>; nodes?: ReadonlyArray<unknown> }
    return n.leaves !== undefined ? n.leaves.map((l) => l.text).join("") : (n.nodes ?? []).map(walk).join("")
  }
  return doc === undefined ? "" : (doc as { nodes: ReadonlyArray<unknown> }).nodes.map(walk).join("\n")
}

it("says what a change request changes and why in its description, written as markdown under the title", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Description Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Explain on-call" })
  const read = () => api<{ description?: unknown; subject: string }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`)
  // The one 400 is the refusal the test answers in the server's place.
  const ada = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/] })
  try {
    await signInAsAdmin(ada, url)
    const { page, problems } = ada
    await page.goto(`/s/${space.id}/~/changes/${cr.number}`)
    await page.getByRole("heading", { name: `Change request #${cr.number}`, exact: true }).waitFor()
    const description = page.getByRole("region", { name: "Description" })

    // Added by keyboard as markdown; the server holds GitBook's document of it.
    await description.getByRole("button", { name: "Add a description" }).click()
    const field = description.getByRole("textbox", { name: /^Description/ })
    await field.fill("Why: on-call had **no** page.\n\n- Who is on call\n- How to hand over")
    await field.press("Control+Enter")
    const stored = await eventually("the description stored", read, (cr) => cr.description !== undefined)
    expect(textOf(stored.description)).toBe("Why: on-call had no page.\nWho is on callHow to hand over")
    expect((stored.description as { nodes: ReadonlyArray<{ type: string }> }).nodes.map((n) => n.type)).toEqual(["paragraph", "list-unordered"])
    await description.getByRole("button", { name: "Edit description" }).waitFor()
    expect(await description.getByRole("status").textContent()).toBe("Saved")
    // Drawn as the review draws a page: the bold word bold, the list a list.
    const shownText = description.getByTestId("cr-description")
    expect(await shownText.locator("p").first().textContent()).toBe("Why: on-call had no page.")
    expect(await shownText.locator("strong").textContent()).toBe("no")
    expect(await shownText.getByRole("listitem").allTextContents()).toEqual(["Who is on call", "How to hand over"])
    await captureAllPairs(page, "cr-description-edit")

    // Too long: said beside the field before anything is sent, the stored one unchanged.
    await description.getByRole("button", { name: "Edit description" }).click()
    await field.fill("x".repeat(20_001))
    await description.getByRole("button", { name: "Save description" }).click()
    const refusal = description.getByRole("alert")
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain("at most 20,000 characters")
    expect(await field.getAttribute("aria-invalid")).toBe("true")
    // The server's refusal too, in its words, beside the field.
    await page.route(`**/v1/spaces/${space.id}/change-requests/${cr.number}`, (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ error: { code: 400, message: "description: nests deeper than 32 levels", field: "description" } }) })
        : route.continue())
    await field.fill("Short again")
    await description.getByRole("button", { name: "Save description" }).click()
    await expect.poll(() => refusal.textContent()).toContain("The description was not saved: description: nests deeper than 32 levels")
    await page.unroute(`**/v1/spaces/${space.id}/change-requests/${cr.number}`)
    expect(textOf((await read()).description)).toBe("Why: on-call had no page.\nWho is on callHow to hand over")

    // Edited once more, then shown on the review under its heading, editable there too.
    await field.fill("Adds the on-call page.")
    await description.getByRole("button", { name: "Save description" }).click()
    await eventually("the description edited", read, (cr) => textOf(cr.description) === "Adds the on-call page.")
    await tabs(page).getByRole("link", { name: /^Review/ }).click()
    await page.getByRole("heading", { name: "Explain on-call", level: 1 }).waitFor()
    await expect.poll(() => page.getByRole("region", { name: "Description" }).getByTestId("cr-description").textContent()).toBe("Adds the on-call page.")
    await page.getByRole("region", { name: "Description" }).getByRole("button", { name: "Edit description" }).waitFor()
    await captureAllPairs(page, "cr-description-review")
    await page.setViewportSize({ width: 390, height: 844 })
    await expectAccessible(page, "the change request's description (390 px)")
    if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}cr-description-review-light-390.png` })
    await page.setViewportSize({ width: 1280, height: 800 })

    // Emptied, it is gone from the change request.
    await page.getByRole("region", { name: "Description" }).getByRole("button", { name: "Edit description" }).click()
    await page.getByRole("region", { name: "Description" }).getByRole("textbox").fill("")
    await page.getByRole("region", { name: "Description" }).getByRole("button", { name: "Save description" }).click()
    await eventually("the description cleared", read, (cr) => cr.description === undefined)
    await page.getByRole("region", { name: "Description" }).getByRole("button", { name: "Add a description" }).waitFor()
    expect(problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})

it("pages the review's list of the space's change requests and moves the shown one as its state changes", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "List Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Playbook" })
  const crs = `/spaces/${space.id}/change-requests`
  // Twenty-one others in review, then the one shown: a draft with a page.
  for (let n = 1; n <= 21; n++) {
    const other = await api<{ id: string }>(url, "POST", crs, { subject: `Other ${n}` })
    await api(url, "PATCH", `${crs}/${other.id}`, { status: "open" })
  }
  const cr = await api<{ id: string; number: number }>(url, "POST", crs, { subject: "Rotate the keys" })
  await api(url, "POST", `${crs}/${cr.id}/content`, { changes: [{ operation: "insert_page", title: "Keys", document: { markdown: "Rotate them yearly.\n" } }] })
  const status = () => api<{ status: string }>(url, "GET", `${crs}/${cr.id}`).then((read) => read.status)
  const ada = await open(browser(), url)
  try {
    await signInAsAdmin(ada, url)
    const { page, problems } = ada
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByRole("heading", { name: "Rotate the keys", level: 1 }).waitFor()
    const list = page.getByRole("navigation", { name: "Change requests", exact: true })
    const shown = list.getByRole("link", { name: `#${cr.number} Rotate the keys` })
    await shown.waitFor()
    expect(await list.getByLabel("Status").inputValue()).toBe("draft")

    // Submitted for review: the list follows it to "In review", twenty at a time.
    await page.getByRole("button", { name: "Submit for review" }).click()
    await eventually("submitted", status, (s) => s === "open")
    await expect.poll(() => list.getByLabel("Status").inputValue()).toBe("open")
    await shown.waitFor()
    expect(await shown.getAttribute("aria-current")).toBe("page")
    const links = list.getByRole("list").getByRole("link")
    await expect.poll(() => links.count()).toBe(20)
    expect(await list.getByRole("link", { name: "#1 Other 1", exact: true }).count()).toBe(0)
    // "Load more" by keyboard reads the next page (`next.page`), the focus on its first.
    await list.getByRole("button", { name: "Load more" }).focus()
    await page.keyboard.press("Enter")
    await list.getByRole("link", { name: "#1 Other 1", exact: true }).waitFor()
    expect(await links.count()).toBe(22)
    expect(await list.getByRole("button", { name: "Load more" }).count()).toBe(0)
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("#2 Other 2")
    await captureAllPairs(page, "cr-place-list-more")

    // Archived: it leaves "In review" for "Archived"; reopened, it comes back.
    await page.getByRole("button", { name: "Archive" }).click()
    await eventually("archived", status, (s) => s === "archived")
    await expect.poll(() => list.getByLabel("Status").inputValue()).toBe("archived")
    await shown.waitFor()
    await list.getByLabel("Status").selectOption({ label: "In review" })
    await list.getByRole("link", { name: "#21 Other 21", exact: true }).waitFor()
    expect(await shown.count()).toBe(0)
    await page.getByRole("button", { name: "Reopen" }).click()
    await eventually("reopened", status, (s) => s === "open")
    await expect.poll(() => list.getByLabel("Status").inputValue()).toBe("open")
    await shown.waitFor()

    // Merged: it is among the merged ones, and no longer in review.
    await page.getByRole("button", { name: "Merge", exact: true }).click()
    await eventually("merged", status, (s) => s === "merged")
    await expect.poll(() => list.getByLabel("Status").inputValue()).toBe("merged")
    await shown.waitFor()
    expect(await links.count()).toBe(1)
    await list.getByLabel("Status").selectOption({ label: "In review" })
    await list.getByRole("link", { name: "#21 Other 21", exact: true }).waitFor()
    expect(await shown.count()).toBe(0)
    expect(problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})

it("replies to, resolves and reopens a page's thread from the editor's panel, by keyboard", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Threads Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Manual" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Backups" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Backups", slug: "backups", document: { markdown: "Back up every night.\n" } }]
  })
  const comments = `/spaces/${space.id}/change-requests/${cr.id}/comments`
  const { pages } = await api<{ pages: ReadonlyArray<{ id: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/content/pages`)
  const asked = await api<{ id: string }>(url, "POST", comments, { body: { markdown: "At what hour?" }, page: pages[0]!.id, node: on(0, "Back up every night.", "every night") })
  const thread = () => Promise.all([
    api<{ status?: string }>(url, "GET", `${comments}/${asked.id}`),
    api<{ items: ReadonlyArray<{ body: { markdown?: string } }> }>(url, "GET", `${comments}/${asked.id}/replies?format=markdown`)
  ]).then(([comment, replies]) => ({ status: comment.status ?? "open", replies: replies.items.map((r) => r.body.markdown) }))
  const ada = await open(browser(), url)
  try {
    await signInAsAdmin(ada, url)
    const { page, problems } = ada
    await page.goto(`/s/${space.id}/~/changes/${cr.number}`)
    const onPage = page.getByRole("complementary", { name: "Change request details" }).getByRole("region", { name: "Comments on this page" })
    const article = onPage.getByRole("article", { name: "Comment by Ada Admin" })
    await article.getByText("At what hour?").waitFor()

    // A reply typed and sent by keyboard; the server holds it, and the thread shows it.
    await article.getByRole("textbox", { name: "Reply" }).focus()
    await page.keyboard.type("At two, after the import.")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await eventually("the reply stored", thread, (t) => t.replies.length === 1)
    expect((await thread()).replies).toEqual(["At two, after the import."])
    await article.locator(".thread-replies").getByText("At two, after the import.").waitFor()
    await expect.poll(() => article.getByTestId("thread-state").textContent()).toBe("Open · 1 reply")

    // Resolved, then reopened, each by keyboard; the server says so each time.
    await article.getByRole("button", { name: "Resolve" }).focus()
    await page.keyboard.press("Enter")
    await eventually("the thread resolved", thread, (t) => t.status === "resolved")
    await article.getByRole("button", { name: "Reopen" }).waitFor()
    await expect.poll(() => article.getByTestId("thread-state").textContent()).toBe("Resolved · 1 reply")
    await captureAllPairs(page, "cr-place-editor-threads")
    await article.getByRole("button", { name: "Reopen" }).focus()
    await page.keyboard.press("Enter")
    await eventually("the thread reopened", thread, (t) => t.status !== "resolved")
    await article.getByRole("button", { name: "Resolve" }).waitFor()
    // The review's Review tab counts it open again.
    await expect.poll(() => tabs(page).getByRole("link", { name: /^Review/ }).textContent()).toBe("Review1, 1 open thread")
    expect(problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})

it("keeps a change request's links (an issue, a ticket), added, edited and removed under its description", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Links Place Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Explain escalations" })
  type Read = { links?: ReadonlyArray<{ id: string; ref: { kind: string; url: string }; title?: string }> }
  const read = () => api<Read>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`)
  const ada = await open(browser(), url)
  try {
    await signInAsAdmin(ada, url)
    const { page, problems } = ada
    await page.goto(`/s/${space.id}/~/changes/${cr.number}`)
    await page.getByRole("heading", { name: `Change request #${cr.number}`, exact: true }).waitFor()
    const links = page.getByRole("region", { name: "Links" })

    // An address that is not one is said beside the field, and nothing is sent.
    await links.getByRole("button", { name: "Add a link" }).click()
    const address = links.getByRole("textbox", { name: "Address" })
    await address.fill("tracker/ISSUE-12")
    await address.press("Enter")
    await expect.poll(() => errorOf(address)).toBe("Give a whole address, starting with https://.")
    expect(await address.getAttribute("aria-invalid")).toBe("true")
    await captureAllPairs(page, "cr-links-invalid")
    expect((await read()).links ?? []).toEqual([])

    // Added by keyboard with a title; "Saved" once the server has it, as /v1 reads it back.
    await address.fill("https://tracker.example/ISSUE-12")
    await links.getByRole("textbox", { name: "Title (optional)" }).fill("ISSUE-12: on-call page")
    await links.getByRole("textbox", { name: "Title (optional)" }).press("Enter")
    await expect.poll(() => links.getByRole("status").textContent()).toBe("Link added. Saved")
    const [first] = (await eventually("the link stored", read, (r) => (r.links ?? []).length === 1)).links!
    expect(first).toMatchObject({ ref: { kind: "url", url: "https://tracker.example/ISSUE-12" }, title: "ISSUE-12: on-call page" })
    const shown = links.getByRole("link", { name: "ISSUE-12: on-call page" })
    expect(await shown.getAttribute("href")).toBe("https://tracker.example/ISSUE-12")
    expect(await shown.getAttribute("target")).toBe("_blank")

    // A second, without a title: named by its address.
    await links.getByRole("button", { name: "Add a link" }).click()
    await links.getByRole("textbox", { name: "Address" }).fill("https://design.example/escalations")
    await links.getByRole("button", { name: "Add link" }).click()
    await links.getByRole("link", { name: "design.example/escalations" }).waitFor()
    await captureAllPairs(page, "cr-links")

    // Edited: the same link (its id kept), a new address and title.
    await links.getByRole("button", { name: "Edit the link ISSUE-12: on-call page" }).click()
    await links.getByRole("textbox", { name: "Address" }).fill("https://tracker.example/ISSUE-13")
    await links.getByRole("textbox", { name: "Title (optional)" }).fill("ISSUE-13")
    await links.getByRole("button", { name: "Save link" }).click()
    await expect.poll(() => links.getByRole("status").textContent()).toBe("Saved")
    const edited = await eventually("the link edited", read, (r) => r.links?.[0]?.title === "ISSUE-13")
    expect(edited.links!.map((link) => [link.id, link.ref.url, link.title])).toEqual([
      [first!.id, "https://tracker.example/ISSUE-13", "ISSUE-13"],
      [edited.links![1]!.id, "https://design.example/escalations", undefined]
    ])

    // Removed, by keyboard: the other stays.
    await links.getByRole("button", { name: "Remove the link ISSUE-13" }).focus()
    await page.keyboard.press("Enter")
    await expect.poll(() => links.getByRole("status").textContent()).toBe("Removed ISSUE-13. Saved")
    const left = await eventually("the link removed", read, (r) => (r.links ?? []).length === 1)
    expect(left.links!.map((link) => link.ref.url)).toEqual(["https://design.example/escalations"])
    expect(await links.getByRole("link", { name: "ISSUE-13" }).count()).toBe(0)

    // The review shows them too, under the same header.
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByRole("region", { name: "Links" }).getByRole("link", { name: "design.example/escalations" }).waitFor()
    expect(problems).toEqual([])
  } finally {
    await ada.context.close()
  }
})
