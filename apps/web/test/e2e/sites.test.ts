/**
 * Publishing: an admin creates a site from the organization's home, adds two sections each showing a
 * space and a second variant to one, reorders from the keyboard and by drag, customizes it (a bad
 * color is refused under its field; a good one shows in the preview), creates a share link, sets
 * visitor authentication and rotates its key, publishes, and opens the published site's pages.
 * Each step is checked against what the API then answers.
 */
import { expect, inject, it } from "vitest"
import type { Locator, Page, Route } from "playwright-core"
import { captureScreen, errorOf, open, openSiteTab, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, dragUntil, eventually, setupCode } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface SiteSpace { readonly id: string; readonly title: string; readonly default: boolean; readonly space: { readonly id: string } }
interface Section { readonly id: string; readonly title: string; readonly default: boolean; readonly siteSpaces: ReadonlyArray<SiteSpace> }

const seedSpace = async (org: string, title: string, pages: ReadonlyArray<string>) => {
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org}/spaces`, { title })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: pages.map((page) => ({ operation: "insert_page", title: page, slug: page.toLowerCase().replace(/\W+/g, "-"), document: { markdown: `${page} for readers.\n` } }))
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  return space
}

/** A pointer drag by `handle` to the top or bottom quarter of `target`, in steps as a hand moves. */
const drag = async (page: Page, handle: Locator, target: Locator, at: number) => {
  const from = (await handle.boundingBox())!
  const to = (await target.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 + 5, { steps: 3 })
  await page.mouse.move(to.x + 60, to.y + to.height * at, { steps: 10 })
  await page.mouse.up()
}

/**
 * Holds the page's next request whose path `matches`: `held` resolves once the page has sent it,
 * `release` lets it through and resolves once the page has its answer. The route stays until then:
 * a route handler that returns lets its request through, and Playwright lets every held request
 * through once a page has no routes left.
 */
const hold = async (page: Page, matches: (path: string) => boolean) => {
  let sent!: (route: Route) => void
  const held = new Promise<Route>((resolve) => { sent = resolve })
  let open!: () => void
  const opened = new Promise<void>((resolve) => { open = resolve })
  let taken = false
  const url = (address: URL) => matches(address.pathname)
  const handler = async (route: Route) => {
    if (taken) return route.fallback()
    taken = true
    sent(route)
    await opened
    await route.continue()
  }
  await page.route(url, handler)
  return {
    held,
    release: async () => {
      const request = (await held).request()
      const answered = page.waitForResponse((response) => response.request() === request)
      open()
      await answered
      await page.unroute(url, handler)
    }
  }
}

it("creates a site, structures, customizes, shares, protects and publishes it", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Publishing Org" })
  const guides = await seedSpace(org.id, "Guides", ["Welcome", "Install"])
  const guidesNext = await seedSpace(org.id, "Guides next", ["Welcome next"])
  const reference = await seedSpace(org.id, "Reference", ["Endpoints"])
  // The fallback address refused on purpose is a 400 the browser logs.
  const session = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/] })
  const { page, problems, context } = session
  const sections = (site: string) => api<{ items: ReadonlyArray<Section> }>(url, "GET", `/orgs/${org.id}/sites/${site}/sections`).then((list) => list.items)
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Sites", exact: true }).waitFor()
    await page.getByText("No sites yet").waitFor()

    // 1. A new site from the organization's home opens its screen.
    await page.getByRole("button", { name: "New site" }).click()
    await page.getByLabel("Title of the new site").fill("Acme Help")
    await page.getByRole("button", { name: "Create site" }).click()
    await page.getByRole("heading", { name: "Acme Help", level: 1 }).waitFor()
    const site = (await api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/orgs/${org.id}/sites`)).items[0]!
    expect(site.title).toBe("Acme Help")
    expect(page.url()).toBe(`${url}/o/${org.id}/sites/${site.id}`)
    await page.getByRole("heading", { name: "Not published" }).waitFor()

    // 2. Two sections, each showing a space; a second variant in the first.
    await openSiteTab(page, "Structure")
    const addSection = async (title: string, space: string) => {
      await page.getByRole("button", { name: "New section" }).click()
      await page.getByLabel("Section title").fill(title)
      await page.getByLabel("Space it shows").selectOption({ label: space })
      await page.getByRole("button", { name: "Add section" }).click()
      await page.getByRole("heading", { name: title, level: 3 }).waitFor()
    }
    await addSection("Guides", "Guides")
    await addSection("API", "Reference")
    await page.getByRole("button", { name: "Add a variant to Guides" }).click()
    await page.getByLabel("Space to add to Guides").selectOption({ label: "Guides next" })
    await page.getByRole("button", { name: "Add", exact: true }).click()
    await page.getByRole("main").getByRole("link", { name: "Guides next" }).waitFor()
    let list = await eventually("two sections, the first with two variants", () => sections(site.id), (items) => items.length === 2 && items[0]!.siteSpaces.length === 2)
    expect(list.map((s) => s.title)).toEqual(["Guides", "API"])
    expect(list[0]!.siteSpaces.map((s) => s.space.id)).toEqual([guides.id, guidesNext.id])
    expect(list[1]!.siteSpaces.map((s) => s.space.id)).toEqual([reference.id])
    expect(list[0]!.default).toBe(true)

    // A section title the API refuses is said under the field.
    await page.getByRole("button", { name: "Rename the section API" }).click()
    const titleField = page.getByRole("form", { name: "Rename the section API" }).getByLabel("Section title")
    await titleField.fill("A")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    expect(await errorOf(titleField)).toMatch(/at least 2/)
    await titleField.fill("API reference")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByRole("heading", { name: "API reference", level: 3 }).waitFor()

    // Reorder from the keyboard: Alt+Up in the second section's row moves it first.
    // The structure read after this move is held until the next move is sent, and that move until
    // the read has answered: a read from before a move does not undraw it.
    const structureRead = await hold(page, (path) => path.endsWith(`/sites/${site.id}/structure`))
    await page.getByRole("button", { name: "Rename the section API reference" }).focus()
    await page.keyboard.press("Alt+ArrowUp")
    list = await eventually("API reference first", () => sections(site.id), (items) => items[0]?.title === "API reference")
    await page.getByRole("status").filter({ hasText: "Moved the section API reference" }).waitFor()
    // The focus stays on the row moved: Alt+Down takes it back.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Rename the section API reference")
    const secondMove = await hold(page, (path) => path.endsWith("/structure/sort"))
    await page.keyboard.press("Alt+ArrowDown")
    await secondMove.held
    const sectionTitles = () => page.getByRole("list", { name: "Sections" }).getByRole("heading", { level: 3 }).allTextContents()
    expect(await sectionTitles()).toEqual(["Guides", "API reference"])
    await structureRead.release()
    await page.waitForTimeout(300)
    expect(await sectionTitles()).toEqual(["Guides", "API reference"])
    await secondMove.release()
    await eventually("API reference second again", () => sections(site.id), (items) => items[1]?.title === "API reference")
    await page.getByRole("button", { name: "Rename the section API reference" }).focus()
    await page.keyboard.press("Alt+ArrowUp")
    await eventually("API reference first again", () => sections(site.id), (items) => items[0]?.title === "API reference")
    // And back with the Move button.
    await page.getByRole("button", { name: "Move the section Guides up" }).click()
    list = await eventually("Guides first again", () => sections(site.id), (items) => items[0]?.title === "Guides")

    // Drag the second variant above the first, then make it the section's default. The screen has
    // drawn the sections' last move first: a list redrawn under the pointer ends the drag.
    await page.getByRole("status").filter({ hasText: "Moved the section Guides" }).waitFor()
    await expect.poll(() => page.getByRole("heading", { level: 3 }).first().textContent()).toBe("Guides")
    const [first, second] = list[0]!.siteSpaces
    list = await dragUntil("the variants reordered by drag", () => drag(page, page.getByTestId(`variant-${second!.id}`).locator(".drag-handle"), page.getByTestId(`variant-${first!.id}`), 0.2), () => sections(site.id), (items) => items[0]?.siteSpaces[0]?.id === second!.id)
    await page.getByRole("button", { name: "Make default: Guides next" }).click()
    await eventually("Guides next the default variant", () => sections(site.id), (items) => items[0]?.siteSpaces.find((s) => s.default)?.id === second!.id)
    // The screen has drawn the new default (its button is gone) before the other is chosen.
    await page.getByRole("button", { name: "Make default: Guides next" }).waitFor({ state: "detached" })
    await page.getByRole("button", { name: "Make default: Guides", exact: true }).click()
    await eventually("Guides the default variant again", () => sections(site.id), (items) => items[0]?.siteSpaces.find((s) => s.default)?.id === first!.id)
    await page.getByRole("button", { name: "Make default section: API reference" }).click()
    await eventually("API reference the default section", () => sections(site.id), (items) => items.find((s) => s.default)?.title === "API reference")
    await page.getByRole("button", { name: "Make default section: Guides" }).click()
    await eventually("Guides the default section", () => sections(site.id), (items) => items.find((s) => s.default)?.title === "Guides")

    // 4. Customization: a bad color is refused under its field; a good one shows in the preview.
    await openSiteTab(page, "Customization")
    const primary = page.getByLabel("Primary color (light)")
    await primary.fill("blue")
    await page.getByRole("button", { name: "Save customization" }).click()
    await expect.poll(() => errorOf(primary)).toMatch(/^Expected a string matching/)
    expect(await primary.getAttribute("aria-invalid")).toBe("true")
    // The words are the API's: its 400 for the same value names the same field with the same message.
    const refused = await fetch(`${url}/v1/orgs/${org.id}/sites/${site.id}/customization`, {
      method: "PUT",
      headers: { authorization: `Bearer ${setupCode}`, "content-type": "application/json" },
      body: JSON.stringify({ styling: { primaryColor: { light: "blue", dark: "#000000" } } })
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(`Invalid request body: styling.primaryColor.light: ${await errorOf(primary)}`)
    await primary.fill("#0b5cad")
    await page.getByLabel("Default mode").selectOption("light")
    await page.getByRole("button", { name: "Add a header link" }).click()
    await page.getByLabel("Link 1 text").fill("Status")
    await page.getByLabel("Link 1 URL").fill("https://status.example.com")
    await page.getByLabel("Show an announcement above the header").check()
    await page.getByLabel("Announcement text").fill("Version 2 is out")
    // The preview follows the form as one types, before anything is saved.
    await page.getByTestId("site-preview").getByText("Version 2 is out").waitFor()
    await page.getByRole("button", { name: "Save customization" }).click()
    await page.getByRole("status").filter({ hasText: "Saved. The preview shows it." }).waitFor()
    expect(await errorOf(primary)).toBe("")
    const preview = page.getByTestId("site-preview")
    await expect.poll(() => preview.getAttribute("data-primary")).toBe("#0b5cad")
    expect(await preview.locator(".preview-link", { hasText: "Status" }).evaluate((element) => getComputedStyle(element).color)).toBe("rgb(11, 92, 173)")
    await preview.getByText("Version 2 is out").waitFor()
    await preview.getByText("Welcome").first().waitFor()
    const customization = await api<{ styling: { primaryColor: { light: string } }; header: { links: ReadonlyArray<{ title: string }> }; themes: { default: string } }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/customization`)
    expect(customization.styling.primaryColor.light).toBe("#0b5cad")
    expect(customization.header.links.map((link) => link.title)).toEqual(["Status"])
    expect(customization.themes.default).toBe("light")
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "site")

    // 3. Visibility: visitor authentication, its key shown and rotated, its sign-in address.
    await openSiteTab(page, "Audience")
    await page.getByRole("radio", { name: /Visitor authentication/ }).check()
    const key = page.getByLabel("the visitor key", { exact: true })
    await key.waitFor()
    const before = await key.inputValue()
    const auth = await api<{ privateKey: string }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/publishing/auth`)
    expect(before).toBe(auth.privateKey)
    await page.getByRole("button", { name: "Rotate key…" }).click()
    await page.getByRole("button", { name: "Rotate now" }).click()
    await expect.poll(() => key.inputValue()).not.toBe(before)
    const rotated = await api<{ privateKey: string }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/publishing/auth`)
    expect(await key.inputValue()).toBe(rotated.privateKey)
    const fallback = page.getByLabel("Sign-in address (fallback URL)")
    await fallback.fill("http://login.example.com")
    await page.getByRole("button", { name: "Save address" }).click()
    await expect.poll(() => errorOf(fallback)).toBe("must be an https URL")
    await fallback.fill("https://login.example.com/sso")
    await page.getByRole("button", { name: "Save address" }).click()
    await page.getByRole("status").filter({ hasText: "Saved the sign-in address" }).waitFor()
    expect((await api<{ fallbackURL?: string }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/publishing/auth`)).fallbackURL).toBe("https://login.example.com/sso")
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "site-visitor-auth")

    // Share links: the site is read through one.
    await page.getByRole("radio", { name: /Share links/ }).check()
    await page.getByLabel("Name of the new link").fill("Beta readers")
    await page.getByRole("button", { name: "Create link" }).click()
    await page.getByText("Beta readers", { exact: true }).waitFor()
    const links = await api<{ items: ReadonlyArray<{ id: string; name: string; active: boolean }> }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/share-links`)
    expect(links.items.map((link) => [link.name, link.active])).toEqual([["Beta readers", true]])
    expect((await api<{ visibility: string }>(url, "GET", `/orgs/${org.id}/sites/${site.id}`)).visibility).toBe("share-link")

    // 5. Publish: the address shows as a link; the published site shows its pages.
    await page.getByRole("button", { name: "Publish", exact: true }).click()
    await page.getByRole("heading", { name: "Published", exact: true }).waitFor()
    const published = await page.locator(".published-url").getAttribute("href")
    expect(published).toContain(`/~sites/${site.id}`)
    expect(published).toContain("share=")
    await page.getByRole("button", { name: "Copy the address of Beta readers" }).click()
    await page.getByRole("status").filter({ hasText: /Copied|Selected/ }).waitFor()
    await openSiteTab(page, "Customization")
    const pageLink = page.getByTestId("site-preview").getByRole("link", { name: "Install" })
    const pageHref = await pageLink.getAttribute("href")
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "site-published")

    const reader = await context.newPage()
    const answer = await reader.goto(published!)
    expect(answer?.status()).toBe(200)
    await reader.getByText("Welcome", { exact: true }).first().waitFor()
    await reader.getByText("Install", { exact: true }).first().waitFor()
    expect(await reader.content()).toContain("#0b5cad")
    const opened = await reader.goto(pageHref!)
    expect(opened?.status()).toBe(200)
    await reader.getByText("Install for readers.").waitFor()
    await reader.close()

    // Deactivating the link closes the site to it.
    await openSiteTab(page, "Audience")
    await page.getByRole("button", { name: "Deactivate Beta readers" }).click()
    await eventually("the link inactive", () => api<{ items: ReadonlyArray<{ active: boolean }> }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/share-links`), (answer) => answer.items[0]?.active === false)
    await page.getByText("Inactive").waitFor()

    // Unpublish, and the organization's home lists the site.
    await page.getByRole("button", { name: "Unpublish" }).click()
    await page.getByRole("heading", { name: "Not published" }).waitFor()
    await page.getByRole("link", { name: "Organization" }).click()
    await page.getByRole("link", { name: /Acme Help/ }).waitFor()
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "org-home-sites")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("shows a member who is not an admin the site without its edit actions", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Readers of sites" })
  const space = await seedSpace(org.id, "Manual", ["Start"])
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Manual site" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/sections`, { spaceId: space.id, title: "Manual" })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "read" })
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    const joined = await context.request.post(`${url}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Rhea Reader", email: "rhea.sites@quire.test", password: "a password long enough" },
      headers: { origin: url }
    })
    expect(joined.status()).toBe(200)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("link", { name: /Manual site/ }).click()
    await page.getByRole("heading", { name: "Manual site", level: 1 }).waitFor()
    await page.getByRole("note").filter({ hasText: "You can view this site" }).waitFor()
    // The overview lists the section; Settings is not among a viewer's tabs.
    await page.getByRole("list", { name: "Sections" }).getByRole("listitem").filter({ hasText: "Manual" }).waitFor()
    expect(await page.getByRole("navigation", { name: "Site dashboard" }).getByRole("link", { name: "Settings" }).count()).toBe(0)
    const noEditButtons = async () => {
      for (const name of ["Publish", "Rename", "New section", "Add a variant to Manual", "Save customization"]) {
        expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(0)
      }
    }
    await noEditButtons()
    await openSiteTab(page, "Structure")
    await page.getByRole("heading", { name: "Manual", level: 3 }).waitFor()
    await noEditButtons()
    await openSiteTab(page, "Customization")
    await page.getByText("Only the site's editors and the organization's admins customize a site.").waitFor()
    await noEditButtons()
    await openSiteTab(page, "Audience")
    expect(await page.getByRole("radio", { name: /Public/ }).isDisabled()).toBe(true)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Sites", exact: true }).waitFor()
    expect(await page.getByRole("button", { name: "New site" }).count()).toBe(0)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("gathers sections in groups, sets the site's hostname and adaptive schema, and deletes it", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Grouping Org" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Product docs" })
  for (const title of ["Cloud", "Server", "Changelog"]) {
    const space = await seedSpace(org.id, title, [`${title} home`])
    await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/sections`, { spaceId: space.id, title })
  }
  type Entry = { readonly object: string; readonly title: string; readonly sections?: ReadonlyArray<{ readonly title: string }> }
  const top = () => api<{ structure: ReadonlyArray<Entry> }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/structure`).then((s) => s.structure)
  const shape = (entries: ReadonlyArray<Entry>) => entries.map((e) => e.object === "site-section-group" ? { [e.title]: e.sections!.map((s) => s.title) } : e.title)
  // A hostname the API refuses is a 400 the browser logs; a site without a claims schema answers 404 for it.
  const session = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/, /status of 404 \(Not Found\)/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    await page.getByRole("heading", { name: "Product docs", level: 1 }).waitFor()

    // A group of two sections, made from the screen.
    await openSiteTab(page, "Structure")
    await page.getByRole("button", { name: "New group" }).click()
    const form = page.getByRole("form", { name: "New group" })
    await form.getByLabel("Group title").fill("Products")
    await form.getByLabel("Cloud").check()
    await form.getByLabel("Server").check()
    await form.getByRole("button", { name: "Add group" }).click()
    await page.getByRole("heading", { name: "Products", level: 3 }).waitFor()
    await eventually("the group of Cloud and Server", top, (entries) => JSON.stringify(shape(entries)) === JSON.stringify(["Changelog", { Products: ["Cloud", "Server"] }]))

    // Renamed; a section taken out and put back; the group moved below Changelog from its button.
    await page.getByRole("button", { name: "Rename the group Products" }).click()
    await page.getByRole("form", { name: "Rename the group Products" }).getByLabel("Group title").fill("Editions")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    await page.getByRole("heading", { name: "Editions", level: 3 }).waitFor()
    await page.getByRole("button", { name: "Take out of group Editions: Server" }).click()
    await eventually("Server out of the group", top, (entries) => JSON.stringify(shape(entries)) === JSON.stringify(["Changelog", { Editions: ["Cloud"] }, "Server"]))
    await page.getByRole("button", { name: "Add a section to the group Editions" }).click()
    await page.getByLabel("Section to put in Editions").selectOption({ label: "Server" })
    await page.getByRole("form", { name: "Add a section to the group Editions" }).getByRole("button", { name: "Add", exact: true }).click()
    await eventually("Server back in the group", top, (entries) => JSON.stringify(shape(entries)) === JSON.stringify(["Changelog", { Editions: ["Cloud", "Server"] }]))
    await page.getByRole("button", { name: "Move the group Editions up" }).click()
    await eventually("the group before Changelog", top, (entries) => JSON.stringify(shape(entries)) === JSON.stringify([{ Editions: ["Cloud", "Server"] }, "Changelog"]))
    await page.getByRole("status").filter({ hasText: "Moved the group Editions" }).waitFor()
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "site-groups")

    // Removing the group keeps its sections on the site.
    await page.getByRole("button", { name: "Remove the group Editions" }).click()
    await eventually("no group, its sections in its place", top, (entries) => JSON.stringify(shape(entries)) === JSON.stringify(["Cloud", "Server", "Changelog"]))

    // Hostname: the API's refusal under the field, then a good one saved.
    await openSiteTab(page, "Settings")
    const hostname = page.getByLabel("Hostname")
    await hostname.fill("127.0.0.1")
    await page.getByRole("button", { name: "Save hostname and path" }).click()
    await expect.poll(() => errorOf(hostname)).not.toBe("")
    expect(await hostname.getAttribute("aria-invalid")).toBe("true")
    await hostname.fill("docs.grouping.example.com")
    await page.getByRole("button", { name: "Save hostname and path" }).click()
    await page.getByRole("status").filter({ hasText: "docs.grouping.example.com" }).waitFor()
    expect(await errorOf(hostname)).toBe("")
    expect((await api<{ hostname?: string }>(url, "GET", `/orgs/${org.id}/sites/${site.id}`)).hostname).toBe("docs.grouping.example.com")

    // Adaptive content: on; a schema that is not JSON is said under it; a good one is stored as given.
    await page.getByLabel(/Show readers content that depends on the claims/).check()
    await page.getByRole("status").filter({ hasText: "Adaptive content is on." }).waitFor()
    expect((await api<{ adaptiveContent: { enabled: boolean } }>(url, "GET", `/orgs/${org.id}/sites/${site.id}`)).adaptiveContent.enabled).toBe(true)
    const schemaField = page.getByLabel("Claims schema (JSON Schema)")
    await schemaField.fill("{ \"type\": ")
    await page.getByRole("button", { name: "Save schema" }).click()
    await expect.poll(() => errorOf(schemaField)).toMatch(/^This is not valid JSON/)
    // GitBook's shape wants a description for each claim: the server says where one is missing.
    await schemaField.fill(JSON.stringify({ type: "object", properties: { plan: { type: "string" } }, additionalProperties: false }))
    await page.getByRole("button", { name: "Save schema" }).click()
    await expect.poll(() => errorOf(schemaField)).toBe("properties.plan: must have required property 'description'")
    const schema = { type: "object", properties: { plan: { type: "string", description: "The reader's plan", enum: ["free", "pro"] } }, additionalProperties: false }
    await schemaField.fill(JSON.stringify(schema))
    await page.getByRole("button", { name: "Save schema" }).click()
    await page.getByRole("status").filter({ hasText: "Saved the schema." }).waitFor()
    expect(await errorOf(schemaField)).toBe("")
    expect((await api<{ jsonSchema: unknown }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/adaptive-schema`)).jsonSchema).toEqual(schema)
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "site-settings")

    // Deleting it, after a confirmation, goes back to the organization; its spaces stay.
    await page.getByRole("button", { name: "Delete site…" }).click()
    await page.getByRole("dialog", { name: "Delete Product docs?" }).getByRole("button", { name: "Delete site" }).click()
    await page.waitForURL(`${url}/o/${org.id}`)
    expect((await api<{ items: ReadonlyArray<unknown> }>(url, "GET", `/orgs/${org.id}/sites`)).items).toEqual([])
    expect((await api<{ items: ReadonlyArray<unknown> }>(url, "GET", `/orgs/${org.id}/spaces`)).items).toHaveLength(3)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
