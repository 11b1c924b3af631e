/**
 * Git sync in the browser: an admin opens a space's Git sync screen from the space, is refused a
 * bad URL and a bad branch under their fields, connects the space to a local bare repository,
 * exports it by keyboard (the commit lands in the repository and the screen shows it), imports a
 * change pushed to the repository (the page shows it), reads the webhook, and disconnects.
 */
import { Effect, Exit, Scope } from "effect"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, expect, inject, it } from "vitest"
import { bareRepository, git } from "../../../../tooling/e2e/test/GitRepository.ts"
import { captureScreen, chooseFromMenu, errorOf, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()
const scope = Effect.runSync(Scope.make())
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/** The markdown files of a work tree that hold `text`. */
const filesHolding = (dir: string, text: string): ReadonlyArray<string> =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".md") && !path.startsWith(".git/"))
    .filter((path) => readFileSync(join(dir, path), "utf8").includes(text))

it("connects a space to a repository, exports a commit, imports a push, and places errors by their fields", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Git Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Welcome", slug: "welcome", document: { markdown: "Welcome for readers.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const repo = await Effect.runPromise(Scope.provide(scope)(bareRepository({ "README.md": "# Old\n\nFrom Git.\n" })))
  const head = () => git(repo.dir, "--git-dir", repo.bare, "rev-parse", "main")

  // The refused URL and branch the test sends on purpose are 400s the browser logs.
  const session = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/] })
  const { page, problems, context } = session
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url })
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}`)
    await chooseFromMenu(page, "More", "Git sync")
    await page.getByRole("heading", { name: "Git sync", level: 1 }).waitFor()
    expect(page.url()).toBe(`${url}/s/${space.id}/~/git`)
    const repositoryUrl = page.getByLabel("Repository URL")
    const branch = page.getByLabel("Branch")
    await captureScreen(page, "gitsync-connect")

    // 1. What the contract refuses stays in the browser, said under its field.
    await repositoryUrl.fill("not a repository")
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    await expect.poll(() => errorOf(repositoryUrl), { timeout: 15_000 }).toMatch(/repository URL such as https:\/\/github\.com/)
    await repositoryUrl.fill(repo.url)
    await branch.fill("main..next")
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    await expect.poll(() => errorOf(branch), { timeout: 15_000 }).toMatch(/^Not a branch name Git accepts/)
    // What the server refuses (a protocol it does not speak), under the field it names.
    await repositoryUrl.fill("ssh://git@example.com/acme/docs.git")
    await branch.fill("main")
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    await expect.poll(() => errorOf(repositoryUrl), { timeout: 15_000 }).toMatch(/is not an http\(s\) repository URL/)
    expect(await errorOf(branch)).toBe("")
    await captureScreen(page, "gitsync-refused")

    // 2. Connected to the bare repository.
    await repositoryUrl.fill(repo.url)
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    await page.getByRole("button", { name: "Change the connection" }).waitFor()
    const info = await api<{ url: string; branch: string; credentials: boolean }>(url, "GET", `/spaces/${space.id}/git/info`)
    expect([info.url, info.branch, info.credentials]).toEqual([repo.url, "main", false])
    await page.getByText(repo.url, { exact: true }).waitFor()

    // 3. Export by keyboard: the commit lands in the repository and the screen names it.
    await page.getByRole("button", { name: "Export to Git" }).focus()
    await page.keyboard.press("Enter")
    const message = page.getByLabel("Commit message")
    await expect.poll(() => message.evaluate((element) => element === document.activeElement), { timeout: 15_000 }).toBe(true)
    await message.fill("Docs from the browser")
    await page.keyboard.press("Enter")
    const lastExport = page.locator(".git-run").filter({ has: page.getByRole("heading", { name: "Last export" }) })
    await lastExport.getByText(/^Pushed commit [0-9a-f]{7}$/).waitFor({ timeout: 60_000 })
    expect(git(repo.dir, "--git-dir", repo.bare, "log", "-1", "--format=%s", "main")).toBe("Docs from the browser")
    expect(await lastExport.locator(".git-badge").textContent()).toBe(`Pushed commit ${head().slice(0, 7)}`)
    const work = join(repo.dir, "clone")
    git(repo.dir, "clone", "--quiet", repo.bare, work)
    const [pageFile] = filesHolding(work, "Welcome for readers.")
    expect(pageFile, "the page's file in the exported tree").toBeDefined()

    // 4. A push to the repository, imported: the page changes.
    writeFileSync(join(work, pageFile!), readFileSync(join(work, pageFile!), "utf8").replace("Welcome for readers.", "Changed in Git."))
    git(work, "commit", "--quiet", "-am", "Edit in Git")
    git(work, "push", "--quiet", "origin", "main")
    await page.getByRole("button", { name: "Import from Git" }).click()
    await expectAccessible(page, "the import's confirmation")
    await page.getByRole("dialog").getByRole("button", { name: "Import", exact: true }).click()
    const lastImport = page.locator(".git-run").filter({ has: page.getByRole("heading", { name: "Last import" }) })
    await lastImport.getByText(`Imported commit ${head().slice(0, 7)}`).waitFor({ timeout: 60_000 })
    await captureScreen(page, "gitsync")

    // 5. A branch the repository lacks: the import fails, said in words by the branch.
    await page.getByRole("button", { name: "Change the connection" }).click()
    await branch.fill("nope")
    await page.getByRole("button", { name: "Save the connection" }).click()
    await page.locator(".git-facts").getByText("nope", { exact: true }).waitFor()
    await page.getByRole("button", { name: "Import from Git" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Import", exact: true }).click()
    await lastImport.getByText("Failed").waitFor({ timeout: 60_000 })
    await lastImport.getByText("refs/heads/nope does not exist").waitFor()
    const facts = page.locator(".git-facts")
    await facts.getByText("The last import failed here: Check the branch name").waitFor()
    expect(await facts.locator("dd").nth(1).textContent()).toMatch(/^nope.*Check the branch name/)
    await captureScreen(page, "gitsync-failed")

    // 6. The webhook's URL and secret, as the API answers them, with what to paste where.
    const webhook = await api<{ url: string; secret: string }>(url, "GET", `/spaces/${space.id}/git/webhook`)
    expect(await page.getByLabel("Webhook URL").inputValue()).toBe(webhook.url)
    expect(await page.getByLabel("Secret", { exact: true }).inputValue()).toBe(webhook.secret)
    expect(await page.getByLabel("Secret", { exact: true }).getAttribute("type")).toBe("password")
    await page.getByRole("button", { name: "Copy the secret" }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(webhook.secret)
    await page.getByText("On GitLab").click()
    await page.getByText("Secret token").waitFor()

    await page.getByRole("main").getByRole("link", { name: "Handbook" }).click()
    await page.getByText("Changed in Git.").waitFor()

    // 7. Disconnected: the pages stay, the screen offers to connect again.
    await page.goto(`/s/${space.id}/~/git`)
    await page.getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Disconnect", exact: true }).click()
    await page.getByRole("button", { name: "Connect", exact: true }).waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("takes credentials once, never shows them again, keeps them while the branch changes and replaces them when asked", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Private Git Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Private docs" })
  // Connecting reaches no remote, so a private repository's address serves without one.
  const repository = "https://git.example.com/acme/private.git"
  const info = () => api<{ url: string; branch: string; credentials: boolean }>(url, "GET", `/spaces/${space.id}/git/info`)
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/git`)
    await page.getByLabel("Repository URL").fill(repository)
    await page.getByLabel("Token or password").fill("first-s3cret-token")
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    await page.getByText("Stored, never shown").waitFor()
    expect(await info()).toEqual(expect.objectContaining({ url: repository, branch: "main", credentials: true }))

    // Another branch: the form does not ask for the credentials again, and keeps them.
    await page.getByRole("button", { name: "Change the connection" }).click()
    await page.getByText("Stored for this repository, and never shown.").waitFor()
    expect(await page.getByLabel("Token or password").count()).toBe(0)
    await page.getByLabel("Branch").fill("next")
    await page.getByRole("button", { name: "Save the connection" }).click()
    await page.getByRole("button", { name: "Change the connection" }).waitFor()
    expect(await info()).toEqual(expect.objectContaining({ branch: "next", credentials: true }))

    // Replaced by a user name and password.
    await page.getByRole("button", { name: "Change the connection" }).click()
    await page.getByRole("button", { name: "Replace the credentials" }).click()
    await page.getByLabel("User name (optional)").fill("docs-bot")
    await page.getByLabel("Token or password").fill("second-s3cret")
    await page.getByRole("button", { name: "Save the connection" }).click()
    await page.getByRole("button", { name: "Change the connection" }).waitFor()
    expect((await info()).credentials).toBe(true)
    const shown = await page.content()
    expect(shown).not.toContain("s3cret")
    expect(shown).not.toContain("docs-bot")
    await captureScreen(page, "gitsync-private")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
