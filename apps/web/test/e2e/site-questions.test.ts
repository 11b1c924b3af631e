/**
 * A site's questions: a reader asks the published site two questions with its Ask (one its pages
 * answer, one they do not); the admin sees both on the site's Insights, the answered one with the
 * page it came from, filters the unanswered ones, and opens a change request for the unanswered
 * question. A server of its own, whose model is a fake OpenAI-compatible endpoint started here.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureScreen, open, openSiteTab, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually, type RunningServer, setupAdmin, startServer } from "./servers.ts"

const browser = sharedBrowser()

/** The fake model: cites the first source it was given. */
const provider = http.createServer((request, response) => {
  request.resume()
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "Run the giraffe installer, then start it [1]." } }] }))
  })
})
let server: RunningServer | undefined
let url = ""

beforeAll(async () => {
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve))
  const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`
  server = await startServer({ QUIRE_AI_URL: providerUrl, QUIRE_AI_MODEL: "fake-model" })
  url = server.url
  await setupAdmin(url)
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await new Promise((resolve) => provider.close(resolve))
})

it("records what readers ask the site and shows it on the site's insights, with the pages the answers came from", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Questions Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [
      { operation: "insert_page", title: "Welcome", slug: "welcome", document: { markdown: "Welcome, readers.\n" } },
      { operation: "insert_page", title: "Install", slug: "install", document: { markdown: "Install the giraffe tool with its installer.\n" } }
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Handbook site", visibility: "public" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/site-spaces`, { spaceId: space.id })
  await api(url, "PUT", `/orgs/${org.id}/sites/${site.id}/customization`, { ai: { mode: "assistant" } })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)
  const questions = () => api<{ items: Array<{ question: string; stats: { answers: number } }> }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/questions`)

  const reader = await open(browser(), url)
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    // 1. A reader asks the published site: once answered from the page "Install", once about nothing it has.
    const r = reader.page
    await r.goto(`/~sites/${site.id}/`)
    await r.getByRole("heading", { name: "Welcome", level: 1 }).waitFor()
    const ask = async (question: string) => {
      await r.getByRole("searchbox").fill(question)
      await r.getByRole("button", { name: "Ask", exact: true }).click()
    }
    await ask("How do I install the giraffe tool?")
    await r.locator(".search-answer").getByRole("link", { name: "Install" }).waitFor()
    await ask("Where are the wombats kept?")
    await eventually("both questions recorded", questions, (q) => q.items.length === 2)
    expect(reader.problems).toEqual([])

    // 2. The admin sees them on the site's insights, the answered one with its page.
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    await openSiteTab(page, "Insights")
    const part = page.getByRole("region", { name: "Questions readers asked" })
    const answered = part.getByRole("listitem").filter({ hasText: "How do I install the giraffe tool?" })
    await answered.getByText("Answered", { exact: true }).waitFor()
    await answered.locator("summary").click()
    await answered.getByRole("link", { name: /Install/ }).waitFor()
    await answered.getByText("Run the giraffe installer, then start it [1].").waitFor()
    await captureScreen(page, "site-questions")
    if (screenshotsWanted()) {
      for (const [colorScheme, width] of [["light", 1280], ["dark", 390]] as const) {
        await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
        await part.screenshot({ path: `${artifacts}site-questions-part-${colorScheme}-${width}.png` })
      }
      await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
      await page.setViewportSize({ width: 1280, height: 800 })
    }

    // 3. Only the unanswered ones; a change request for the question nothing answered.
    await part.getByLabel("Show").selectOption("unanswered")
    const unanswered = part.getByRole("listitem").filter({ hasText: "Where are the wombats kept?" })
    await unanswered.getByText("Unanswered", { exact: true }).waitFor()
    expect(await part.getByText("How do I install the giraffe tool?").count()).toBe(0)
    await unanswered.locator("summary").click()
    await unanswered.getByText("No page of the site matched this question.").waitFor()
    await unanswered.getByRole("button", { name: "Open a change request for the question “Where are the wombats kept?”" }).click()
    await page.waitForURL(new RegExp(`/s/${space.id}/~/changes/\\d+/`))
    const number = /\/changes\/(\d+)\//.exec(page.url())![1]!
    const opened = await api<{ subject: string }>(url, "GET", `/spaces/${space.id}/change-requests/${number}`)
    expect(opened.subject).toBe("Readers asked “Where are the wombats kept?”")
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
    await reader.context.close()
  }
}, 240_000)
