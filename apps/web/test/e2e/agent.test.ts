/**
 * The agent in a change request, in the browser, against a built server whose model is the test
 * kit's scripted one: a writer asks the agent, in the editor's panel, to add a page; the agent adds
 * it as the writer, its answer says so with a link to the page, the page tree shows it, and the API
 * has it. On the shared server (no model), asking says what to set, beside the box.
 */
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import { lastOf, type ModelServer, startModelServer } from "@quire/testkit/ModelServer"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, type RunningServer, setupAdmin, startServer } from "./servers.ts"

const browser = sharedBrowser()
let model: ModelServer
let server: RunningServer

beforeAll(async () => {
  model = await startModelServer((request) =>
    request.messages.at(-1)?.role === "tool" ? { text: "I added the page Backups, with the nightly schedule." }
      : lastOf(request, "user").toLowerCase().includes("backup")
      ? { toolCalls: [{ name: "createPage", arguments: { title: "Backups", markdown: "Back up the database every night at 02:00.\n" } }] }
      : { text: "Tell me what to write." })
  server = await startServer({ QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" })
  await setupAdmin(server.url)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await model?.close()
})

/** A space with a change request holding one page; the request's number and id. */
const changeRequest = async (url: string) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Agent Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Operations" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Intro", slug: "intro", document: { markdown: "How we run the service.\n" } }]
  })
  return { space, cr }
}

it("adds a page the writer asks for, says so with a link, and the tree and the API have it", async () => {
  const url = server.url
  const { space, cr } = await changeRequest(url)
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/intro`)
    const panel = page.getByRole("region", { name: "Agent" })
    await panel.getByLabel("Ask the agent").fill("Please add a page about backups")
    await panel.getByRole("button", { name: "Ask" }).click()
    await expect.poll(async () => {
      const pages = await api<{ pages: ReadonlyArray<{ title: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/content/pages`)
      return pages.pages.map((p) => p.title)
    }).toEqual(["Intro", "Backups"])
    const conversation = panel.getByRole("list", { name: "Conversation with the agent" })
    await conversation.getByText("I added the page Backups, with the nightly schedule.").waitFor()
    await page.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: "Backups" }).waitFor()
    await captureAllPairs(page, "agent-added-page")
    await conversation.getByRole("link", { name: "Added “Backups”" }).click()
    await page.getByRole("textbox", { name: "Page content" }).getByText("Back up the database every night at 02:00.").waitFor()
    // The model was asked in the change request's words, and the conversation is listed.
    expect(model.requests[0]!.messages[0]!.content).toContain("\"Operations\"")
    const listed = await api<{ items: ReadonlyArray<{ id: string; title?: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/conversations`)
    expect(listed.items.map((c) => [c.id, c.title])).toEqual([["default", "Please add a page about backups"]])
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("says what to set, beside the box, on a server without a model", async () => {
  const url = inject("readyServer")
  const { space, cr } = await changeRequest(url)
  // The refusal (501) is an answer the browser logs.
  const session = await open(browser(), url, { expected: [/status of 501/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/intro`)
    const panel = page.getByRole("region", { name: "Agent" })
    await panel.getByLabel("Ask the agent").fill("Please add a page about backups")
    await panel.getByLabel("Ask the agent").press("Control+Enter")
    const alert = panel.getByRole("alert")
    await alert.waitFor()
    expect(await alert.textContent()).toContain("QUIRE_AI_URL")
    expect(await panel.getByLabel("Ask the agent").getAttribute("aria-describedby")).toBe("agent-error")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
