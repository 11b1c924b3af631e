/**
 * Onboarding end to end, on a fresh server that mails through a real SMTP server this test starts:
 * first-run setup ends in "Create your organization" (an empty name is said under the field), which
 * lands in the new organization's home; the switcher offers "New organization…"; an empty space
 * offers a start, and a template opens as a change request holding its pages; a person invited by
 * email opens the link of the mail they received and joins, then joins another organization that
 * allows their email's domain; the notification settings' boxes keep
 * what was chosen after a reload. The screens are captured light and dark at 1280 and 390 px.
 */
import { beforeAll, expect, it } from "vitest"
import type { Page } from "playwright-core"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureScreen, open, sharedBrowser } from "./browser.ts"
import { mailingServer } from "./mailing-server.ts"
import { api, eventually, setupCode } from "./servers.ts"

const browser = sharedBrowser()
const mailing = mailingServer()
let url: string
beforeAll(() => void (url = mailing.url()))

/** The screen light and dark at both widths (captureScreen checks accessibility and sideways scrolling). */
const captureAll = async (page: Page, name: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
      if (screenshotsWanted()) await page.screenshot({ path: `${artifacts}${name}-${colorScheme}-${width}.png`, fullPage: true })
    }
  }
  await captureScreen(page, name)
}

it("sets up, creates the organization, starts a space, invites by email and keeps the notification settings", async () => {
  const { page, problems, context } = await open(browser(), url)
  try {
    await page.goto("/")
    await page.getByRole("heading", { name: "Set up Quire" }).waitFor()
    await page.getByLabel("Setup code").fill(setupCode)
    await page.getByLabel("Your name").fill("Grace Hopper")
    await page.getByLabel("Email").fill("grace@quire.test")
    await page.getByLabel("Password").fill("a long enough password")
    await page.getByRole("button", { name: "Create the account" }).click()

    // The second step: the organization. An empty name is said under the field.
    await page.getByRole("heading", { name: "Create your organization" }).waitFor()
    await page.getByText("You are not in any organization yet.").waitFor()
    await captureAll(page, "create-organization")
    const name = page.getByLabel("Organization name")
    await page.getByRole("button", { name: "Create the organization" }).click()
    await page.getByRole("alert").getByText("Give your organization a name.").waitFor()
    expect(await name.getAttribute("aria-invalid")).toBe("true")
    await captureAll(page, "create-organization-error")
    await name.fill("Hopper Docs")
    await name.press("Enter")
    await page.getByRole("heading", { name: "Hopper Docs", exact: true }).waitFor()
    const organizationId = new URL(page.url()).pathname.split("/")[2]!
    expect(new URL(page.url()).pathname).toBe(`/o/${organizationId}`)

    // The switcher offers another.
    const switcher = page.getByRole("combobox", { name: "Organization" })
    expect(await switcher.locator("option", { hasText: "New organization…" }).count()).toBe(1)
    await switcher.selectOption({ label: "New organization…" })
    await page.getByRole("heading", { name: "Create your organization" }).waitFor()
    expect(await page.getByText("You are not in any organization yet.").count()).toBe(0)
    await page.getByRole("button", { name: "Cancel" }).click()
    await page.getByRole("heading", { name: "Hopper Docs", exact: true }).waitFor()

    // An empty space offers a start; a template opens as a change request with its pages.
    const space = await api<{ id: string }>(url, "POST", `/orgs/${organizationId}/spaces`, { title: "Handbook" })
    await page.goto(`/s/${space.id}`)
    await page.getByRole("heading", { name: "Start this space" }).waitFor()
    await page.getByRole("link", { name: "Set up Git sync" }).waitFor()
    await page.getByRole("region", { name: "Start this space" }).getByText("Choose a folder…").waitFor()
    await captureAll(page, "space-start")
    await page.getByLabel("FAQ").check()
    await page.getByRole("button", { name: "Use this template" }).click()
    await page.waitForURL(/\/~\/changes\/\d+\//)
    const number = Number(/\/changes\/(\d+)\//.exec(page.url())![1])
    type Listed = { items: ReadonlyArray<{ id: string; number: number; subject: string }> }
    const listed = await Promise.all(["draft", "open"].map((status) => api<Listed>(url, "GET", `/spaces/${space.id}/change-requests?status=${status}`)))
    const cr = listed.flatMap((list) => list.items).find((item) => item.number === number)!
    expect(cr.subject).toBe("Start from the template “FAQ”")
    const pages = await api<{ pages: ReadonlyArray<{ title: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/content/pages`)
    expect(pages.pages.map((p) => p.title)).toEqual(["Frequently asked questions"])

    // Settings › Notifications: a box unticked stays unticked after a reload.
    await page.goto("/settings/notifications")
    await page.getByRole("heading", { name: "Email notifications" }).waitFor()
    const mentions = page.getByRole("checkbox", { name: "Mentions" })
    expect(await mentions.isChecked()).toBe(true)
    await mentions.uncheck()
    await page.getByRole("status").getByText("Saved: mentions will not be emailed.").waitFor()
    await captureAll(page, "notification-settings")
    await page.reload()
    await page.getByRole("heading", { name: "Email notifications" }).waitFor()
    await page.getByRole("checkbox", { name: "Review requests" }).waitFor()
    expect(await page.getByRole("checkbox", { name: "Mentions" }).isChecked()).toBe(false)
    expect(await page.getByRole("checkbox", { name: "Review requests" }).isChecked()).toBe(true)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }

  // Invited by email: the newcomer opens the link of the mail they received and joins.
  const org = (await api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", "/orgs")).items.find((o) => o.title === "Hopper Docs")!
  await api(url, "POST", `/orgs/${org.id}/invites`, { emails: ["kay@quire.test"], role: "edit" })
  const link = await mailing.inbox().linkMailedTo("kay@quire.test", /\/invite\//)
  const invited = await open(browser(), url)
  try {
    await invited.page.goto(link.pathname)
    await invited.page.getByRole("heading", { name: "Join Hopper Docs" }).waitFor()
    await invited.page.getByLabel("Your name").fill("Kay McNulty")
    await invited.page.getByLabel("Password").fill("kay's long password")
    await invited.page.getByRole("button", { name: "Create the account and join" }).click()
    await invited.page.getByRole("heading", { name: "Hopper Docs", exact: true }).waitFor()
    expect(new URL(invited.page.url()).pathname).toBe(`/o/${org.id}`)

    // Another organization lets people of quire.test join: Kay, whose address the invitation proved, joins it herself.
    const labs = await api<{ id: string }>(url, "POST", "/orgs", { title: "Quire Labs" })
    await api(url, "PATCH", `/orgs/${labs.id}`, { emailDomains: ["quire.test"], defaultRole: "comment" })
    await invited.page.goto("/new-organization")
    const offers = invited.page.getByRole("region", { name: "Organizations you can join" })
    await offers.getByRole("button", { name: "Join Quire Labs" }).waitFor()
    await captureScreen(invited.page, "join-by-domain")
    await offers.getByRole("button", { name: "Join Quire Labs" }).click()
    await invited.page.getByRole("heading", { name: "Quire Labs", exact: true }).waitFor()
    type Members = { items: ReadonlyArray<{ role: string | null; user: { displayName: string } }> }
    const members = await eventually("Kay is a member of Quire Labs", () => api<Members>(url, "GET", `/orgs/${labs.id}/members`),
      (list) => list.items.some((m) => m.user.displayName === "Kay McNulty"))
    expect(members.items.find((m) => m.user.displayName === "Kay McNulty")?.role).toBe("comment")
    expect(invited.problems).toEqual([])
  } finally {
    await invited.context.close()
  }
})
