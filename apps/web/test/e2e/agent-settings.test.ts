/**
 * What a site and its organization keep for AI (issue 60): on the site's Settings tab, "AI & MCP"
 * saves the editing agent's instructions and settings, and adds, changes and removes MCP servers
 * whose header values are never shown back; the organization's settings save its agent
 * instructions. Each step waits on what the server has through `/v1`.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, errorOf, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Document {
  readonly nodes: ReadonlyArray<unknown>
}
interface AgentSettings {
  readonly scans: { readonly topics: string }
  readonly findings: { readonly changeRequests: string }
  readonly editing: { readonly customInstructions: Document }
}
interface McpServer {
  readonly id: string
  readonly name: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
}

it("saves a site's agent settings and MCP servers, and the organization's agent instructions", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Agents Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Agent docs", spaces: [space.id] })
  const sitePath = `/orgs/${org.id}/sites/${site.id}`
  const settings = () => api<AgentSettings>(url, "GET", `${sitePath}/agent-settings`)
  const servers = async () => (await api<{ items: ReadonlyArray<McpServer> }>(url, "GET", `${sitePath}/mcp-servers`)).items
  // The refused URL below is a 400 the browser reports.
  const session = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/, /status of 404 \(Not Found\)/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}/settings`)
    const agent = page.getByRole("form", { name: "Agent settings" })
    const instructions = agent.getByLabel("Custom instructions (markdown)")
    await expect.poll(() => instructions.isEnabled()).toBe(true)
    await instructions.fill("Write **short** steps.\n\n- Use the product's names as written.")
    await agent.getByLabel("Topic scans").selectOption("never")
    await agent.getByRole("button", { name: "Save agent settings" }).click()
    const saved = await eventually("the agent settings", settings, (s) => s.scans.topics === "never" && s.editing.customInstructions.nodes.length === 2)
    expect(saved.findings.changeRequests).toBe("auto-fixable")
    await agent.getByRole("status").getByText("Saved the agent settings.").waitFor()

    // An MCP server, added from the keyboard: the form opens on its name.
    const mcp = page.locator(".mcp-servers")
    await mcp.getByText("No MCP server").waitFor()
    await mcp.getByRole("button", { name: "Add MCP server" }).focus()
    await page.keyboard.press("Enter")
    const form = page.getByRole("form", { name: "Add an MCP server" })
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name")
    await page.keyboard.type("Tickets")
    const urlField = form.getByLabel("URL")
    await urlField.fill("http://10.0.0.1/mcp")
    await form.getByRole("button", { name: "Add a header" }).click()
    await form.getByLabel("Header 1 name").fill("Authorization")
    await form.getByLabel("Header 1 value").fill("Bearer secret-one")
    await form.getByRole("button", { name: "Add server" }).click()
    // A private address is refused beside the URL, and nothing is stored.
    await expect.poll(() => errorOf(urlField)).toMatch(/private or local address/)
    expect(await servers()).toEqual([])
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "site-agent-mcp-form")
    await urlField.fill("https://mcp.example.com/mcp")
    await form.getByRole("button", { name: "Add server" }).click()
    const added = await eventually("the new MCP server", servers, (list) => list.length === 1)
    expect(added[0]).toMatchObject({ name: "Tickets", url: "https://mcp.example.com/mcp", headers: { Authorization: "********" } })
    await mcp.getByRole("status").getByText("Added Tickets.").waitFor()
    const row = mcp.getByRole("list", { name: "MCP servers" }).getByRole("listitem").filter({ hasText: "Tickets" })
    await row.getByText("headers: Authorization").waitFor()
    expect(await page.content()).not.toContain("secret-one")

    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "site-agent-settings")

    // Edited: the stored header is kept when its value is left empty.
    await row.getByRole("button", { name: "Edit Tickets" }).click()
    const edit = page.getByRole("form", { name: "Edit Tickets" })
    expect(await edit.getByLabel("Header 1 value").inputValue()).toBe("")
    expect(await edit.getByLabel("Header 1 value").getAttribute("placeholder")).toBe("Unchanged")
    await edit.getByLabel("Name", { exact: true }).fill("Support tickets")
    await edit.getByRole("button", { name: "Save server" }).click()
    await eventually("the renamed MCP server", servers, (list) => list[0]?.name === "Support tickets" && list[0].headers["Authorization"] === "********")

    // Removed after a confirmation.
    await mcp.getByRole("button", { name: "Remove Support tickets" }).click()
    await page.getByRole("dialog", { name: "Remove Support tickets?" }).getByRole("button", { name: "Remove server" }).click()
    await eventually("no MCP server", servers, (list) => list.length === 0)
    await mcp.getByText("No MCP server").waitFor()

    // The organization's agent instructions.
    await page.goto(`/o/${org.id}/settings`)
    const orgForm = page.getByRole("form", { name: "Agent instructions" })
    const orgInstructions = orgForm.getByLabel("Instructions (markdown)")
    await expect.poll(() => orgInstructions.isEnabled()).toBe(true)
    await orgInstructions.fill("Answer in British English.")
    await orgForm.getByRole("button", { name: "Save instructions" }).click()
    await eventually("the organization's instructions", () => api<{ instructions: Document }>(url, "GET", `/orgs/${org.id}/agent-instructions`), (i) => i.instructions.nodes.length === 1)
    await orgForm.getByRole("status").getByText("Saved.").waitFor()
    await page.evaluate(() => window.scrollTo(0, 0))
    await captureScreen(page, "org-agent-instructions")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
