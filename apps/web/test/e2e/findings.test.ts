/**
 * A site's findings: a reader asks the published site a question its pages do not answer (the
 * model, a fake OpenAI-compatible endpoint started here, says the sources do not say); the admin
 * sees it unanswered on the site's Insights, runs a scan on its Findings tab, which makes it a
 * finding, and the finding's button opens a change request, read back through `/v1`.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureScreen, open, openSiteTab, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually, type RunningServer, setupAdmin, startServer } from "./servers.ts"

const browser = sharedBrowser()

/** The fake model: the sources never answer. */
const provider = http.createServer((request, response) => {
  request.resume()
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "The sources do not say." } }] }))
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

it("makes a reader's unanswered question a finding, and the finding a change request", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Findings Org" })
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
  const sitePath = `/orgs/${org.id}/sites/${site.id}`
  await api(url, "POST", `${sitePath}/site-spaces`, { spaceId: space.id })
  await api(url, "PUT", `${sitePath}/customization`, { ai: { mode: "assistant" } })
  await api(url, "POST", `${sitePath}/publish`)
  const question = "How do I rotate the webhook signing secret?"

  const reader = await open(browser(), url)
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    // 1. A reader asks what the pages do not say.
    const r = reader.page
    await r.goto(`/~sites/${site.id}/`)
    await r.getByRole("heading", { name: "Welcome", level: 1 }).waitFor()
    await r.getByRole("searchbox").fill(question)
    await r.getByRole("button", { name: "Ask", exact: true }).click()
    await eventually("the question recorded unanswered", () => api<{ items: Array<{ question: string }> }>(url, "GET", `${sitePath}/questions?answered=no`), (q) => q.items.length === 1)
    expect(reader.problems).toEqual([])

    // 2. The admin sees it unanswered on the site's insights.
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    await openSiteTab(page, "Insights")
    const asked = page.getByRole("region", { name: "Questions readers asked" }).getByRole("listitem").filter({ hasText: question })
    await asked.getByText("Unanswered", { exact: true }).waitFor()

    // 3. A scan on the Findings tab makes it a finding.
    await openSiteTab(page, "Findings")
    const findings = page.getByRole("region", { name: "What the docs are missing" })
    await findings.getByText("No findings").waitFor()
    await page.getByRole("button", { name: "Run a scan" }).click()
    const listed = await eventually("a finding made", () => api<{ items: Array<{ id: string; title: string; type: string; questions: number }> }>(url, "GET", `${sitePath}/findings`), (f) => f.items.length === 1)
    const finding = listed.items[0]!
    expect([finding.type, finding.questions]).toEqual(["content-gap", 1])
    const item = findings.getByRole("listitem").filter({ hasText: finding.title })
    await item.locator("summary").click()
    await item.getByText(question).waitFor()
    await item.getByText("Question on the site").waitFor()
    await captureScreen(page, "site-findings")
    if (screenshotsWanted()) {
      const part = page.getByRole("region", { name: "Findings" })
      for (const [colorScheme, width] of [["light", 1280], ["dark", 1280], ["light", 390], ["dark", 390]] as const) {
        await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
        await part.screenshot({ path: `${artifacts}site-findings-${colorScheme}-${width}.png` })
      }
      await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
      await page.setViewportSize({ width: 1280, height: 800 })
    }

    // 4. Its button opens a change request in the site's space.
    await item.getByRole("button", { name: `Open a change request for “${finding.title}”` }).click()
    await page.waitForURL(new RegExp(`/s/${space.id}/~/changes/\\d+/`))
    const opened = await api<{ items: Array<{ id: string; number: number; subject: string }> }>(url, "GET", `${sitePath}/findings/${finding.id}/change-requests`)
    expect(opened.items.length).toBe(1)
    expect(page.url()).toContain(`/changes/${opened.items[0]!.number}/`)
    expect(opened.items[0]!.subject).toBe(`Fix: ${finding.title}`)
    const content = await api<{ pages: Array<{ title: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${opened.items[0]!.id}/content`)
    expect(content.pages.map((p) => p.title)).toContain("How do I rotate the webhook signing secret")
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
    await reader.context.close()
  }
}, 240_000)
