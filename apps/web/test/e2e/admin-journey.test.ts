/**
 * Issue 22's story in one run, all in the browser: Ada, an admin new to Quire, signs in; invites
 * Cole by email from the members screen and passes on the invitation's link, which Cole opens in
 * his own browser to make his account and join as a guest (who sees only what is shared with him);
 * she makes a team with Cole, a collection with a space in it (its first page written in the
 * editor and merged), and gives the team access to the collection in the permissions dialog, after
 * which Cole reaches the space; she connects the space to a local bare Git repository and exports
 * it (the commit lands in the repository); she makes a site showing the space, gives it a colour
 * and a title (seen in the preview), a share link and visitor authentication (its key shown),
 * publishes it and opens it as a visitor with a token signed by that key; she uploads an OpenAPI
 * spec, puts one of its operations on a page through a change request (the editor's insert menu,
 * "OpenAPI operation", whose default spec name is the uploaded one's; the path set in the block)
 * and merges, and the published page draws the operation; she translates the space into French and
 * sees the run's state (the test server has no translation provider: the run fails, and says why).
 * Only the organization comes from the API: no screen creates one. The screens it passes through are
 * captured (light and dark, axe) by their own tests, in the same states: members and the share dialog
 * in org-admin, the site in sites, the translations in translations.
 */
import { Effect, Exit, Scope } from "effect"
import { createHmac } from "node:crypto"
import { afterAll, expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { bareRepository, git } from "../../../../tooling/e2e/test/GitRepository.ts"
import { artifacts, open, sharedBrowser, signInOnScreen } from "./browser.ts"
import { petstore } from "./petstore.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()
const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

const cole = { displayName: "Cole League", email: "cole.journey@quire.test", password: "cole's long password" }

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** A visitor token as the site owner's own sign-in would make it: an HS256 JWT signed with the site's key, for an hour. */
const visitorToken = (key: string) => {
  const unsigned = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url({ exp: Math.floor(Date.now() / 1000) + 3600 })}`
  return `${unsigned}.${createHmac("sha256", key).update(unsigned).digest("base64url")}`
}

/** From a change request's editor: its review, then Merge, until it says merged. */
const merge = async (page: Page) => {
  await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()
  await page.getByRole("link", { name: "Open its review" }).click()
  await page.getByRole("button", { name: "Merge", exact: true }).click()
  await page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
}

it("an admin's first day: invite a colleague, share a collection with a team, sync to Git, publish a site with a spec, translate", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Journey Admin Org" })
  const repo = await Effect.runPromise(Scope.provide(scope)(bareRepository({ "README.md": "# Docs\n" })))
  const a = await open(browser(), url)
  const b = await open(browser(), url)
  try {
    // Ada signs in.
    await a.page.goto(`/o/${org.id}`)
    await signInOnScreen(a.page)
    await a.page.getByRole("heading", { name: "Journey Admin Org" }).waitFor()

    // She invites Cole by email, as a guest, and copies the invitation's link for him.
    await a.page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Members" }).click()
    await a.page.getByRole("heading", { name: "Members", exact: true }).waitFor()
    await a.page.getByLabel("Email addresses").fill(cole.email)
    await a.page.getByLabel("Role", { exact: true }).selectOption("guest")
    await a.page.getByLabel("Email addresses").press("Enter")
    await a.page.getByRole("status").filter({ hasText: `Invited ${cole.email} as Guest.` }).waitFor()
    const invitation = await a.page.getByLabel(`Invitation link for ${cole.email}`).inputValue()
    expect(invitation).toMatch(new RegExp(`/invite/${org.id}\\.`))

    // Cole opens it in his own browser, makes his account and lands in the organization.
    await b.page.goto(invitation)
    await b.page.getByRole("heading", { name: "Join Journey Admin Org" }).waitFor()
    expect(await b.page.getByLabel("Email").inputValue()).toBe(cole.email)
    await b.page.getByLabel("Your name").fill(cole.displayName)
    await b.page.getByLabel("Password").fill(cole.password)
    await b.page.getByRole("button", { name: "Create the account and join" }).click()
    await b.page.getByRole("heading", { name: "Journey Admin Org", exact: true }).waitFor()
    await a.page.reload()
    await a.page.getByRole("button", { name: `Remove ${cole.displayName}` }).waitFor()
    await a.page.getByText("No invitation is waiting.").waitFor()

    // A team with Cole.
    await a.page.getByRole("navigation", { name: "Organization administration" }).getByRole("link", { name: "Teams" }).click()
    await a.page.getByRole("heading", { name: "Teams", exact: true }).waitFor()
    await a.page.getByLabel("Team name").fill("Field team")
    await a.page.getByLabel("First member (optional)").selectOption({ label: `${cole.displayName} (${cole.email})` })
    await a.page.getByRole("button", { name: "Create the team" }).click()
    await a.page.getByRole("heading", { name: "Field team" }).waitFor()

    // A collection, and a space moved into it from the keyboard.
    await a.page.goto(`/o/${org.id}`)
    for (const [kind, title] of [["collection", "Handbooks"], ["space", "Field Manual"]] as const) {
      await a.page.getByRole("button", { name: `New ${kind}` }).click()
      await a.page.getByLabel(`Title of the new ${kind}`).fill(title)
      await a.page.keyboard.press("Enter")
      await a.page.getByRole("main").getByRole("link", { name: title }).waitFor()
    }
    await a.page.getByRole("button", { name: "Move Field Manual to…" }).focus()
    await a.page.keyboard.press("Enter")
    await a.page.getByRole("dialog").getByRole("button", { name: "Handbooks" }).click()
    await a.page.getByRole("status").filter({ hasText: "Moved Field Manual" }).waitFor()

    // Its first page, written in the editor and merged.
    await a.page.getByRole("main").getByRole("link", { name: "Field Manual" }).click()
    await a.page.getByRole("button", { name: "Write the first page" }).click()
    await a.page.waitForURL(/\/~\/changes\/\d+\/$/)
    const spaceId = /\/s\/([^/]+)\//.exec(a.page.url())![1]!
    await a.page.getByLabel("New page title").fill("Welcome")
    await a.page.getByRole("button", { name: "Add page" }).click()
    const editor = a.page.getByRole("textbox", { name: "Page content" })
    await editor.click()
    await a.page.keyboard.type("Welcome to the field manual.")
    await merge(a.page)

    // Cole does not see the space yet; the team is given access to the collection; then he does.
    await b.page.reload()
    await b.page.getByRole("heading", { name: "Journey Admin Org", exact: true }).waitFor()
    expect(await b.page.getByRole("link", { name: "Field Manual" }).count()).toBe(0)
    const collections = await api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/orgs/${org.id}/collections`)
    await a.page.goto(`/o/${org.id}/c/${collections.items.find((c) => c.title === "Handbooks")!.id}`)
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

    // Git sync: connected to the bare repository, exported by keyboard; the commit is in the repository.
    await a.page.goto(`/s/${spaceId}`)
    await a.page.getByRole("link", { name: "Git sync" }).click()
    await a.page.getByRole("heading", { name: "Git sync", level: 1 }).waitFor()
    await a.page.getByLabel("Repository URL").fill(repo.url)
    await a.page.getByRole("button", { name: "Connect", exact: true }).click()
    await a.page.getByRole("button", { name: "Change the connection" }).waitFor()
    await a.page.getByRole("button", { name: "Export to Git" }).focus()
    await a.page.keyboard.press("Enter")
    await a.page.getByLabel("Commit message").fill("The field manual")
    await a.page.keyboard.press("Enter")
    await a.page.getByText(/^Pushed commit [0-9a-f]{7}$/).waitFor({ timeout: 60_000 })
    expect(git(repo.dir, "--git-dir", repo.bare, "log", "-1", "--format=%s", "main")).toBe("The field manual")
    expect(git(repo.dir, "--git-dir", repo.bare, "grep", "-l", "Welcome to the field manual.", "main")).not.toBe("")

    // A site showing the space, with a colour and a title seen in the preview.
    await a.page.goto(`/o/${org.id}`)
    await a.page.getByRole("button", { name: "New site" }).click()
    await a.page.getByLabel("Title of the new site").fill("Field Help")
    await a.page.getByRole("button", { name: "Create site" }).click()
    await a.page.getByRole("heading", { name: "Field Help", level: 1 }).waitFor()
    const siteId = /\/sites\/([^/]+)$/.exec(a.page.url())![1]!
    await a.page.getByRole("button", { name: "New section" }).click()
    await a.page.getByLabel("Section title").fill("Manual")
    await a.page.getByLabel("Space it shows").selectOption({ label: "Field Manual" })
    await a.page.getByRole("button", { name: "Add section" }).click()
    await a.page.getByRole("heading", { name: "Manual", level: 3 }).waitFor()
    await a.page.getByLabel("Site title").fill("Field Help Center")
    await a.page.getByLabel("Primary color (light)").fill("#2e7d32")
    await a.page.getByRole("button", { name: "Save customization" }).click()
    await a.page.getByRole("status").filter({ hasText: "Saved. The preview shows it." }).waitFor()
    const preview = a.page.getByTestId("site-preview")
    await expect.poll(() => preview.getAttribute("data-primary")).toBe("#2e7d32")
    await preview.getByText("Field Help Center").waitFor()
    await preview.getByText("Welcome").first().waitFor()

    // A share link, then visitor authentication with its key; published.
    await a.page.getByRole("radio", { name: /Share links/ }).check()
    await a.page.getByLabel("Name of the new link").fill("Field testers")
    await a.page.getByRole("button", { name: "Create link" }).click()
    await a.page.getByText("Field testers", { exact: true }).waitFor()
    await a.page.getByRole("radio", { name: /Visitor authentication/ }).check()
    const keyField = a.page.getByLabel("the visitor key", { exact: true })
    await expect.poll(() => keyField.inputValue()).not.toBe("")
    const key = await keyField.inputValue()
    await a.page.getByRole("button", { name: "Publish", exact: true }).click()
    await a.page.getByRole("heading", { name: "Published", exact: true }).waitFor()
    const published = (await a.page.locator(".published-url").getAttribute("href"))!.replace(/\/$/, "")
    expect(published).toContain(`/~sites/${siteId}`)

    // A visitor without a token is refused; with one signed by the key, the site shows.
    const visitor = await open(browser(), url, { expected: [/status of 40[13]/] })
    try {
      expect((await visitor.page.goto(published))?.status()).not.toBe(200)
      expect((await visitor.page.goto(`${published}/?jwt_token=${visitorToken(key)}`))?.status()).toBe(200)
      await visitor.page.getByText("Field Help Center").first().waitFor()
      await visitor.page.getByText("Welcome to the field manual.").waitFor()

      // An OpenAPI spec uploaded on the specs screen.
      await a.page.goto(`/o/${org.id}`)
      await a.page.getByRole("link", { name: "OpenAPI specs" }).click()
      await a.page.getByRole("heading", { name: "OpenAPI specs", level: 1 }).waitFor()
      await a.page.getByRole("button", { name: "Add spec" }).click()
      await a.page.getByLabel("Upload a file").check()
      await a.page.getByLabel("File", { exact: true }).setInputFiles({ name: "petstore.yaml", mimeType: "application/yaml", buffer: Buffer.from(petstore) })
      await expect.poll(() => a.page.getByLabel("Slug", { exact: true }).inputValue()).toBe("petstore")
      await a.page.getByRole("button", { name: "Add spec" }).click()
      await a.page.getByRole("heading", { name: "petstore", level: 1 }).waitFor()
      await a.page.getByRole("status").filter({ hasText: "Processed" }).waitFor()
      await a.page.getByText("List the pets").waitFor()

      // Its operation on the page, from the editor's insert menu, in a change request that is merged.
      await a.page.goto(`/s/${spaceId}/welcome`)
      await a.page.getByRole("button", { name: "Edit", exact: true }).click()
      await a.page.waitForURL(/\/~\/changes\/\d+\/welcome$/)
      await editor.getByText("Welcome to the field manual.").click()
      await a.page.keyboard.press("End")
      await a.page.keyboard.press("Enter")
      await a.page.keyboard.type("/openapi")
      const menu = a.page.getByRole("listbox", { name: "Insert a block" })
      await expect.poll(() => menu.getByRole("option", { selected: true }).textContent()).toMatch(/^OpenAPI operation/)
      await a.page.keyboard.press("Enter")
      await menu.waitFor({ state: "detached" })
      // The block's pickers: the organization's spec, then its operation.
      const block = editor.locator(".quire-openapiOperation")
      await block.getByRole("combobox", { name: "Spec" }).selectOption("petstore")
      await block.getByRole("listbox", { name: "Operations" }).getByRole("option", { name: /^GET\s*\/pets/ }).click()
      await expect.poll(async () => {
        const pages = await api<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/spaces/${spaceId}/content/pages`)
        const number = /\/changes\/(\d+)\//.exec(a.page.url())![1]
        const read = await api<{ markdown?: string }>(url, "GET", `/spaces/${spaceId}/change-requests/${number}/content/page/${pages.pages[0]!.id}?format=markdown`)
        return read.markdown ?? ""
      }, { timeout: 15_000 }).toContain("{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}")
      await merge(a.page)

      // The published page draws the operation.
      await visitor.page.goto(`${published}/welcome`)
      await visitor.page.locator(".openapi-path", { hasText: "/pets" }).waitFor()
      await visitor.page.getByText("List the pets").waitFor()
      await visitor.page.getByRole("cell", { name: "limit" }).waitFor()
      await visitor.page.screenshot({ path: `${artifacts}admin-journey-published-operation.png`, fullPage: true })
      expect(visitor.problems).toEqual([])
    } finally {
      await visitor.context.close()
    }

    // A translation into French: its run starts, and its state shows.
    await a.page.goto(`/o/${org.id}`)
    await a.page.getByRole("link", { name: "Translations" }).click()
    await a.page.getByRole("heading", { name: "Translations", level: 1 }).waitFor()
    await a.page.getByRole("button", { name: "New translation" }).click()
    await a.page.getByLabel("Space to translate").selectOption({ label: "Field Manual" })
    await a.page.getByLabel("Its language").selectOption("en")
    await a.page.getByLabel("Translate into").selectOption("fr")
    await a.page.getByRole("button", { name: "Create translation" }).click()
    const state = a.page.getByRole("status", { name: /Field Manual into French/ })
    await expect.poll(() => state.textContent()).toMatch(/^(Waiting to run…|Running…|Up to date|Failed)$/)
    // No provider on the test server: the run ends failed, and the screen says why.
    await expect.poll(() => state.textContent(), { timeout: 30_000 }).toBe("Failed")
    await a.page.getByText(/Why it failed: No translation provider is configured/).waitFor()
    const translations = await api<{ items: ReadonlyArray<{ language: string; stats: { runs: number } }> }>(url, "GET", `/orgs/${org.id}/translations`)
    expect(translations.items.map((t) => [t.language, t.stats.runs])).toEqual([["fr", 1]])
    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
  } catch (error) {
    await a.page.screenshot({ path: `${artifacts}admin-journey-failure-a.png`, fullPage: true })
    await b.page.screenshot({ path: `${artifacts}admin-journey-failure-b.png`, fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${[...a.problems, ...b.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
  }
}, 300_000)
