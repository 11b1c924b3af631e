/**
 * The organization's administration in the browser: an admin renames the organization, makes and
 * revokes an invite link, invites by email, changes a member's role, removes a member, makes a
 * team with a member, shares a collection with the team through the permissions dialog, and
 * creates and revokes an API token; a member who is not an admin sees no admin action. Each
 * change is what the API then answers; each screen is captured light and dark, 1280 and 390 px.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureScreen, expectAccessible, open, type Session, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface MemberRow { readonly role: string | null; readonly user: { readonly id: string; readonly displayName: string } }

const members = (org: string) => api<{ items: ReadonlyArray<MemberRow> }>(url, "GET", `/orgs/${org}/members?limit=1000`).then((list) => list.items)

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

const signInAs = async (session: Session, email: string, password: string) => {
  const response = await session.context.request.post(`${url}/auth/sign-in`, { data: { email, password }, headers: { origin: url } })
  expect(response.status()).toBe(200)
}

const confirm = async (page: Page, action: string) => {
  const dialog = page.getByRole("dialog")
  await dialog.waitFor()
  await expectAccessible(page, `the confirmation to ${action}`)
  await dialog.getByRole("button", { name: action, exact: true }).click()
  await dialog.waitFor({ state: "detached" })
}

it("lets an admin run the organization: settings, invite links, members, teams, sharing, API tokens", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Admin Org" })
  const rita = { displayName: "Rita Reader", email: "rita.admin-e2e@quire.test", password: "rita's long password" }
  const mo = { displayName: "Mo Mover", email: "mo.admin-e2e@quire.test", password: "mo's long password 1" }
  await join(org.id, rita, "read")
  await join(org.id, mo, "read")
  const collection = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/collections`, { title: "Handbook" })
  const session = await open(browser(), url)
  const { page, problems, context } = session
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url })
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Admin Org" }).waitFor()

    // Settings: the title (checked before it is sent; the API's refusal of a domain placed on its field).
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Settings" }).click()
    await page.getByRole("heading", { name: "Organization settings" }).waitFor()
    await page.getByLabel("Title", { exact: true }).fill("A")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByText("The title needs at least 2 characters.").waitFor()
    expect(await page.getByLabel("Title", { exact: true }).getAttribute("aria-invalid")).toBe("true")
    await page.getByLabel("Title", { exact: true }).fill("Admin Org Renamed")
    await page.getByLabel("Email domains").fill("admin-org.test, not_a_domain")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByText("“not_a_domain” is not a domain name such as example.com.").waitFor()
    expect(await page.getByLabel("Email domains").getAttribute("aria-invalid")).toBe("true")
    await page.getByLabel("Email domains").fill("admin-org.test")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor()
    const renamed = await api<{ title: string; emailDomains: ReadonlyArray<string> }>(url, "GET", `/orgs/${org.id}`)
    expect(renamed.title).toBe("Admin Org Renamed")
    expect(renamed.emailDomains).toEqual(["admin-org.test"])

    // Invite links: one for editors, for 7 days; copied; another revoked.
    await page.getByLabel("Role of people who join").selectOption("edit")
    await page.getByLabel("Expires after").selectOption("7")
    await page.getByRole("button", { name: "Create an invite link" }).click()
    await page.getByRole("status").filter({ hasText: "Created an invite link for the role Editor." }).waitFor()
    await page.getByLabel("Role of people who join").selectOption("read")
    await page.getByRole("button", { name: "Create an invite link" }).click()
    await page.getByRole("button", { name: /^Revoke the Reader invite link/ }).waitFor()
    const links = await api<{ items: ReadonlyArray<{ id: string; role: string; expiresAt?: string }> }>(url, "GET", `/orgs/${org.id}/link-invites`)
    const editorLink = links.items.find((link) => link.role === "edit")!
    expect(Date.parse(editorLink.expiresAt!) - Date.now()).toBeGreaterThan(6.9 * 86_400_000)
    await page.getByRole("button", { name: "Copy link" }).first().click()
    await page.getByRole("status").filter({ hasText: /Copied|Ctrl\+C/ }).first().waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/invite/${org.id}\\.`))
    await captureScreen(page, "org-settings")
    await page.getByRole("button", { name: /^Revoke the Reader invite link/ }).click()
    await confirm(page, "Revoke")
    await eventually("one link left", () => api<{ items: ReadonlyArray<{ role: string }> }>(url, "GET", `/orgs/${org.id}/link-invites`), (list) => list.items.length === 1 && list.items[0]!.role === "edit")

    // Members: invite by email (a wrong address said under the field first).
    await page.getByRole("navigation", { name: "Organization administration" }).getByRole("link", { name: "Members" }).click()
    await page.getByRole("heading", { name: "Members", exact: true }).waitFor()
    await page.getByLabel("Email addresses").fill("bob.admin-e2e@quire.test, nope")
    await page.getByRole("button", { name: "Invite", exact: true }).click()
    await page.getByText("“nope” is not an email address.").waitFor()
    await page.getByLabel("Email addresses").fill("bob.admin-e2e@quire.test")
    await page.getByLabel("Role", { exact: true }).selectOption("edit")
    await page.getByRole("button", { name: "Invite", exact: true }).click()
    await page.getByRole("status").filter({ hasText: "Invited bob.admin-e2e@quire.test as Editor." }).waitFor()
    await page.getByRole("button", { name: "Withdraw the invitation of bob.admin-e2e@quire.test" }).waitFor()
    const pending = await api<{ items: ReadonlyArray<{ email: string; role: string }> }>(url, "GET", `/orgs/${org.id}/member-invites`)
    expect(pending.items.map((item) => [item.email, item.role])).toEqual([["bob.admin-e2e@quire.test", "edit"]])

    // Change Rita's role from the keyboard, then remove Mo after the confirmation.
    await page.getByLabel("Role of Rita Reader").focus()
    await page.getByLabel("Role of Rita Reader").selectOption("review")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await eventually("Rita a reviewer", () => members(org.id), (items) => items.find((m) => m.user.displayName === "Rita Reader")?.role === "review")
    await page.getByRole("button", { name: "Remove Mo Mover" }).click()
    await page.getByRole("heading", { name: "Remove Mo Mover?" }).waitFor()
    await confirm(page, "Remove")
    await page.getByRole("status").filter({ hasText: "Removed Mo Mover." }).waitFor()
    expect((await members(org.id)).map((m) => m.user.displayName)).not.toContain("Mo Mover")
    await captureScreen(page, "members")

    // Teams: Writers, with Rita, who becomes its owner.
    await page.getByRole("navigation", { name: "Organization administration" }).getByRole("link", { name: "Teams" }).click()
    await page.getByRole("heading", { name: "Teams", exact: true }).waitFor()
    await page.getByRole("button", { name: "Create the team" }).click()
    await page.getByText("Give the team a name.").waitFor()
    await page.getByLabel("Team name").fill("Writers")
    await page.getByLabel("First member (optional)").selectOption({ label: `Rita Reader (${rita.email})` })
    await page.getByRole("button", { name: "Create the team" }).click()
    await page.getByRole("heading", { name: "Writers" }).waitFor()
    await page.getByRole("button", { name: "Members of Writers" }).click()
    await page.getByLabel("Role of Rita Reader in Writers").selectOption("owner")
    const teams = await eventually("the team", () => api<{ items: ReadonlyArray<{ id: string; title: string; members: number }> }>(url, "GET", `/orgs/${org.id}/teams`), (list) => list.items.some((team) => team.title === "Writers" && team.members === 1))
    const writers = teams.items.find((team) => team.title === "Writers")!
    await eventually("Rita the owner", () => api<{ items: ReadonlyArray<{ team: { role: string } }> }>(url, "GET", `/orgs/${org.id}/teams/${writers.id}/members`), (list) => list.items[0]?.team.role === "owner")
    await captureScreen(page, "teams")

    // Share the collection with the team.
    await page.goto(`/o/${org.id}/c/${collection.id}`)
    await page.getByRole("heading", { name: "Handbook" }).waitFor()
    await page.getByRole("button", { name: "Share" }).click()
    const dialog = page.getByRole("dialog", { name: "Share “Handbook”" })
    await dialog.waitFor()
    await dialog.getByText("Who has access").waitFor()
    await dialog.getByLabel("Person or team").selectOption({ label: "Team: Writers" })
    await dialog.getByLabel("Role", { exact: true }).selectOption("edit")
    await dialog.getByRole("button", { name: "Grant access" }).click()
    await dialog.getByRole("button", { name: "Revoke the access of Team Writers" }).waitFor()
    await dialog.getByText(/team Writers \(Editor\)/i).waitFor()
    const granted = await api<{ items: ReadonlyArray<{ permission: string; team: { id: string } }> }>(url, "GET", `/collections/${collection.id}/permissions/teams`)
    expect(granted.items.map((item) => [item.team.id, item.permission])).toEqual([[writers.id, "edit"]])
    await captureScreen(page, "share-dialog")
    await page.keyboard.press("Escape")
    await dialog.waitFor({ state: "detached" })

    // API tokens: created, shown once, used, revoked.
    await page.goto("/settings/tokens")
    await page.getByRole("heading", { name: "API tokens" }).waitFor()
    await page.getByRole("button", { name: "Create a token" }).click()
    await page.getByText(/Name the token after what will use it/).waitFor()
    await page.getByLabel("Token name").fill("CI pipeline")
    await page.getByLabel("Expires after").selectOption("30")
    await page.getByRole("button", { name: "Create a token" }).click()
    const secret = await page.getByLabel("The token's secret").inputValue()
    expect(secret).toMatch(/^quire_/)
    const asToken = () => fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${secret}` } }).then((response) => response.status)
    expect(await asToken()).toBe(200)
    await page.getByRole("button", { name: "Copy the token" }).click()
    await page.getByRole("status").filter({ hasText: "Copied" }).waitFor()
    await page.getByRole("cell", { name: "CI pipeline", exact: true }).waitFor()
    await captureScreen(page, "api-tokens")
    await page.getByRole("button", { name: "Done" }).click()
    await page.getByRole("button", { name: "Revoke the token CI pipeline" }).click()
    await confirm(page, "Revoke")
    await page.getByRole("status").filter({ hasText: "Revoked the token CI pipeline." }).waitFor()
    expect(await asToken()).toBe(401)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("shows a member who is not an admin the organization read-only", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Readers Org" })
  const nina = { displayName: "Nina Member", email: "nina.admin-e2e@quire.test", password: "nina's long password" }
  await join(org.id, nina, "edit")
  const collection = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/collections`, { title: "Guides" })
  await api(url, "PUT", `/orgs/${org.id}/teams`, { title: "Editors", members: [] })
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAs(session, nina.email, nina.password)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Readers Org" }).waitFor()
    const nav = page.getByRole("navigation", { name: "Organization" })
    await nav.getByRole("link", { name: "Members" }).waitFor()
    expect(await nav.getByRole("link", { name: "Settings" }).count()).toBe(0)
    // An editor may not create spaces or collections (that takes the create role): not offered.
    await page.getByRole("heading", { name: "Spaces" }).waitFor()
    expect(await page.getByRole("button", { name: /^New (space|collection)$/ }).count()).toBe(0)

    await nav.getByRole("link", { name: "Members" }).click()
    await page.getByText("Only administrators can invite people or change roles.").waitFor()
    await page.getByRole("cell", { name: "Ada Admin" }).waitFor()
    expect(await page.getByRole("button", { name: /^Invite|^Remove/ }).count()).toBe(0)
    expect(await page.getByRole("combobox").count()).toBe(1) // the shell's organization switcher only
    await captureScreen(page, "members-read-only")

    await page.goto(`/o/${org.id}/teams`)
    await page.getByRole("heading", { name: "Editors" }).waitFor()
    expect(await page.getByRole("button", { name: /Create the team|Rename|Delete/ }).count()).toBe(0)

    await page.goto(`/o/${org.id}/settings`)
    await page.getByText("Only administrators of Readers Org can change its settings.").waitFor()
    expect(await page.getByRole("button", { name: "Save" }).count()).toBe(0)

    await page.goto(`/o/${org.id}/c/${collection.id}`)
    await page.getByRole("heading", { name: "Guides" }).waitFor()
    expect(await page.getByRole("button", { name: "Share" }).count()).toBe(0)
    await page.getByRole("button", { name: "Who has access" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByText("Only those who administer this collection can change who has access.").waitFor()
    expect(await dialog.getByRole("button", { name: /Grant access|Revoke/ }).count()).toBe(0)
    await expectAccessible(page, "the read-only share dialog")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
