/**
 * The audit log in the browser: an admin changes a member's role on the members screen, a team is
 * made and renamed and a space deleted, and the organization's audit log shows each as a sentence;
 * filters by action, actor and dates narrow it (applied from the keyboard), pages go older and
 * newer; the instance's administrator finds their own sign-in in the instance's log. Captured light
 * and dark, 1280 and 390 px.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureAllPairs, errorOf, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

/** A person joins the organization through an invite link with `role` (the sign-in routes, as the invitation screen does). */
const join = async (org: string, person: { displayName: string; email: string; password: string }, role: string) => {
  await api(url, "PATCH", `/orgs/${org}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org}/link-invites`, { role })
  const response = await fetch(`${url}/auth/invites/${org}.${link.id}/accept`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(person)
  })
  if (!response.ok) throw new Error(`join: ${response.status} ${await response.text()}`)
  await api(url, "DELETE", `/orgs/${org}/link-invites/${link.id}`)
}

/** The sentences of the events on the screen, top to bottom. */
const sentences = (page: Page) => page.locator("table.audit-table tbody tr td:nth-child(2)").allTextContents()

const day = (offset: number) => {
  const at = new Date(Date.now() + offset * 86_400_000)
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`
}

it("shows an organization's admin what changed, as sentences, filtered and a page at a time", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Audit Org" })
  const rita = { displayName: "Rita Reader", email: "rita.audit-e2e@quire.test", password: "rita's long password" }
  await join(org.id, rita, "read")
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)

    // On the members screen: Rita becomes an editor.
    await page.goto(`/o/${org.id}/members`)
    await page.getByRole("heading", { name: "Members", exact: true }).waitFor()
    await page.getByLabel("Role of Rita Reader").selectOption("edit")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    // The button reads "Saving…" while the request runs; Undo goes only once the list shows the new role.
    await page.getByRole("button", { name: "Undo", exact: true }).waitFor({ state: "detached" })

    // Through the API: a team made and renamed, a space deleted.
    const team = await api<{ id: string }>(url, "PUT", `/orgs/${org.id}/teams`, { title: "Writers" })
    await api(url, "PATCH", `/orgs/${org.id}/teams/${team.id}`, { title: "Authors" })
    const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Old notes" })
    await api(url, "DELETE", `/spaces/${space.id}`)

    // The organization's tabs lead to its audit log.
    await page.getByRole("navigation", { name: "Organization administration" }).getByRole("link", { name: "Audit log" }).click()
    await page.getByRole("heading", { name: "Audit log", exact: true }).waitFor()
    await page.getByText("Ada Admin deleted the space “Old notes”").waitFor()
    expect(await sentences(page)).toEqual([
      "Ada Admin deleted the space “Old notes”",
      "Ada Admin renamed the team “Writers” to “Authors”",
      "Ada Admin created the team “Writers”",
      "Ada Admin changed Rita Reader’s role to Editor",
      "Rita Reader joined the organization",
      "Ada Admin created an invite link for the Reader role",
      "Ada Admin changed the organization’s settings (invite links)"
    ])
    await captureAllPairs(page, "audit-log")

    // By action, chosen and applied from the keyboard (Enter in a field submits the filters).
    await page.getByLabel("Action", { exact: true }).focus()
    await page.getByLabel("Action", { exact: true }).selectOption({ label: "Changed a member's role" })
    await page.getByLabel("From", { exact: true }).focus()
    await page.keyboard.press("Enter")
    await expect.poll(() => sentences(page), { timeout: 30_000 }).toEqual(["Ada Admin changed Rita Reader’s role to Editor"])
    await captureAllPairs(page, "audit-log-filtered")

    // By actor: what Rita did.
    await page.getByLabel("Action", { exact: true }).selectOption("")
    await page.getByLabel("Actor", { exact: true }).selectOption({ label: "Rita Reader" })
    await page.getByRole("button", { name: "Apply filters" }).click()
    await expect.poll(() => sentences(page), { timeout: 30_000 }).toEqual(["Rita Reader joined the organization"])

    // By dates: an end before the start is refused next to the field; from tomorrow on there is nothing.
    await page.getByLabel("Actor", { exact: true }).selectOption("")
    await page.getByLabel("From", { exact: true }).fill(day(1))
    await page.getByLabel("To", { exact: true }).fill(day(-1))
    await page.getByRole("button", { name: "Apply filters" }).click()
    expect(await errorOf(page.getByLabel("To", { exact: true }))).toBe("The end date is before the start date.")
    await page.getByLabel("To", { exact: true }).fill("")
    await page.getByRole("button", { name: "Apply filters" }).click()
    await page.getByText("No event matches.").waitFor()
    await page.getByLabel("From", { exact: true }).fill(day(-1))
    await page.getByLabel("To", { exact: true }).fill(day(1))
    await page.getByRole("button", { name: "Apply filters" }).click()
    await expect.poll(async () => (await sentences(page)).length, { timeout: 30_000 }).toBe(7)

    // Pages: 30 more events make two pages of 25.
    for (let i = 0; i < 15; i++) {
      const extra = await api<{ id: string }>(url, "PUT", `/orgs/${org.id}/teams`, { title: `Team ${i}` })
      await api(url, "DELETE", `/orgs/${org.id}/teams/${extra.id}`)
    }
    await page.getByRole("button", { name: "Clear" }).click()
    await page.reload()
    await page.getByText("Ada Admin deleted the team “Team 14”").waitFor()
    expect((await sentences(page)).length).toBe(25)
    await page.getByRole("button", { name: "Older" }).click()
    await page.getByText("Page 2").waitFor()
    await expect.poll(() => sentences(page), { timeout: 30_000 }).toContain("Rita Reader joined the organization")
    expect((await sentences(page)).length).toBe(12)
    expect(await page.getByRole("button", { name: "Older" }).isDisabled()).toBe(true)
    await page.getByRole("button", { name: "Newer" }).click()
    await page.getByText("Page 1").waitFor()
    await expectAccessible(page, "the audit log's first page again")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("names the team and the space a grant concerns, each keeping its id, and opens the space", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Named Audit Org" })
  const team = await api<{ id: string }>(url, "PUT", `/orgs/${org.id}/teams`, { title: "Support writers" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbooks" })
  await api(url, "POST", `/spaces/${space.id}/permissions`, { role: "edit", teams: [team.id] })
  // What the server has: the grant, recorded with the ids alone.
  const events = await api<{ items: ReadonlyArray<{ action: string; target: { id: string; label?: string }; payload?: { principalId?: string } }> }>(
    url, "GET", `/orgs/${org.id}/audit-events?action=permission.granted`)
  expect(events.items.map((e) => [e.target.id, e.payload?.principalId])).toEqual([[space.id, team.id]])
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/audit-log`)
    const sentence = "Ada Admin gave the team “Support writers” Editor access to the space “Runbooks”"
    await page.getByText(sentence).waitFor()
    const row = page.locator("table.audit-table tbody tr", { hasText: sentence })
    // Each name keeps the id it stands for; the space opens from the sentence, by keyboard.
    expect(await row.locator(`[data-id="${team.id}"]`).getAttribute("title")).toBe(`team ${team.id}`)
    expect(await row.locator(`[data-id="${space.id}"]`).getAttribute("title")).toBe(`space ${space.id}`)
    expect(await row.textContent()).not.toContain(team.id.slice(0, 8))
    await captureAllPairs(page, "audit-log-names")
    await row.getByRole("link", { name: "Runbooks" }).focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/s/${space.id}**`)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("shows the instance's administrator the instance's log, sign-ins included", async () => {
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto("/settings")
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Instance audit log" }).click()
    await page.getByRole("heading", { name: "Instance audit log" }).waitFor()
    await page.getByLabel("Action", { exact: true }).selectOption({ label: "Signed in with a password" })
    await page.getByRole("button", { name: "Apply filters" }).click()
    await expect.poll(async () => (await sentences(page))[0], { timeout: 30_000 }).toBe("Ada Admin signed in with a password")
    await captureAllPairs(page, "instance-audit-log")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("names in the instance's log the people, teams, content and organization events refer to, ids only for what is gone", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Instance Names Org" })
  const wes = { displayName: "Wes Writer", email: "wes.instance-audit-e2e@quire.test", password: "wes's long password" }
  await join(org.id, wes, "read")
  const members = await api<{ items: ReadonlyArray<{ user: { id: string; displayName: string } }> }>(url, "GET", `/orgs/${org.id}/members`)
  const wesId = members.items.find((m) => m.user.displayName === "Wes Writer")!.user.id
  const team = await api<{ id: string }>(url, "PUT", `/orgs/${org.id}/teams`, { title: "Night shift" })
  const gone = await api<{ id: string }>(url, "PUT", `/orgs/${org.id}/teams`, { title: "Short-lived" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Pager duty" })
  await api(url, "POST", `/spaces/${space.id}/permissions`, { role: "edit", teams: [team.id, gone.id], users: [wesId] })
  await api(url, "DELETE", `/orgs/${org.id}/teams/${gone.id}`)
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto("/settings/instance-audit-log")
    await page.getByRole("heading", { name: "Instance audit log" }).waitFor()
    await page.getByLabel("Action", { exact: true }).selectOption("permission.granted")
    await page.getByRole("button", { name: "Apply filters" }).click()
    const rows = page.locator("table.audit-table tbody tr")
    const row = (sentence: string) => rows.filter({ has: page.locator("td:nth-child(2)", { hasText: sentence }) })
    // A person and a team by their names now, the space by its name, the organization in its column.
    const toWes = row("Ada Admin gave Wes Writer Editor access to the space “Pager duty”")
    await toWes.waitFor()
    expect(await toWes.locator("td:nth-child(3)").textContent()).toBe("Instance Names Org")
    expect(await toWes.locator(`[data-id="${wesId}"]`).getAttribute("title")).toBe(`user ${wesId}`)
    const toTeam = row("Ada Admin gave the team “Night shift” Editor access to the space “Pager duty”")
    await toTeam.waitFor()
    expect(await toTeam.textContent()).not.toContain(team.id.slice(0, 8))
    // The team deleted since: its id, as nothing names it any more.
    const toGone = row(`Ada Admin gave a team (${gone.id.slice(0, 8)}…) Editor access to the space “Pager duty”`)
    await toGone.waitFor()
    expect(await toGone.locator("td:nth-child(3)").textContent()).toBe("Instance Names Org")
    await captureAllPairs(page, "instance-audit-log-names")
    await expectAccessible(page, "the instance's audit log with names")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
