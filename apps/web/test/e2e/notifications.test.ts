/**
 * Notifications: Ada (the administrator) asks Rita, who joined through a link invite, for a
 * review and mentions her in a comment, both from the review screen. Rita's bell shows two unread;
 * her list says what happened in words; opening one takes her to the review and marks it read;
 * "Mark all read" clears the rest. Ada, who did it all, has none about it.
 */
import { expect, inject, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { captureScreen, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

/** Types `@` and the start of a name in a comment box, picks the member with the keyboard. */
const mention = async (page: Page, box: Locator, typed: string, name: string) => {
  await box.pressSequentially(typed)
  const option = page.getByRole("listbox").getByRole("option", { name: new RegExp(name) })
  await option.waitFor()
  await box.press("Enter")
  await option.waitFor({ state: "detached" })
}

const bell = (page: Page) => page.locator("header").getByRole("link", { name: /^Notifications/ })

it("a review request and a mention reach the reviewer: the bell's count, the list in words, the link to the review, mark read", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Notify Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Reword beta" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Beta", slug: "beta", document: { markdown: "Beta is open to all.\n" } }]
  })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "review" })

  const a = await open(browser(), url)
  const b = await open(browser(), url)
  try {
    const joined = await b.context.request.post(`${url}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Rita Reviewer", email: "rita.notify@quire.test", password: "a password long enough" },
      headers: { origin: url }
    })
    expect(joined.status()).toBe(200)
    await signInAsAdmin(a, url)
    const review = `/s/${space.id}/~/changes/${cr.number}/~/review`

    // Rita has nothing yet.
    await b.page.goto(`/o/${org.id}`)
    await bell(b.page).waitFor()
    expect(await bell(b.page).textContent()).toBe("Notifications")

    // Ada asks Rita for a review and mentions her in a comment on the change request.
    await a.page.goto(review)
    await a.page.getByRole("heading", { name: "Reword beta" }).waitFor()
    await a.page.getByLabel("Ask for a review").selectOption({ label: "Rita Reviewer" })
    await a.page.getByRole("button", { name: "Request review" }).click()
    await a.page.getByText("Rita Reviewer: review requested").waitFor()
    const box = a.page.getByLabel("Comment on the change request")
    await box.fill("Is “open to all” right, ")
    await mention(a.page, box, "@rit", "Rita Reviewer")
    await box.pressSequentially("?")
    await a.page.getByRole("button", { name: "Post comment" }).click()
    await a.page.locator(".mention-chip", { hasText: "@Rita Reviewer" }).first().waitFor()

    // Rita's bell counts both when her window regains focus (it also reads again every 30 s).
    await b.page.evaluate(() => window.dispatchEvent(new Event("focus")))
    await bell(b.page).getByText("2").waitFor()
    expect(await bell(b.page).textContent()).toBe("Notifications2 unread")
    await bell(b.page).click()
    await b.page.waitForURL(/\/notifications$/)
    await b.page.getByRole("heading", { name: "Notifications" }).waitFor()
    const items = b.page.locator(".notification-list li")
    await items.first().waitFor()
    expect(await items.locator(".notification-text").allTextContents()).toEqual([
      "Ada Admin mentioned you in a comment on “Reword beta” (unread)",
      "Ada Admin asked you to review “Reword beta” (unread)"
    ])
    await items.first().getByText("Handbook ·").waitFor()
    await b.page.locator("main").getByText("2 unread").waitFor()
    await captureScreen(b.page, "notifications")

    // Opening the review request takes Rita to the review and marks it read.
    await b.page.getByRole("link", { name: /asked you to review “Reword beta”/ }).click()
    await b.page.waitForURL(new RegExp(`${review.replaceAll("/", "\\/").replaceAll("~", "\\~")}$`))
    await b.page.getByRole("heading", { name: "Reword beta" }).waitFor()
    await bell(b.page).getByText("1").waitFor()
    await bell(b.page).click()
    await b.page.locator("main").getByText("1 unread").waitFor()
    await b.page.locator(".notification.read").waitFor()
    expect(await items.locator(".notification-text").allTextContents()).toEqual([
      "Ada Admin mentioned you in a comment on “Reword beta” (unread)",
      "Ada Admin asked you to review “Reword beta”"
    ])

    // Mark all read, from the keyboard.
    await b.page.getByRole("button", { name: "Mark all read" }).focus()
    await b.page.keyboard.press("Enter")
    await b.page.getByText("No unread notifications.").waitFor()
    await b.page.getByText("All marked read.").waitFor()
    expect(await bell(b.page).textContent()).toBe("Notifications")
    expect(await b.page.getByRole("button", { name: "Mark all read" }).isDisabled()).toBe(true)
    await expectAccessible(b.page, "notifications, all read")

    // The mention opens the review too.
    await b.page.getByRole("link", { name: /mentioned you in a comment/ }).click()
    await b.page.getByRole("heading", { name: "Reword beta" }).waitFor()

    // Ada, who did it all, was told nothing of it (other flows on this shared server may notify her of theirs).
    const adas = await api<{ items: ReadonlyArray<{ space: string }> }>(url, "GET", "/user/notifications?limit=100")
    expect(adas.items.filter((n) => n.space === space.id)).toEqual([])
    await a.page.goto("/notifications")
    await a.page.locator("main h1").waitFor()
    await a.page.locator("main").getByText(/^No notifications yet$|unread notifications\.|\d+ unread$/).first().waitFor()
    await expectAccessible(a.page, "notifications of the actor")

    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
  } catch (error) {
    throw new Error(`${String(error)}\nproblems: ${[...a.problems, ...b.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
  }
})
