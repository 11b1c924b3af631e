/**
 * Change requests as GitBook has them: Ada starts two change requests side by side from a space
 * ("New change request", with a subject, rather than "Edit") and one from the organization's page,
 * finds them in the space's change request list and filters it by status and by "Created by me"
 * (Rita, an editor, has one too); on a review she ticks a changed page "Viewed", which folds it, survives a reload, and is cleared
 * when the page is edited again. As the space's admin she lets authors approve their own change
 * requests, and her review then offers her Approve.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureOtherPairs, chooseFromMenu, captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Listed { readonly items: ReadonlyArray<{ readonly number: number; readonly subject: string; readonly status: string }> }

const seedSpace = async (title: string) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [
      { operation: "insert_page", title: "Intro", slug: "intro", document: { markdown: "Alpha line.\n\nBeta line.\n" } },
      { operation: "insert_page", title: "Setup", slug: "setup", document: { markdown: "Install it.\n" } }
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  return { org, space, intro: pages.pages.find((p) => p.title === "Intro")!, setup: pages.pages.find((p) => p.title === "Setup")! }
}

const rows = (page: Page) => page.getByRole("list", { name: "Change requests" }).locator(".cr-row")
const rowTitles = async (page: Page) => (await rows(page).getByRole("link").allTextContents()).map((text) => text.trim())

it("starts two change requests side by side from a space, and lists them filtered by status and by author", async () => {
  const { org, space } = await seedSpace("Parallel Org")
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const a = await open(browser(), url)
  const b = await open(browser(), url)
  try {
    const joined = await b.context.request.post(`${url}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Rita Writer", email: "rita.writer@quire.test", password: "a password long enough" },
      headers: { origin: url }
    })
    expect(joined.status()).toBe(200)
    const hers = await b.context.request.post(`${url}/v1/spaces/${space.id}/change-requests`, { data: { subject: "Rita's fix" }, headers: { origin: url } })
    expect(hers.status()).toBe(201)
    await signInAsAdmin(a, url)
    const { page } = a

    // Two change requests in a row from the space, each opened in the editor.
    for (const subject of ["First parallel", "Second parallel"]) {
      await page.goto(`/s/${space.id}/intro`)
      await chooseFromMenu(page, "More", "New change request")
      await page.getByLabel("Subject (optional)").fill(subject)
      if (subject === "First parallel") await captureScreen(page, "new-change-request")
      await page.getByRole("button", { name: "Start editing" }).click()
      await page.waitForURL(/\/~\/changes\/\d+\/intro$/)
      await page.getByRole("textbox", { name: "Page content" }).waitFor()
    }
    const drafts = await api<Listed>(url, "GET", `/spaces/${space.id}/change-requests?status=draft`)
    expect(drafts.items.map((cr) => cr.subject)).toEqual(["Second parallel", "First parallel", "Rita's fix"])

    // The list, from the space: open and drafts by default, newest first; the merged seed only when asked for.
    await page.goto(`/s/${space.id}/intro`)
    await page.getByRole("complementary", { name: "Page details" }).getByRole("link", { name: "All change requests" }).click()
    await page.waitForURL(`**/s/${space.id}/~/change-requests`)
    await expect.poll(() => rowTitles(page), { timeout: 15_000 }).toEqual(["#4 Second parallel", "#3 First parallel", "#2 Rita's fix"])
    await captureScreen(page, "change-requests")
    await captureOtherPairs(page, "change-requests")
    await page.getByLabel("Merged", { exact: true }).check()
    await expect.poll(() => rowTitles(page), { timeout: 15_000 }).toEqual(["#4 Second parallel", "#3 First parallel", "#2 Rita's fix", "#1 Seed"])
    await page.getByLabel("Draft", { exact: true }).uncheck()
    await page.getByLabel("In review", { exact: true }).uncheck()
    await expect.poll(() => rowTitles(page), { timeout: 15_000 }).toEqual(["#1 Seed"])
    await page.getByLabel("Draft", { exact: true }).check()
    await page.getByLabel("Merged", { exact: true }).uncheck()
    await page.getByLabel("Created by me").check()
    await expect.poll(() => rowTitles(page), { timeout: 15_000 }).toEqual(["#4 Second parallel", "#3 First parallel"])
    // The filters are in the address: a reload keeps them.
    expect(new URL(page.url()).search).toBe("?status=draft&mine=1")
    await page.reload()
    await expect.poll(() => rowTitles(page), { timeout: 15_000 }).toEqual(["#4 Second parallel", "#3 First parallel"])
    expect(await page.getByLabel("Created by me").isChecked()).toBe(true)
    expect(await page.getByLabel("In review", { exact: true }).isChecked()).toBe(false)
    // Nobody asked Ada for a review: the list says so, and what to do.
    await page.getByLabel("Awaiting my review").check()
    await page.getByText("No change request matches these filters.").waitFor()
    await page.getByLabel("Awaiting my review").uncheck()
    await page.getByLabel("Created by me").uncheck()
    await expect.poll(() => rowTitles(page), { timeout: 15_000 }).toContain("#2 Rita's fix")

    // From the organization's change requests: the space is picked first.
    await page.goto(`/o/${org.id}`)
    await page.getByRole("button", { name: "New change request" }).click()
    await page.getByLabel("Space", { exact: true }).selectOption({ label: "Handbook" })
    await page.getByLabel("Subject (optional)").fill("From the organization")
    await page.getByRole("button", { name: "Start editing" }).click()
    await page.waitForURL(`**/s/${space.id}/~/changes/5/`)
    const latest = await api<Listed>(url, "GET", `/spaces/${space.id}/change-requests?status=draft&limit=1`)
    expect(latest.items.map((cr) => [cr.number, cr.subject])).toEqual([[5, "From the organization"]])
    expect(a.problems).toEqual([])
  } finally {
    await a.context.close()
    await b.context.close()
  }
})

it("pages through a long list with Load more", async () => {
  const { space } = await seedSpace("Many Org")
  for (let i = 1; i <= 22; i++) await api(url, "POST", `/spaces/${space.id}/change-requests`, { subject: `Draft ${i}` })
  const a = await open(browser(), url)
  try {
    await signInAsAdmin(a, url)
    await a.page.goto(`/s/${space.id}/~/change-requests`)
    await expect.poll(() => rows(a.page).count(), { timeout: 15_000 }).toBe(20)
    await a.page.getByRole("button", { name: "Load more" }).click()
    await expect.poll(() => rows(a.page).count(), { timeout: 15_000 }).toBe(22)
    await expect(a.page.getByRole("button", { name: "Load more" }).count()).resolves.toBe(0)
    expect((await rowTitles(a.page)).at(-1)).toBe("#2 Draft 1")
    expect(a.problems).toEqual([])
  } finally {
    await a.context.close()
  }
})

it("marks a changed page viewed, folds it, keeps it through a reload, and clears it when the page changes again", async () => {
  const { space, intro, setup } = await seedSpace("Viewed Org")
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Tidy the intro" })
  const edit = (page: string, markdown: string) =>
    api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: "update_page", page, document: { markdown } }] })
  await edit(intro.id, "Alpha line.\n\nBeta line, reworded.\n")
  await edit(setup.id, "Install it with care.\n")
  const a = await open(browser(), url)
  try {
    await signInAsAdmin(a, url)
    const { page } = a
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    const count = page.getByTestId("viewed-count")
    await count.filter({ hasText: "0 of 2 viewed" }).waitFor()
    const introSection = page.getByRole("article", { name: "Intro" })
    await introSection.locator(".review-changed").first().waitFor()
    await introSection.getByLabel("Viewed").check()
    await count.filter({ hasText: "1 of 2 viewed" }).waitFor()
    // Folded: its diff is gone until asked for.
    await introSection.locator(".review-changed").first().waitFor({ state: "detached" })
    await introSection.getByRole("button", { name: "Show changes" }).click()
    await introSection.locator(".review-changed").first().waitFor()
    await introSection.getByRole("button", { name: "Hide changes" }).click()
    await captureScreen(page, "review-viewed")
    await captureOtherPairs(page, "review-viewed")

    await page.reload()
    await count.filter({ hasText: "1 of 2 viewed" }).waitFor()
    expect(await page.getByRole("article", { name: "Intro" }).getByLabel("Viewed").isChecked()).toBe(true)
    expect(await page.getByRole("article", { name: "Setup" }).getByLabel("Viewed").isChecked()).toBe(false)

    // The page changes again: Ada has not seen this version.
    await edit(intro.id, "Alpha line.\n\nBeta line, reworded twice.\n")
    await page.reload()
    await page.getByRole("article", { name: "Intro" }).locator(".review-changed").first().waitFor()
    await count.filter({ hasText: "0 of 2 viewed" }).waitFor()
    expect(await page.getByRole("article", { name: "Intro" }).getByLabel("Viewed").isChecked()).toBe(false)
    expect(a.problems).toEqual([])
  } finally {
    await a.context.close()
  }
})

it("offers the author Approve only once the space's admin lets authors approve their own change requests", async () => {
  const { space, intro } = await seedSpace("Self Approval Org")
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "My own change" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: "update_page", page: intro.id, document: { markdown: "Alpha line.\n" } }] })
  const a = await open(browser(), url)
  try {
    await signInAsAdmin(a, url)
    const { page } = a
    const review = `/s/${space.id}/~/changes/${cr.number}/~/review`
    await page.goto(review)
    await page.getByText("You wrote this change request: someone else reviews it.").waitFor()
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0)

    await page.goto(`/s/${space.id}/~/change-requests`)
    const allow = page.getByLabel("Authors may approve their own change requests")
    expect(await allow.isChecked()).toBe(false)
    await allow.click()
    await expect.poll(() => allow.isChecked(), { timeout: 15_000 }).toBe(true)
    const rules = await api<{ mergeRules: unknown }>(url, "GET", `/spaces/${space.id}`)
    expect(rules.mergeRules).toEqual({ type: "rules", rules: [{ rule: "allow_author_approval" }] })

    await page.goto(review)
    await page.getByRole("button", { name: "Approve" }).click()
    await page.getByText("Ada Admin: approved").waitFor()
    expect(await page.getByRole("button", { name: "Request changes" }).count()).toBe(0)
    expect(a.problems).toEqual([])
  } finally {
    await a.context.close()
  }
})
