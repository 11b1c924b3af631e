/**
 * The agent in a page open live, in two browsers, against a built server whose model is the test
 * kit's scripted one (answering as server-sent events, as the agent streams): Ada asks the agent to
 * draft a section of the page while Bea types in it; both see the agent's text arrive and its caret
 * with its name, every character Bea typed is kept, and the API has both. Then "Write with AI" from
 * the slash menu and "Improve" on a selection, each shown before it goes in; and on the shared
 * server (no model), "Write with AI" says what to set, next to its field.
 */
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { lastOf, type ModelRequest, type ModelServer, startModelServer } from "@quire/testkit/ModelServer"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { editor, saved, textOf } from "./live.ts"
import { admin, api, type RunningServer, setupAdmin, startServer } from "./servers.ts"

const browser = sharedBrowser()
let model: ModelServer
let server: RunningServer

const drafted = "The agent drafted this section: restores take ten minutes."
const written = "Restore the database from the nightly backup."
const improved = "Restores take ten minutes."

/** The agent lists, reads, then writes the page with a section added; "Write with AI" and "Improve" are asked without tools. */
const script = (request: ModelRequest) => {
  const last = request.messages.at(-1)!
  const asked = lastOf(request, "user")
  if ((request.tools ?? []).length === 0) return { text: asked.startsWith("Rewrite the selected text") ? improved : written }
  if (last.role === "tool") {
    if (last.content?.startsWith("Wrote the page") === true) return { text: "I drafted the Restores section of Notes." }
    const listing = request.messages.find((m) => m.role === "tool" && m.content?.includes("\t") === true)
    const pageId = listing?.content?.split("\t")[0] ?? ""
    if (last.content?.includes("\t") === true) return { toolCalls: [{ name: "readPage", arguments: { pageId } }] }
    return { toolCalls: [{ name: "writePage", arguments: { pageId, markdown: `${(last.content ?? "").replace(/\n+$/, "")}\n\n## Restores\n\n${drafted}\n` } }] }
  }
  return asked.includes("draft") ? { toolCalls: [{ name: "listPages", arguments: {} }] } : { text: "Tell me what to write." }
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

/** A change request with the page "Notes": its screen's path and a reader of the page's markdown through /v1. */
const notesPage = async (url: string, subject: string, markdown: string) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: `${subject} Org` })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Notes", slug: "notes", document: { markdown } }]
  })
  const base = `/spaces/${space.id}/change-requests/${cr.number}/content`
  const listed = await api<{ pages: ReadonlyArray<{ id: string }> }>(url, "GET", `${base}/pages`)
  const read = async () => (await api<{ markdown?: string }>(url, "GET", `${base}/page/${listed.pages[0]!.id}?format=markdown`)).markdown ?? ""
  return { org, path: `/s/${space.id}/~/changes/${cr.number}/notes`, read }
}

const agentCaret = (page: Page) => editor(page).locator(".collab-caret-label", { hasText: `Agent (for ${admin.displayName})` })

it("drafts a section of a page Bea is typing in: both see its text and its caret arrive, and every key Bea typed is kept", async () => {
  const url = server.url
  const { org, path, read } = await notesPage(url, "Restores", "Intro paragraph.\n\nBea's paragraph.\n")
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const ada = await open(browser(), url)
  const bea = await open(browser(), url)
  try {
    const joined = await bea.context.request.post(`${url}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Bea Writer", email: "bea.agent@quire.test", password: "a password long enough" },
      headers: { origin: url }
    })
    expect(joined.status()).toBe(200)
    await signInAsAdmin(ada, url)
    await Promise.all([ada.page.goto(path), bea.page.goto(path)])
    await Promise.all([saved(ada.page), saved(bea.page)])

    await editor(bea.page).getByText("Bea's paragraph.").click()
    await bea.page.keyboard.press("End")
    const typed = " Bea keeps typing while the agent writes."
    const panel = ada.page.getByRole("region", { name: "Agent" })
    await panel.getByLabel("Ask the agent").fill("Please draft a Restores section in Notes")
    // Bea types key by key while Ada asks; the agent reads the page and writes its section meanwhile.
    await Promise.all([
      bea.page.keyboard.type(typed, { delay: 60 }),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 400))
        await panel.getByRole("button", { name: "Ask" }).click()
      })(),
      // Both see the agent's caret, with its name, where it wrote.
      agentCaret(ada.page).waitFor({ timeout: 20_000 }),
      agentCaret(bea.page).waitFor({ timeout: 20_000 })
    ])
    await captureScreen(bea.page, "agent-live-caret")
    await editor(ada.page).getByText(drafted).waitFor()
    await editor(bea.page).getByText(drafted).waitFor()
    // The agent leaves once its answer is done.
    await agentCaret(bea.page).waitFor({ state: "detached", timeout: 15_000 })
    await panel.getByRole("list", { name: "Conversation with the agent" }).getByText("I drafted the Restores section of Notes.").waitFor()
    await Promise.all([saved(ada.page), saved(bea.page)])
    for (const page of [ada.page, bea.page]) {
      await expect.poll(() => textOf(page), { timeout: 15_000 }).toContain(`Bea's paragraph.${typed}`)
      expect(await textOf(page)).toContain(drafted)
    }
    await expect.poll(read, { timeout: 15_000 }).toContain(`Bea's paragraph.${typed}\n`)
    const markdown = await read()
    expect(markdown).toContain(`## Restores\n\n${drafted}\n`)
    expect(markdown.startsWith("Intro paragraph.\n")).toBe(true)
    // The agent's turns were streamed.
    expect(model.requests.filter((r) => (r.tools ?? []).length > 0).every((r) => r.stream === true)).toBe(true)
    expect([...ada.problems, ...bea.problems]).toEqual([])
  } finally {
    await Promise.all([ada.context.close(), bea.context.close()])
  }
})

it("writes at the cursor from the slash menu, and improves a selection, each shown before it goes in", async () => {
  const url = server.url
  const { path, read } = await notesPage(url, "Compose", "Intro paragraph.\n\nSecond paragraph.\n")
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(path)
    await saved(page)
    await editor(page).getByText("Intro paragraph.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    await page.keyboard.type("/")
    const menu = page.getByRole("listbox", { name: "Insert a block" })
    expect(await menu.getByRole("option").first().textContent()).toContain("Write with AI")
    await page.keyboard.press("Enter")
    const form = page.getByRole("form", { name: "Write with AI" })
    await form.getByLabel("What should the agent write here?").fill("how to restore")
    await form.getByRole("button", { name: "Write" }).click()
    await form.getByRole("region", { name: "The agent's text" }).getByText(written).waitFor()
    await captureScreen(page, "agent-write-with-ai")
    await form.getByRole("button", { name: "Insert" }).click()
    await editor(page).getByText(written).waitFor()
    await expect.poll(read, { timeout: 15_000 }).toBe(`Intro paragraph.\n\n${written}\n\nSecond paragraph.\n`)
    expect(lastOf(model.requests.at(-1)!, "user")).toContain("Intro paragraph.")

    await editor(page).getByText("Second paragraph.").selectText()
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Improve" }).click()
    const improve = page.getByRole("form", { name: "Improve with AI" })
    await improve.getByRole("button", { name: "Improve" }).click()
    await improve.getByRole("region", { name: "The agent's text" }).getByText(improved).waitFor()
    expect(lastOf(model.requests.at(-1)!, "user")).toContain("Second paragraph.")
    await improve.getByRole("button", { name: "Accept" }).click()
    await editor(page).getByText(improved).waitFor()
    await expect.poll(read, { timeout: 15_000 }).toBe(`Intro paragraph.\n\n${written}\n\n${improved}\n`)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("says what to set, next to Write with AI's field, on a server without a model", async () => {
  const url = inject("readyServer")
  const { path } = await notesPage(url, "No model", "Intro paragraph.\n")
  // The refusal (501) is an answer the browser logs.
  const session = await open(browser(), url, { expected: [/status of 501/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(path)
    await saved(page)
    await editor(page).getByText("Intro paragraph.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    await page.keyboard.type("/")
    await page.getByRole("listbox", { name: "Insert a block" }).getByRole("option", { name: /Write with AI/ }).click()
    const form = page.getByRole("form", { name: "Write with AI" })
    await form.getByLabel("What should the agent write here?").fill("how to restore")
    await form.getByRole("button", { name: "Write" }).click()
    const alert = form.getByRole("alert")
    await alert.waitFor()
    expect(await alert.textContent()).toContain("QUIRE_AI_URL")
    expect(await form.getByLabel("What should the agent write here?").getAttribute("aria-describedby")).toBe("quire-agent-write-error")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
