/**
 * Backups in the app: an instance administrator finds under Settings → Backups the backups the
 * instance's log records (none on the test server, which keeps its data in memory and so has no
 * snapshot to give: `POST /admin/backup` answers 409) and the commands that take and restore one,
 * with this server's address filled in; a member who is not an instance administrator has no such tab.
 */
import { expect, inject, it } from "vitest"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, setupCode } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

it("lists the instance's backups for its administrator, with the commands that take and restore one", async () => {
  // What the server recorded, read back as the screen reads it: no backup.
  const log = await fetch(`${url}/admin/audit-events?action=backup.created`, { headers: { authorization: `Bearer ${setupCode}` } })
  expect(((await log.json()) as { items: ReadonlyArray<unknown> }).items).toEqual([])
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto("/settings")
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Backups" }).click()
    await page.getByRole("heading", { name: "Backups", exact: true }).waitFor()
    await page.getByText("No backup has been taken yet.").waitFor()
    const command = page.getByLabel("Command to back up this instance", { exact: true })
    expect(await command.inputValue()).toContain(`QUIRE_URL=${url} `)
    expect(await page.getByLabel("Command to restore a backup", { exact: true }).inputValue()).toContain("quire db restore --force")
    // The copy button is reached by keyboard from the command.
    await command.focus()
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Copy: Command to back up this instance")
    await captureAllPairs(page, "settings-backups")
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }

  // Someone who is not an instance administrator: no Backups tab, and its address shows their sessions.
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Backup Org" })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "admin" })
  const person = { displayName: "Owen Orgadmin", email: "owen.backups-e2e@quire.test", password: "owen's long password" }
  const joined = await fetch(`${url}/auth/invites/${org.id}.${link.id}/accept`, { method: "POST", headers: { "content-type": "application/json", origin: url }, body: JSON.stringify(person) })
  expect(joined.ok).toBe(true)
  const other = await open(browser(), url)
  try {
    const signedIn = await other.context.request.post(`${url}/auth/sign-in`, { data: { email: person.email, password: person.password }, headers: { origin: url } })
    expect(signedIn.status()).toBe(200)
    await other.page.goto("/settings/backups")
    await other.page.getByRole("navigation", { name: "Settings" }).waitFor()
    expect(await other.page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Backups" }).count()).toBe(0)
    expect(await other.page.getByRole("heading", { name: "Backups", exact: true }).count()).toBe(0)
    expect(other.problems).toEqual([])
  } finally {
    await other.context.close()
  }
})
