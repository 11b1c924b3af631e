/**
 * Git installations in the browser, against a built server whose GitHub is the test kit's fake:
 * an admin connects GitHub once in the organization's settings (the token typed once, never shown),
 * then connects a space on its Git sync screen by picking the installation, a repository and a
 * branch from lists, without typing a URL or a token; then removes the installation.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { type ForgeServer, startForgeServer } from "@quire/testkit/ForgeServer"
import { open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, type RunningServer, setupAdmin, startServer } from "./servers.ts"

const browser = sharedBrowser()
let forge: ForgeServer
let server: RunningServer

beforeAll(async () => {
  forge = await startForgeServer({
    token: "forge-token",
    github: [
      { id: 101, fullName: "acme/docs", defaultBranch: "main", branches: ["main", "release"] },
      { id: 102, fullName: "acme/site", defaultBranch: "trunk", branches: ["trunk"] }
    ]
  })
  // By name: the server's outbound guard lets `localhost` through (servers.ts), not 127.0.0.1.
  server = await startServer({ QUIRE_GITHUB_API_URL: forge.githubUrl.replace("127.0.0.1", "localhost") })
  await setupAdmin(server.url)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await forge?.close()
})

type Installations = { readonly items: ReadonlyArray<{ readonly id: string; readonly provider: string; readonly credentials: boolean }> }

it("connects GitHub once in the settings, then a space to a repository and branch picked from lists", async () => {
  const url = server.url
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Forge Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/settings`)
    const section = page.getByRole("region", { name: "Git installations" })
    await section.getByText("No Git installation yet.").waitFor()
    await section.getByLabel("Provider").selectOption("github")
    await section.getByLabel("Token").fill("forge-token")
    await section.getByRole("button", { name: "Connect", exact: true }).click()
    await expect.poll(async () => (await api<Installations>(url, "GET", `/orgs/${org.id}/git/installations`)).items.map((i) => [i.provider, i.credentials]), { timeout: 15_000 })
      .toEqual([["github", true]])
    await section.getByRole("list", { name: "Git installations" }).getByText(/^GitHub/).waitFor()
    expect(await page.content()).not.toContain("forge-token")

    await page.goto(`/s/${space.id}/~/git`)
    await page.getByRole("heading", { name: "Git sync", level: 1 }).waitFor()
    await expect.poll(() => page.getByLabel("With one of the organization's Git installations").isChecked(), { timeout: 15_000 }).toBe(true)
    await page.locator("select[name=installation]").selectOption({ index: 1 })
    const repository = page.locator("select[name=repository]")
    await expect.poll(() => repository.locator("option").allTextContents(), { timeout: 15_000 }).toEqual(["Choose a repository", "acme/docs", "acme/site"])
    await repository.selectOption("acme/docs")
    const branch = page.locator("select[name=branch]")
    await expect.poll(() => branch.locator("option").allTextContents(), { timeout: 15_000 }).toEqual(["Choose a branch", "main", "release"])
    expect(await branch.inputValue()).toBe("main")
    await branch.selectOption("release")
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    await page.getByRole("button", { name: "Change the connection" }).waitFor()
    const info = await api<{ url: string; branch: string; credentials: boolean }>(url, "GET", `/spaces/${space.id}/git/info`)
    expect([info.url, info.branch, info.credentials]).toEqual(["https://github.com/acme/docs.git", "release", true])

    // Removing the installation, after a confirmation.
    await page.goto(`/o/${org.id}/settings`)
    await section.getByRole("button", { name: /^Remove GitHub/ }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click()
    await expect.poll(async () => (await api<Installations>(url, "GET", `/orgs/${org.id}/git/installations`)).items.length, { timeout: 15_000 }).toBe(0)
    await section.getByText("No Git installation yet.").waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
