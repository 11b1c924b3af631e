/**
 * An admin's day, from an empty server that mails through a real SMTP server, all of Ada's part in
 * the browser: she sets Quire up with the setup code and creates the organization; invites Cole as
 * a guest and Rae and Mo as readers by email, and each opens the link of the mail they get (Mo's
 * through the sign-in routes) and joins; she makes Rae a reviewer and removes Mo; makes a team with
 * Cole and adds Rae to it; makes a collection with a space in it (its first page written in the
 * editor and merged) and gives the team access to the collection, after which Cole, a guest, reaches
 * the space; Rae, a reviewer, sees the space but is offered no "New space"; Ada connects the space
 * to a local bare Git repository and exports it (the commit lands in the repository); makes a site
 * showing the space, with a colour and a title seen in the preview, a share link and visitor
 * authentication, publishes it, and a visitor with a token signed by its key reads the page; she
 * uploads an OpenAPI spec and puts one of its operations on the page through a change request
 * (the editor's insert menu), which the published page draws; she turns the site's insights on,
 * and a search of the visitor's that found nothing shows there, from where she opens a change
 * request, writes the answer and merges it, after which the same search finds the page; she
 * translates the space into French and sees the run's state (no provider on the test server: it fails, and says why). Last, what the
 * API then answers: the members and their roles, the team, the collection's access, the site.
 */
import { Effect, Exit, Scope } from "effect"
import { createHmac } from "node:crypto"
import { afterAll, expect, it } from "vitest"
import type { Page } from "playwright-core"
import { bareRepository, git } from "../../../../tooling/e2e/test/GitRepository.ts"
import { artifacts, captureAllPairs, chooseFromMenu, open, openSiteTab, sharedBrowser, type Session } from "./browser.ts"
import { mailingServer } from "./mailing-server.ts"
import { petstore } from "./petstore.ts"
import { api, eventually, setupCode } from "./servers.ts"

const browser = sharedBrowser()
// Nothing is set up before the test: it starts from the empty server.
const mailing = mailingServer()
const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const ada = { displayName: "Ada Admin", email: "ada@field.test", password: "ada runs the place" }
const cole = { displayName: "Cole League", email: "cole@field.test", password: "cole's long password" }
const rae = { displayName: "Rae Reviewer", email: "rae@field.test", password: "rae's long password" }
const mo = { displayName: "Mo Mover", email: "mo@field.test", password: "mo's long password" }
type Person = typeof ada

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** A visitor token as the site owner's own sign-in would make it: an HS256 JWT signed with the site's key, for an hour. */
const visitorToken = (key: string) => {
  const unsigned = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url({ exp: Math.floor(Date.now() / 1000) + 3600 })}`
  return `${unsigned}.${createHmac("sha256", key).update(unsigned).digest("base64url")}`
}

/** From a change request's editor: its review, then Merge, until it says merged. */
const merge = async (page: Page) => {
  await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()
  await page.getByRole("navigation", { name: "Change request", exact: true }).getByRole("link", { name: /^Review/ }).click()
  await page.getByRole("button", { name: "Merge", exact: true }).click()
  await page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
}

/** The person opens the invitation mailed to them in their own browser, makes their account and lands in the organization. */
const joinFromMail = async (session: Session, person: Person, organization: string) => {
  const link = await mailing.inbox().linkMailedTo(person.email, /\/invite\//)
  await session.page.goto(link.pathname)
  await session.page.getByRole("heading", { name: `Join ${organization}` }).waitFor()
  expect(await session.page.getByLabel("Email").inputValue()).toBe(person.email)
  await session.page.getByLabel("Your name").fill(person.displayName)
  await session.page.getByLabel("Password").fill(person.password)
  await session.page.getByRole("button", { name: "Create the account and join" }).click()
  await session.page.getByRole("heading", { name: organization, exact: true }).waitFor()
}

/** First-run setup and the organization, on screen; the organization's id. */
const setUp = async (page: Page) => {
  await page.goto("/")
  await page.getByRole("heading", { name: "Set up Quire" }).waitFor()
  await page.getByLabel("Setup code").fill(setupCode)
  await page.getByLabel("Your name").fill(ada.displayName)
  await page.getByLabel("Email").fill(ada.email)
  await page.getByLabel("Password").fill(ada.password)
  await page.getByRole("button", { name: "Create the account" }).click()
  await page.getByRole("heading", { name: "Create your organization" }).waitFor()
  await page.getByLabel("Organization name").fill("Field Org")
  await page.getByLabel("Organization name").press("Enter")
  await page.getByRole("heading", { name: "Field Org", exact: true }).waitFor()
  return new URL(page.url()).pathname.split("/")[2]!
}

/** Members: Cole invited as a guest, Rae and Mo as readers, each joining from their mail; Rae made a reviewer, Mo removed. */
const members = async (a: Session, b: Session, c: Session, url: string) => {
  const nav = a.page.getByRole("navigation", { name: "Organization" })
  await nav.getByRole("link", { name: "Members" }).click()
  await a.page.getByRole("heading", { name: "Members", exact: true }).waitFor()
  await a.page.getByLabel("Email addresses").fill(cole.email)
  await a.page.getByLabel("Role", { exact: true }).selectOption("guest")
  await a.page.getByLabel("Email addresses").press("Enter")
  await a.page.getByRole("status").filter({ hasText: `Invited ${cole.email} as Guest, by email.` }).waitFor()
  await a.page.getByLabel("Email addresses").fill(`${rae.email}, ${mo.email}`)
  await a.page.getByLabel("Role", { exact: true }).selectOption("read")
  await a.page.getByRole("button", { name: "Invite", exact: true }).click()
  await a.page.getByRole("status").filter({ hasText: "Invited 2 people as Reader, by email." }).waitFor()
  // This server mails: the screen says the invitations went by email, their links here to pass on too.
  await a.page.getByText("Each person was emailed their invitation link; it is here too, to pass on yourself.").waitFor()
  await joinFromMail(b, cole, "Field Org")
  await joinFromMail(c, rae, "Field Org")
  // Mo accepts through the sign-in routes, as the invitation screen sends it.
  const moLink = await mailing.inbox().linkMailedTo(mo.email, /\/invite\//)
  const accepted = await fetch(`${url}/auth${moLink.pathname.replace(/^\/invite\//, "/invites/")}/accept`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(mo)
  })
  expect(accepted.status).toBe(200)
  await a.page.reload()
  await a.page.getByRole("button", { name: `Remove ${mo.displayName}` }).waitFor()
  await a.page.getByText("No invitation is waiting.").waitFor()
  // Cole and Rae opened the organization: they are seen; Mo never opened it.
  for (const [person, seen] of [[cole, true], [rae, true], [mo, false]] as const) {
    expect(await a.page.getByRole("row", { name: new RegExp(person.displayName) }).getByRole("cell", { name: "Never", exact: true }).count()).toBe(seen ? 0 : 1)
  }

  // Rae becomes a reviewer; Mo is removed after the confirmation.
  await a.page.getByLabel(`Role of ${rae.displayName}`).selectOption("review")
  await a.page.getByRole("button", { name: "Save", exact: true }).click()
  await a.page.getByRole("button", { name: "Undo", exact: true }).waitFor({ state: "detached" })
  await a.page.getByRole("button", { name: `Remove ${mo.displayName}` }).click()
  await a.page.getByRole("heading", { name: `Remove ${mo.displayName}?` }).waitFor()
  await a.page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click()
  await a.page.getByRole("status").filter({ hasText: `Removed ${mo.displayName}.` }).waitFor()
  await captureAllPairs(a.page, "admins-day-members")
}

/** Teams: Field team made with Cole, then Rae added. */
const teams = async (page: Page) => {
  await page.getByRole("navigation", { name: "Organization administration" }).getByRole("link", { name: "Teams" }).click()
  await page.getByRole("heading", { name: "Teams", exact: true }).waitFor()
  await page.getByLabel("Team name").fill("Field team")
  await page.getByLabel("First member (optional)").selectOption({ label: `${cole.displayName} (${cole.email})` })
  await page.getByRole("button", { name: "Create the team" }).click()
  await page.getByRole("heading", { name: "Field team" }).waitFor()
  await page.getByRole("button", { name: "Members of Field team" }).click()
  await page.getByLabel("Add a member to Field team").selectOption({ label: `${rae.displayName} (${rae.email})` })
  await page.getByRole("button", { name: "Add", exact: true }).click()
  await page.getByRole("button", { name: `Remove ${rae.displayName} from Field team` }).waitFor()
  await captureAllPairs(page, "admins-day-teams")
}

/** A collection with a space moved in from the keyboard, its first page written and merged; the space's id. */
const content = async (page: Page, org: string) => {
  await page.goto(`/o/${org}`)
  for (const [kind, title] of [["collection", "Handbooks"], ["space", "Field Manual"]] as const) {
    await page.getByRole("button", { name: `New ${kind}` }).click()
    await page.getByLabel(`Title of the new ${kind}`).fill(title)
    await page.keyboard.press("Enter")
    if (kind === "collection") await page.getByRole("main").getByRole("link", { name: title }).waitFor()
  }
  // The new space opens on its first page, its title selected: the welcome page is written there.
  await page.waitForURL(/\/~\/changes\/\d+\/untitled/)
  const spaceId = /\/s\/([^/]+)\//.exec(page.url())![1]!
  const titleField = page.getByRole("textbox", { name: "Page title", exact: true })
  await expect.poll(() => titleField.evaluate((element) => element === document.activeElement)).toBe(true)
  await page.keyboard.type("Welcome")
  await page.keyboard.press("Enter")
  await page.waitForURL(/\/~\/changes\/\d+\/welcome$/)
  const editor = page.getByRole("textbox", { name: "Page content" })
  await editor.click()
  await page.keyboard.type("Welcome to the field manual.")
  await merge(page)
  await page.goto(`/o/${org}`)
  await page.getByRole("main").getByRole("link", { name: "Field Manual" }).waitFor()
  await page.getByRole("button", { name: "Move Field Manual to…" }).focus()
  await page.keyboard.press("Enter")
  await page.getByRole("dialog").getByRole("button", { name: "Handbooks" }).click()
  await page.getByRole("status").filter({ hasText: "Moved Field Manual" }).waitFor()
  return spaceId
}

/** Access: Cole (a guest) sees the space only once his team has the collection; Rae (a reviewer) sees it, with no "New space". */
const access = async (a: Session, b: Session, c: Session, url: string, org: string) => {
  await b.page.reload()
  await b.page.getByRole("heading", { name: "Field Org", exact: true }).waitFor()
  expect(await b.page.getByRole("link", { name: "Field Manual" }).count()).toBe(0)
  const collections = await api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/orgs/${org}/collections`)
  await a.page.goto(`/o/${org}/c/${collections.items.find((item) => item.title === "Handbooks")!.id}`)
  await a.page.getByRole("heading", { name: "Handbooks" }).waitFor()
  await a.page.getByRole("button", { name: "Share" }).click()
  const dialog = a.page.getByRole("dialog", { name: "Share “Handbooks”" })
  await dialog.getByLabel("Person or team").selectOption({ label: "Team: Field team" })
  await dialog.getByLabel("Role", { exact: true }).selectOption("edit")
  await dialog.getByRole("button", { name: "Grant access" }).click()
  await dialog.getByRole("button", { name: "Revoke the access of Team Field team" }).waitFor()
  await a.page.keyboard.press("Escape")
  await dialog.waitFor({ state: "detached" })
  await b.page.reload()
  await b.page.getByRole("main").getByRole("link", { name: "Field Manual" }).click()
  await b.page.getByText("Welcome to the field manual.").waitFor()

  await c.page.goto(`/o/${org}`)
  await c.page.getByRole("main").getByRole("link", { name: "Field Manual" }).waitFor()
  await c.page.getByRole("heading", { name: "Spaces" }).waitFor()
  expect(await c.page.getByRole("button", { name: /^New (space|collection)$/ }).count()).toBe(0)
  // Renaming and moving need the admin permission on the space or collection: not offered either.
  expect(await c.page.getByRole("main").getByRole("button", { name: /^(Rename|Move|Change the emoji of) / }).count()).toBe(0)
  await captureAllPairs(c.page, "admins-day-reviewer-home")
}

/** Git sync: connected to the bare repository, exported by keyboard; the commit is in the repository. */
const gitSync = async (page: Page, spaceId: string, repo: { readonly url: string; readonly dir: string; readonly bare: string }) => {
  await page.goto(`/s/${spaceId}`)
  await chooseFromMenu(page, "More", "Git sync")
  await page.getByRole("heading", { name: "Git sync", level: 1 }).waitFor()
  await page.getByLabel("Repository URL").fill(repo.url)
  await page.getByRole("button", { name: "Connect", exact: true }).click()
  await page.getByRole("button", { name: "Change the connection" }).waitFor()
  await page.getByRole("button", { name: "Export to Git" }).focus()
  await page.keyboard.press("Enter")
  await page.getByLabel("Commit message").fill("The field manual")
  await page.keyboard.press("Enter")
  await page.getByText(/^Pushed commit [0-9a-f]{7}$/).waitFor({ timeout: 60_000 })
  expect(git(repo.dir, "--git-dir", repo.bare, "log", "-1", "--format=%s", "main")).toBe("The field manual")
  expect(git(repo.dir, "--git-dir", repo.bare, "grep", "-l", "Welcome to the field manual.", "main")).not.toBe("")
  await captureAllPairs(page, "admins-day-gitsync")
}

/** A site showing the space, coloured and titled, with a share link and visitor authentication, published; its URL and key. */
const site = async (page: Page, org: string) => {
  await page.goto(`/o/${org}`)
  await page.getByRole("button", { name: "New site" }).click()
  await page.getByLabel("Title of the new site").fill("Field Help")
  await page.getByRole("button", { name: "Create site" }).click()
  await page.getByRole("heading", { name: "Field Help", level: 1 }).waitFor()
  const siteId = /\/sites\/([^/]+)$/.exec(page.url())![1]!
  await openSiteTab(page, "Structure")
  await page.getByRole("button", { name: "New section" }).click()
  await page.getByLabel("Section title").fill("Manual")
  await page.getByLabel("Space it shows").selectOption({ label: "Field Manual" })
  await page.getByRole("button", { name: "Add section" }).click()
  await page.getByRole("heading", { name: "Manual", level: 3 }).waitFor()
  await openSiteTab(page, "Customization")
  await page.getByLabel("Site title").fill("Field Help Center")
  await page.getByLabel("Primary color (light)").fill("#2e7d32")
  await page.getByRole("button", { name: "Save customization" }).click()
  await page.getByRole("status").filter({ hasText: "Saved. The preview shows it." }).waitFor()
  const preview = page.getByTestId("site-preview")
  await expect.poll(() => preview.getAttribute("data-primary")).toBe("#2e7d32")
  await preview.getByText("Field Help Center").waitFor()
  await preview.getByText("Welcome").first().waitFor()
  await openSiteTab(page, "Audience")
  await page.getByRole("radio", { name: /Share links/ }).check()
  await page.getByLabel("Name of the new link").fill("Field testers")
  await page.getByRole("button", { name: "Create link" }).click()
  await page.getByText("Field testers", { exact: true }).waitFor()
  await page.getByRole("radio", { name: /Visitor authentication/ }).check()
  const keyField = page.getByLabel("the visitor key", { exact: true })
  await expect.poll(() => keyField.inputValue()).not.toBe("")
  const key = await keyField.inputValue()
  await page.getByRole("button", { name: "Publish", exact: true }).click()
  await page.getByRole("heading", { name: "Published", exact: true }).waitFor()
  const published = (await page.locator(".published-url").getAttribute("href"))!.replace(/\/$/, "")
  expect(published).toContain(`/~sites/${siteId}`)
  await captureAllPairs(page, "admins-day-site")
  return { siteId, published, key }
}

/** An OpenAPI spec uploaded, one of its operations put on the page from the editor's insert menu, merged. */
const specOnPage = async (page: Page, url: string, org: string, spaceId: string) => {
  await page.goto(`/o/${org}`)
  await page.getByRole("link", { name: "OpenAPI specs" }).click()
  await page.getByRole("heading", { name: "OpenAPI specs", level: 1 }).waitFor()
  await page.getByRole("button", { name: "Add spec" }).click()
  await page.getByLabel("Upload a file").check()
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "petstore.yaml", mimeType: "application/yaml", buffer: Buffer.from(petstore) })
  await expect.poll(() => page.getByLabel("Slug", { exact: true }).inputValue()).toBe("petstore")
  await page.getByRole("button", { name: "Add spec" }).click()
  await page.getByRole("heading", { name: "petstore", level: 1 }).waitFor()
  await page.getByRole("status").filter({ hasText: "Processed" }).waitFor()
  await page.getByText("List the pets").waitFor()

  await page.goto(`/s/${spaceId}/welcome`)
  await page.getByRole("button", { name: "Edit", exact: true }).click()
  await page.waitForURL(/\/~\/changes\/\d+\/welcome$/)
  const editor = page.getByRole("textbox", { name: "Page content" })
  await editor.getByText("Welcome to the field manual.").click()
  await page.keyboard.press("End")
  await page.keyboard.press("Enter")
  await page.keyboard.type("/openapi")
  const menu = page.getByRole("listbox", { name: "Insert a block" })
  await expect.poll(() => menu.getByRole("option", { selected: true }).textContent()).toMatch(/^OpenAPI operation/)
  await page.keyboard.press("Enter")
  await menu.waitFor({ state: "detached" })
  const block = editor.locator(".quire-openapiOperation")
  await block.getByRole("combobox", { name: "Spec" }).selectOption("petstore")
  await block.getByRole("listbox", { name: "Operations" }).getByRole("option", { name: /^GET\s*\/pets/ }).click()
  const number = /\/changes\/(\d+)\//.exec(page.url())![1]
  await expect.poll(async () => {
    const pages = await api<{ pages: ReadonlyArray<{ id: string }> }>(url, "GET", `/spaces/${spaceId}/content/pages`)
    const read = await api<{ markdown?: string }>(url, "GET", `/spaces/${spaceId}/change-requests/${number}/content/page/${pages.pages[0]!.id}?format=markdown`)
    return read.markdown ?? ""
  }, { timeout: 15_000 }).toContain("{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}")
  await merge(page)
}

/**
 * Insights, from a failed search to the page that answers it: Ada turns recording on; the visitor
 * searches the published site for what it lacks; the insights screen lists the search, and "Open a
 * change request" on it opens one in the editor, where Ada writes the answer and merges; the same
 * search then finds the page.
 */
const fixFailedSearch = async (page: Page, visitor: Page, url: string, org: string, siteId: string, published: string) => {
  const query = "offline maps"
  await page.goto(`/o/${org}/sites/${siteId}`)
  await openSiteTab(page, "Insights")
  await page.getByLabel("Page views, searches and link clicks").check()
  await eventually("insights on", () => api<{ insights?: unknown }>(url, "GET", `/orgs/${org}/sites/${siteId}/customization`), (c) => c.insights !== undefined)

  const search = async () => {
    await visitor.goto(`${published}/welcome`)
    await visitor.getByRole("searchbox").fill(query)
  }
  await search()
  await visitor.getByText(`No results for “${query}”`).waitFor()
  await eventually("the search recorded", () => api<{ columns: Array<{ values: Array<unknown> }> }>(url, "POST", `/orgs/${org}/sites/${siteId}/insights/events/aggregate`,
    { range: "last24Hours", where: [{ column: "eventType", values: ["search_type_query"] }], select: [{ column: "eventsCount" }] }), (a) => Number(a.columns[0]!.values[0] ?? 0) >= 1)

  await page.reload()
  const searches = page.getByRole("region", { name: "Searches that found nothing" })
  await searches.getByText(query).waitFor()
  await captureAllPairs(page, "admins-day-insights")
  await searches.getByRole("button", { name: `Open a change request for the search “${query}”` }).click()
  await page.waitForURL(/\/~\/changes\/\d+\//)
  const editor = page.getByRole("textbox", { name: "Page content" })
  await editor.getByText("Welcome to the field manual.").click()
  await page.keyboard.press("End")
  await page.keyboard.press("Enter")
  await page.keyboard.type("Offline maps: download the region before you leave the office.")
  await merge(page)

  // The same search now finds the page (the site shows the space's latest content; its index follows the merge).
  await expect.poll(async () => {
    await search()
    const found = visitor.locator(".search-result", { hasText: "Welcome" })
    const empty = visitor.getByText(`No results for “${query}”`)
    await found.or(empty).first().waitFor()
    return found.count()
  }, { timeout: 60_000, interval: 1_000 }).toBeGreaterThan(0)
}

/** A translation into French: its run starts, and its state shows (it fails: the test server has no provider). */
const translate = async (page: Page, url: string, org: string) => {
  await page.goto(`/o/${org}`)
  await page.getByRole("link", { name: "Translations" }).click()
  await page.getByRole("heading", { name: "Translations", level: 1 }).waitFor()
  await page.getByRole("button", { name: "New translation" }).click()
  await page.getByLabel("Space to translate").selectOption({ label: "Field Manual" })
  await page.getByLabel("Its language").selectOption("en")
  await page.getByLabel("Translate into").selectOption("fr")
  await page.getByRole("button", { name: "Create translation" }).click()
  const state = page.getByRole("status", { name: /Field Manual into French/ })
  await expect.poll(() => state.textContent()).toMatch(/^(Waiting to run…|Running…|Up to date|Failed)$/)
  await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe("Failed")
  await page.getByText(/Why it failed: No translation provider is configured/).waitFor()
  const translations = await api<{ items: ReadonlyArray<{ language: string; stats: { runs: number } }> }>(url, "GET", `/orgs/${org}/translations`)
  expect(translations.items.map((t) => [t.language, t.stats.runs])).toEqual([["fr", 1]])
}

it("an admin's day from an empty server: setup, members, teams, permissions, Git sync, a published site with a spec, a failed search fixed from insights, a translation", async () => {
  const url = mailing.url()
  const repo = await Effect.runPromise(Scope.provide(scope)(bareRepository({ "README.md": "# Docs\n" })))
  // The used invitation's page and the visitor's refusal are answers the browser logs.
  const a = await open(browser(), url, { expected: [/status of 403 \(Forbidden\)/] })
  const b = await open(browser(), url)
  const c = await open(browser(), url)
  let org = ""
  let spaceId = ""
  try {
    org = await setUp(a.page)
    await members(a, b, c, url)
    await teams(a.page)
    spaceId = await content(a.page, org)
    await access(a, b, c, url, org)
    await gitSync(a.page, spaceId, repo)
    const { siteId, published, key } = await site(a.page, org)

    // A visitor without a token is refused; with one signed by the key, the site shows the page.
    const visitor = await open(browser(), url, { expected: [/status of 40[13]/] })
    try {
      expect((await visitor.page.goto(published))?.status()).not.toBe(200)
      expect((await visitor.page.goto(`${published}/?jwt_token=${visitorToken(key)}`))?.status()).toBe(200)
      await visitor.page.getByText("Field Help Center").first().waitFor()
      await visitor.page.getByText("Welcome to the field manual.").waitFor()
      await specOnPage(a.page, url, org, spaceId)
      // The published page draws the operation.
      await visitor.page.goto(`${published}/welcome`)
      await visitor.page.locator(".openapi-path", { hasText: "/pets" }).waitFor()
      await visitor.page.getByText("List the pets").waitFor()
      await visitor.page.getByRole("cell", { name: "limit" }).waitFor()
      await captureAllPairs(visitor.page, "admins-day-published")
      await fixFailedSearch(a.page, visitor.page, url, org, siteId, published)
      expect(visitor.problems).toEqual([])
    } finally {
      await visitor.context.close()
    }
    await translate(a.page, url, org)
    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
    expect(c.problems).toEqual([])
  } catch (error) {
    for (const [who, session] of [["admin", a], ["guest", b], ["reviewer", c]] as const) {
      await session.page.screenshot({ path: `${artifacts}admins-day-failure-${who}.png`, fullPage: true })
    }
    throw new Error(`${String(error)}\nproblems: ${[...a.problems, ...b.problems, ...c.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
    await c.context.close()
  }

  // What the API then answers: the members and their roles (Mo gone), the team, the collection's access.
  type Member = { role: string | null; user: { displayName: string } }
  const listed = await api<{ items: ReadonlyArray<Member> }>(url, "GET", `/orgs/${org}/members?limit=1000`)
  expect(listed.items.map((m) => [m.user.displayName, m.role]).toSorted()).toEqual([[ada.displayName, "admin"], [cole.displayName, null], [rae.displayName, "review"]])
  const team = (await api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/orgs/${org}/teams`)).items.find((t) => t.title === "Field team")!
  const teamMembers = await eventually("the team's two members", () => api<{ items: ReadonlyArray<{ organization: { user: { displayName: string } } }> }>(url, "GET", `/orgs/${org}/teams/${team.id}/members`),
    (list) => list.items.length === 2)
  expect(teamMembers.items.map((m) => m.organization.user.displayName).toSorted()).toEqual([cole.displayName, rae.displayName])
  const collections = await api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/orgs/${org}/collections`)
  const granted = await api<{ items: ReadonlyArray<{ permission: string; team: { id: string } }> }>(url, "GET",
    `/collections/${collections.items.find((item) => item.title === "Handbooks")!.id}/permissions/teams`)
  expect(granted.items.map((item) => [item.team.id, item.permission])).toEqual([[team.id, "edit"]])
  const info = await api<{ url: string; branch: string }>(url, "GET", `/spaces/${spaceId}/git/info`)
  expect([info.url, info.branch]).toEqual([repo.url, "main"])
})
