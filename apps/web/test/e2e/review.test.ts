/**
 * Reviewing: Ada (the administrator) opens a change request through /v1; Rita, a second member in
 * her own browser context, opens its review, sees the rendered diff, comments on a block and asks
 * for changes; Ada replies; Rita approves; Ada merges. Then a change request whose line main also
 * changed: Ada updates it from main, picks her side of the conflict in the page, and merges.
 */
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import type { Browser } from "playwright-core"
import { captureScreen, expectAccessible, launch, open, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser.close()
})

interface PageRead { readonly id: string; readonly markdown?: string; readonly title: string }

const seedSpace = async (title: string) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Guide" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Intro", slug: "intro", document: { markdown: "Alpha line.\n\nBeta line.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  return { org, space, page: pages.pages.find((p) => p.title === "Intro")! }
}

const editIn = async (spaceId: string, pageId: string, subject: string, markdown: string) => {
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${spaceId}/change-requests`, { subject })
  await api(url, "POST", `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: "update_page", page: pageId, document: { markdown } }] })
  return cr
}

it("two members review a change request: diff, block comment, changes requested, reply, approval, merge", async () => {
  const { org, space, page } = await seedSpace("Review Org")
  const cr = await editIn(space.id, page.id, "Reword beta", "Alpha line.\n\nBeta line changed.\n")
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "review" })

  const a = await open(browser, url)
  const b = await open(browser, url)
  try {
    const joined = await b.context.request.post(`${url}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Rita Reviewer", email: "rita@quire.test", password: "a password long enough" },
      headers: { origin: url }
    })
    expect(joined.status()).toBe(200)
    await signInAsAdmin(a, url)
    const review = `/s/${space.id}/~/changes/${cr.number}/~/review`

    // Rita sees the rendered diff, comments on the changed block, asks for changes.
    await b.page.goto(review)
    await b.page.getByRole("heading", { name: "Reword beta" }).waitFor()
    await b.page.locator("ins", { hasText: "changed" }).first().waitFor()
    expect(await b.page.locator(".review-changed").count()).toBeGreaterThan(0)
    await b.page.getByRole("button", { name: "Side by side" }).click()
    await b.page.locator(".review-split-row .review-added").first().waitFor()
    await b.page.getByRole("button", { name: "Markdown" }).click()
    await b.page.locator(".review-line-added", { hasText: "Beta line changed." }).waitFor()
    await b.page.getByRole("button", { name: "Inline" }).click()
    await b.page.getByRole("button", { name: "Next change" }).click()
    await b.page.locator(".review-changed").first().locator("xpath=..").getByRole("button", { name: /Comment on block/ }).click()
    await b.page.getByLabel("Comment on this block").fill("Say what changed.")
    await b.page.getByRole("button", { name: "Post comment" }).click()
    await b.page.getByText("Say what changed.").waitFor()
    await b.page.getByText(/On .*: “Beta line/).waitFor()
    await b.page.getByRole("button", { name: "Request changes" }).click()
    await b.page.getByText("Rita Reviewer: requested changes").waitFor()
    await expectAccessible(b.page, "Rita's review")

    // Ada replies.
    await a.page.goto(review)
    await a.page.getByText("Say what changed.").waitFor()
    await a.page.getByRole("article", { name: "Comment by Rita Reviewer" }).getByLabel("Reply").fill("Done, see the new wording.")
    await a.page.getByRole("article", { name: "Comment by Rita Reviewer" }).getByRole("button", { name: "Reply" }).click()
    await a.page.getByText("Done, see the new wording.").waitFor()
    // Screenshots as Ada: at 390 px the shell's account button shows Rita's initials only, which axe flags (not this screen's).
    await captureScreen(a.page, "review")

    // Rita approves; Ada merges.
    await b.page.reload()
    await b.page.getByText("Done, see the new wording.").waitFor()
    await b.page.getByRole("button", { name: "Approve" }).click()
    await b.page.getByText("Rita Reviewer: approved").waitFor()
    await a.page.reload()
    await a.page.getByText("Rita Reviewer: approved").waitFor()
    await a.page.getByRole("button", { name: "Merge", exact: true }).click()
    await a.page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
    const main = await api<PageRead>(url, "GET", `/spaces/${space.id}/content/page/${page.id}?format=markdown`)
    expect(main.markdown).toContain("Beta line changed.")
    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
  } catch (error) {
    await b.page.screenshot({ path: "test/artifacts/review-failure-b.png", fullPage: true })
    await a.page.screenshot({ path: "test/artifacts/review-failure-a.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${[...a.problems, ...b.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
  }
})

it("resolves a conflict with main in the page by keeping the change request's side, then merges", async () => {
  const { space, page } = await seedSpace("Conflict Org")
  const cr = await editIn(space.id, page.id, "Alpha from the change", "Alpha from CR.\n\nBeta line.\n")
  const other = await editIn(space.id, page.id, "Alpha on main", "Alpha from main.\n\nBeta line.\n")
  await api(url, "POST", `/spaces/${space.id}/change-requests/${other.id}/merge`)
  const a = await open(browser, url, { expected: [/status of 409 \(Conflict\)/] })
  try {
    await signInAsAdmin(a, url)
    await a.page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await a.page.getByRole("heading", { name: "Alpha from the change" }).waitFor()
    await a.page.getByRole("button", { name: "Update from main" }).click()
    await a.page.getByRole("heading", { name: "Conflicts" }).waitFor()
    expect(await a.page.getByRole("button", { name: "Merge", exact: true }).isDisabled()).toBe(true)
    await a.page.getByText(/conflict.* with main/).first().waitFor()
    await expectAccessible(a.page, "the review with conflicts")
    await captureScreen(a.page, "review-conflicts")
    await a.page.getByLabel("Keep this change").check()
    await a.page.getByRole("button", { name: "Resolve conflicts" }).click()
    await a.page.getByRole("heading", { name: "Conflicts" }).waitFor({ state: "detached" })
    await a.page.getByRole("button", { name: "Merge", exact: true }).click()
    await a.page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
    const main = await api<PageRead>(url, "GET", `/spaces/${space.id}/content/page/${page.id}?format=markdown`)
    expect(main.markdown).toContain("Alpha from CR.")
  } catch (error) {
    await a.page.screenshot({ path: "test/artifacts/review-conflicts-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${a.problems.join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
  }
})
