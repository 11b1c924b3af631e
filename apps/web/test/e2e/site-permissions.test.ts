/**
 * Site permissions: an admin makes one member an editor of a site from its Permissions panel (the Audience tab); that
 * member (their own browser) then renames the site and changes its visibility, while another
 * member of the same organization role sees the screen read-only, with the reason and who to ask.
 * Each step is checked against what the API then answers.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureAllPairs, captureScreen, open, openSiteTab, type Session, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Grant { readonly permission: string; readonly user: { readonly id: string; readonly displayName: string } }
interface Site { readonly id: string; readonly title: string; readonly visibility: string }

/** A member joining through the organization's invite link, in a browser context of their own (signed in by joining). */
const join = async (session: Session, org: string, link: string, person: { displayName: string; email: string }) => {
  const joined = await session.context.request.post(`${url}/auth/invites/${org}.${link}/accept`, {
    data: { ...person, password: `${person.displayName}'s long password` },
    headers: { origin: url }
  })
  expect(joined.status()).toBe(200)
}

const openSite = async (page: Page, org: string, site: Site, title = site.title) => {
  await page.goto(`/o/${org}/sites/${site.id}`)
  await page.getByRole("heading", { name: title, level: 1 }).waitFor()
  // Who may change a site is in its Audience tab, beside who reads it.
  await openSiteTab(page, "Audience")
  await page.getByRole("heading", { name: "Who has access", exact: false }).waitFor()
}

it("an admin makes a member a site editor; that member changes the site while another member cannot", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Site Permissions Org" })
  const site = await api<Site>(url, "POST", `/orgs/${org.id}/sites`, { title: "Field guide" })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const admin = await open(browser(), url)
  const mia = await open(browser(), url)
  const noor = await open(browser(), url)
  try {
    await join(mia, org.id, link.id, { displayName: "Mia Maker", email: "mia.maker@quire.test" })
    await join(noor, org.id, link.id, { displayName: "Noor Nobody", email: "noor.nobody@quire.test" })
    await signInAsAdmin(admin, url)

    // 1. The admin grants Mia the editor role on the site from its Permissions panel.
    const { page } = admin
    await openSite(page, org.id, site)
    const panel = page.getByRole("region", { name: "Permissions" })
    await panel.getByText("Nobody has a role given on this site").waitFor()
    // Granting without choosing anyone is refused under the field.
    await panel.getByRole("button", { name: "Grant role" }).click()
    await panel.getByText("Choose a person or a team.").waitFor()
    await panel.getByLabel("Person or team", { exact: true }).selectOption({ label: "Mia Maker (mia.maker@quire.test)" })
    await panel.getByLabel("Role on this site", { exact: true }).selectOption("edit")
    await panel.getByRole("button", { name: "Grant role" }).click()
    await panel.getByRole("status").filter({ hasText: "Made Mia Maker editor of this site." }).waitFor()
    const granted = await eventually("Mia an editor of the site", () =>
      api<{ items: ReadonlyArray<Grant> }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/permissions/users`), (list) => list.items.length === 1)
    expect(granted.items.map((g) => [g.user.displayName, g.permission])).toEqual([["Mia Maker", "edit"]])
    const given = panel.getByRole("list", { name: "Roles given on this site" })
    await given.getByRole("combobox", { name: "Role of Mia Maker on this site" }).waitFor()
    const everyone = panel.getByRole("list", { name: "Who has access to this site" })
    await expect.poll(() => everyone.locator("li").filter({ hasText: "Mia Maker" }).textContent()).toMatch(/invited to this site.*Editor/)
    await expect.poll(() => everyone.locator("li").filter({ hasText: "Noor Nobody" }).textContent()).toMatch(/a member of the organization.*Viewer/)
    await captureAllPairs(page, "site-permissions-admin")

    // 2. Mia, in her own browser, renames the site and makes it unlisted.
    await openSite(mia.page, org.id, site)
    expect(await mia.page.getByRole("note").filter({ hasText: "You can view this site" }).count()).toBe(0)
    await mia.page.getByRole("button", { name: "Rename the site" }).click()
    const rename = mia.page.getByRole("form", { name: "Rename the site" })
    await rename.getByLabel("Site title").fill("Mia's field guide")
    await rename.getByRole("button", { name: "Save", exact: true }).click()
    await mia.page.getByRole("heading", { name: "Mia's field guide", level: 1 }).waitFor()
    await mia.page.getByRole("radio", { name: /^Unlisted/ }).check()
    const changed = await eventually("the site renamed and unlisted by Mia", () => api<Site>(url, "GET", `/orgs/${org.id}/sites/${site.id}`),
      (s) => s.title === "Mia's field guide" && s.visibility === "unlisted")
    expect(changed.title).toBe("Mia's field guide")
    // As an editor she does not decide who may edit: the panel says so.
    await mia.page.getByRole("region", { name: "Permissions" }).getByRole("note").filter({ hasText: "Only this site's admins" }).waitFor()
    expect(await mia.page.getByRole("button", { name: "Grant role" }).count()).toBe(0)

    // 3. Noor, with the same organization role, sees the site read-only and why.
    await openSite(noor.page, org.id, site, "Mia's field guide")
    await noor.page.getByRole("note").filter({ hasText: "You can view this site" }).waitFor()
    expect(await noor.page.getByRole("button", { name: "Rename the site" }).count()).toBe(0)
    expect(await noor.page.getByRole("button", { name: /^(Publish|Unpublish)$/ }).count()).toBe(0)
    expect(await noor.page.getByRole("radio", { name: /^Public/ }).isDisabled()).toBe(true)
    expect(await noor.page.getByRole("button", { name: "Grant role" }).count()).toBe(0)
    await captureAllPairs(noor.page, "site-permissions-viewer")
    // The server refuses her too, whatever the screen shows.
    const refused = await noor.context.request.patch(`${url}/v1/orgs/${org.id}/sites/${site.id}`, { data: { title: "Noor's" }, headers: { origin: url } })
    expect(refused.status()).toBe(403)

    // 4. The admin takes Mia's role back: her screen turns read-only on the next load.
    await page.reload()
    await page.getByRole("button", { name: "Remove the role of Mia Maker on this site" }).click()
    await page.getByRole("status").filter({ hasText: "Removed the role of Mia Maker." }).waitFor()
    await openSite(mia.page, org.id, site, "Mia's field guide")
    await mia.page.getByRole("note").filter({ hasText: "You can view this site" }).waitFor()
    await captureScreen(mia.page, "site-permissions-revoked")

    expect(admin.problems).toEqual([])
    expect(mia.problems).toEqual([])
    expect(noor.problems).toEqual([])
  } finally {
    await Promise.all([admin.context.close(), mia.context.close(), noor.context.close()])
  }
})
