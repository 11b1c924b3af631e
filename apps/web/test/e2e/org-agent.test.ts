/**
 * The organization's assistant and the change request's agent tasks in the browser, against a
 * built server whose model is the test kit's scripted one: a member asks the Assistant screen a
 * question and reads the answer with its page, renames the conversation and deletes it; a writer has
 * the agent write a change request's subject and description; a reviewer asks the agent to review, and the
 * agent is asked from the reviewers picker.
 * On the shared server (no model) the assistant quotes the passages found and "Write with the agent"
 * says what to set.
 */
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import { lastOf, type ModelRequest, type ModelServer, startModelServer } from "@quire/testkit/ModelServer"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, type RunningServer, setupAdmin, startServer } from "./servers.ts"

const browser = sharedBrowser()
let model: ModelServer
let server: RunningServer

const script = (request: ModelRequest) => {
  const tools = new Set((request.tools ?? []).map((t) => t.function.name))
  const afterTool = request.messages.at(-1)?.role === "tool"
  if (tools.has("setChangeRequestDetails")) {
    return afterTool ? { text: "Done." } : { toolCalls: [{ name: "setChangeRequestDetails", arguments: { subject: "Document nightly backups", description: "Adds the **backups** page." } }] }
  }
  // The organization's agent asked for an edit: it picks the Handbook; the change request's agent lists, reads and writes the page.
  if (tools.has("editSpace")) {
    if (afterTool) return { text: "I reworded the Operations page." }
    const handbook = /- ([A-Za-z0-9_-]+): Handbook/.exec(request.messages[0]?.content ?? "")?.[1] ?? ""
    return { toolCalls: [{ name: "editSpace", arguments: { spaceId: handbook, subject: "Say when the backup runs", instructions: "In the page Operations, write \"runs every night\" for \"runs nightly\"." } }] }
  }
  if (tools.has("writePage")) {
    const results = request.messages.filter((m) => m.role === "tool")
    const pageId = /^(\S+)\tOperations\t/m.exec(results[0]?.content ?? "")?.[1] ?? ""
    if (results.length === 0) return { toolCalls: [{ name: "listPages", arguments: {} }] }
    if (results.length === 1) return { toolCalls: [{ name: "readPage", arguments: { pageId } }] }
    if (results.length === 2) return { toolCalls: [{ name: "writePage", arguments: { pageId, markdown: (results[1]?.content ?? "").replace("runs nightly", "runs every night") } }] }
    return { text: "Reworded." }
  }
  if (tools.has("comment")) {
    if (afterTool) return { text: "One point to fix." }
    const page = /Added the page "Backups" \(id ([^,]+),/.exec(request.messages[0]?.content ?? "")?.[1] ?? ""
    return { toolCalls: [{ name: "comment", arguments: { pageId: page, quote: "every night", comment: "Say which time zone." } }] }
  }
  return { text: `Back up with the nightly job [1]. (${lastOf(request, "user")})` }
}

beforeAll(async () => {
  model = await startModelServer(script)
  server = await startServer({ QUIRE_AI_URL: model.url, QUIRE_AI_MODEL: "test-model" })
  await setupAdmin(server.url)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await model?.close()
})

/** An organization whose handbook has a page on backups (merged, indexed), and an open change request adding another. */
const organization = async (url: string, title: string) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.number}/content`, {
    changes: [{ operation: "insert_page", title: "Operations", document: { markdown: "# Operations\n\nThe database backup job runs nightly.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.number}/merge`)
  for (;;) {
    const found = await api<{ items: ReadonlyArray<unknown> }>(url, "GET", `/orgs/${org.id}/search?query=backup`)
    if (found.items.length > 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Backups", slug: "backups", document: { markdown: "# Backups\n\nThe database is backed up every night at two.\n" } }]
  })
  return { org, space, cr }
}

type Conversations = { readonly items: ReadonlyArray<{ readonly id: string; readonly title?: string }> }

it("answers a member in the Assistant screen with the page it used; the conversation is renamed and deleted", async () => {
  const url = server.url
  const { org } = await organization(url, "Assistant Org")
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("link", { name: "Assistant", exact: true }).click()
    await page.getByRole("heading", { name: "Assistant" }).waitFor()
    const question = page.getByLabel("Ask the assistant")
    await question.fill("How are backups made?")
    await question.press("Control+Enter")
    await expect.poll(async () => (await api<Conversations>(url, "GET", `/orgs/${org.id}/agent/conversations`)).items.map((c) => c.title)).toEqual(["How are backups made?"])
    const messages = page.getByRole("list", { name: "Messages" })
    await messages.getByText("Back up with the nightly job").waitFor()
    await messages.getByRole("list", { name: "Pages this answer stands on" }).getByRole("link", { name: "Operations" }).waitFor()
    await page.getByRole("navigation", { name: "Your conversations" }).getByRole("button", { name: "How are backups made?", exact: true }).waitFor()
    await captureAllPairs(page, "org-assistant")

    await page.getByRole("button", { name: "Rename “How are backups made?”" }).click()
    await page.getByLabel("Title").fill("Backups")
    await page.getByLabel("Title").press("Enter")
    await expect.poll(async () => (await api<Conversations>(url, "GET", `/orgs/${org.id}/agent/conversations`)).items.map((c) => c.title)).toEqual(["Backups"])
    await page.getByRole("button", { name: "Delete “Backups”" }).click()
    await page.getByRole("dialog", { name: "Delete this conversation?" }).getByRole("button", { name: "Delete" }).click()
    await expect.poll(async () => (await api<Conversations>(url, "GET", `/orgs/${org.id}/agent/conversations`)).items).toEqual([])
    await page.getByText("No conversations yet").waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("makes the edit a member asks the Assistant for in a change request it opens as them, and links it", async () => {
  const url = server.url
  const { org, space } = await organization(url, "Assistant Edit Org")
  const session = await open(browser(), url)
  const { page, problems, context } = session
  type Listed = { readonly items: ReadonlyArray<{ readonly id: string; readonly changeRequest?: string }> }
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/assistant`)
    const question = page.getByLabel("Ask the assistant")
    await question.fill("Fix the wording of the Operations page in the Handbook")
    await question.press("Control+Enter")
    // What /v1 holds: the conversation edits in a change request of the Handbook, which has the new words and main does not.
    await expect.poll(async () => (await api<Listed>(url, "GET", `/orgs/${org.id}/agent/conversations`)).items.map((c) => c.changeRequest !== undefined), { timeout: 30_000 }).toEqual([true])
    const crId = (await api<Listed>(url, "GET", `/orgs/${org.id}/agent/conversations`)).items[0]!.changeRequest!
    const cr = await api<{ number: number; subject: string }>(url, "GET", `/spaces/${space.id}/change-requests/${crId}`)
    expect(cr.subject).toBe("Say when the backup runs")
    expect((await api<{ markdown: string }>(url, "GET", `/spaces/${space.id}/change-requests/${crId}/content/path/operations?format=markdown`)).markdown).toContain("runs every night")
    expect((await api<{ markdown: string }>(url, "GET", `/spaces/${space.id}/content/path/operations?format=markdown`)).markdown).toContain("runs nightly")
    const messages = page.getByRole("list", { name: "Messages" })
    await messages.getByText("I reworded the Operations page.").waitFor()
    const link = messages.getByRole("link", { name: `Open change request #${cr.number}: Say when the backup runs` })
    await link.click()
    await page.waitForURL(new RegExp(`/s/${space.id}/~/changes/${cr.number}`))
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("keeps each model call in the AI log for the organization's admins: what the model was sent, what it answered", async () => {
  const url = server.url
  const { org } = await organization(url, "AI Log Org")
  await api(url, "POST", `/orgs/${org.id}/agent/conversations/log-1/messages`, { message: "When does the backup run?" })
  type Calls = { readonly items: ReadonlyArray<{ readonly purpose: string; readonly conversation?: string }> }
  await expect.poll(async () => (await api<Calls>(url, "GET", `/orgs/${org.id}/ai/calls`)).items.map((c) => c.purpose)).toEqual(["organization-agent"])
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/members`)
    await page.getByRole("navigation", { name: "Organization administration" }).getByRole("link", { name: "AI log" }).click()
    await page.getByRole("heading", { name: "AI log" }).waitFor()
    const calls = page.getByRole("list", { name: "Model calls" })
    await calls.getByText("Assistant conversation").waitFor()
    await calls.getByText("Back up with the nightly job [1]. (When does the backup run?)").waitFor()
    await calls.getByText(/What the model was sent/).click()
    await calls.getByText(/The database backup job runs nightly/).first().waitFor()
    await calls.getByRole("button", { name: "This conversation only" }).click()
    await expect.poll(() => page.getByLabel("Conversation").inputValue()).toMatch(/:log-1$/)
    await calls.getByText("Assistant conversation").waitFor()
    await captureAllPairs(page, "ai-log")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("writes a change request's subject and description, and reviews it with anchored comments", async () => {
  const url = server.url
  const { space, cr } = await organization(url, "Agent Tasks Org")
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/backups`)
    await page.getByRole("button", { name: "Write with the agent" }).click()
    await expect.poll(async () => (await api<{ subject: string }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`)).subject).toBe("Document nightly backups")
    await expect.poll(async () => page.getByLabel("Change request subject").inputValue()).toBe("Document nightly backups")
    await page.getByTestId("cr-description").getByText("backups").waitFor()
    await captureAllPairs(page, "cr-agent-details")

    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByRole("button", { name: "Ask the agent to review" }).click()
    await page.getByText("The agent left 1 comment on the pages.").waitFor()
    const comments = await api<{ items: ReadonlyArray<{ body: unknown; target?: { node?: { id: string } } }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/comments`)
    const anchored = comments.items.find((c) => c.target?.node !== undefined)!
    expect(JSON.stringify(anchored.body)).toContain("Say which time zone.")
    expect(anchored.target?.node?.id).toMatch(/^qa1:/)
    await page.getByText("Say which time zone.").first().waitFor()
    await captureAllPairs(page, "cr-agent-review")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("asks the agent for a review in the reviewers picker, beside people; its review runs in the background and shows its status", async () => {
  const url = server.url
  const { space, cr } = await organization(url, "Agent Reviewer Org")
  const session = await open(browser(), url)
  const { page, problems, context } = session
  type Requested = { readonly items: ReadonlyArray<{ readonly user: { readonly id: string }; readonly agentReview?: { readonly status: string; readonly comments: number } }> }
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByLabel("Ask for a review").selectOption("agent")
    await page.getByRole("button", { name: "Request review" }).click()
    // What /v1 holds: the agent among the requested reviewers, its review done with its comment.
    await expect.poll(async () => (await api<Requested>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`)).items.map((r) => [r.user.id, r.agentReview?.status]), { timeout: 30_000 })
      .toEqual([["agent", "done"]])
    await page.getByRole("region", { name: "Reviews" }).getByText("Agent: reviewed, 1 comment on the pages").waitFor()
    await page.getByText("Say which time zone.").first().waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("without a model: the assistant quotes the passages found, and \"Write with the agent\" says what to set", async () => {
  const url = inject("readyServer")
  const { org, space, cr } = await organization(url, "No Model Org")
  const session = await open(browser(), url, { expected: [/status of 501/, /status of 400/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/assistant`)
    await page.getByLabel("Ask the assistant").fill("backup job nightly")
    await page.getByRole("button", { name: "Ask", exact: true }).click()
    await page.getByRole("list", { name: "Messages" }).getByText(/No language model is set up on this server/).waitFor()
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/backups`)
    await page.getByRole("button", { name: "Write with the agent" }).click()
    const alert = page.getByRole("alert").filter({ hasText: "QUIRE_AI_URL" })
    await alert.waitFor()
    // Asking the agent for a review says a model is needed, and nothing is requested.
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByLabel("Ask for a review").selectOption("agent")
    await page.getByRole("button", { name: "Request review" }).click()
    await page.getByRole("alert").filter({ hasText: "reviews with a language model" }).waitFor()
    expect((await api<{ items: ReadonlyArray<unknown> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`)).items).toEqual([])
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
