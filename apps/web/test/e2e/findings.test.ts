/**
 * A site's findings: a reader asks the published site a question its pages do not answer (the
 * model, a fake OpenAI-compatible endpoint started here, says the sources do not say); the admin
 * sees it unanswered on the site's Insights, runs a scan on its Findings tab, which makes it a
 * finding, and the finding's button opens a change request, read back through `/v1`. A ticket that
 * the install page answers is judged by the model: the page is outdated, and the finding shows the
 * page and opens a change request on it.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureScreen, open, openSiteTab, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually, type RunningServer, setupAdmin, startServer } from "./servers.ts"

const browser = sharedBrowser()

/** The fake model: the sources never answer; a scan's judge finds the install page outdated. */
const provider = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    const messages = (JSON.parse(body || "{}") as { messages?: Array<{ role: string; content: string | null }> }).messages ?? []
    const judge = messages[0]?.content?.startsWith("You check a documentation page") === true && messages.at(-1)?.content?.includes("Page: Install") === true
    const content = judge
      ? JSON.stringify({ verdict: "outdated", quote: "Install the giraffe tool with its installer.", record: 1, why: "Since 3.0 the tool installs from the package manager." })
      : "The sources do not say."
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content } }] }))
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
  await api(url, "PUT", `${sitePath}/context-records`, [
    { id: "T-9", type: "ticket", title: "Install giraffe tool installer", body: "The installer is gone since 3.0; the tool installs from the package manager." }
  ])

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
    const findings = page.getByRole("region", { name: "What the docs miss or get wrong" })
    await findings.getByText("No findings").waitFor()
    await page.getByRole("button", { name: "Run a scan" }).click()
    const listed = await eventually("two findings made", () => api<{ items: Array<{ id: string; title: string; type: string; questions: number }> }>(url, "GET", `${sitePath}/findings`), (f) => f.items.length === 2)
    const finding = listed.items.find((f) => f.type === "content-gap")!
    expect(finding.questions).toBe(1)
    const outdated = listed.items.find((f) => f.type === "content-outdated")!
    expect(outdated.title).toBe("Outdated: Install")
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

    // 4. The outdated finding shows the page's words and the page, and opens a change request on that page.
    const stale = findings.getByRole("listitem").filter({ hasText: outdated.title })
    await stale.locator("summary").click()
    await stale.locator("blockquote", { hasText: "Install the giraffe tool with its installer." }).waitFor()
    await stale.getByRole("link", { name: "Install", exact: true }).waitFor()
    await stale.locator("q", { hasText: "Install giraffe tool installer" }).waitFor()
    await captureScreen(page, "site-findings-outdated")
    await stale.getByRole("button", { name: `Open a change request for “${outdated.title}”` }).click()
    await page.waitForURL(new RegExp(`/s/${space.id}/~/changes/\\d+/`))
    const fix = (await api<{ items: Array<{ id: string; subject: string }> }>(url, "GET", `${sitePath}/findings/${outdated.id}/change-requests`)).items
    expect(fix.map((cr) => cr.subject)).toEqual(["Fix: Outdated: Install"])
    const fixPages = await api<{ pages: Array<{ id: string; title: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${fix[0]!.id}/content`)
    const install = fixPages.pages.find((p) => p.title === "Install")!
    const fixed = await api<{ markdown: string }>(url, "GET", `/spaces/${space.id}/change-requests/${fix[0]!.id}/content/page/${install.id}?format=markdown`)
    expect(fixed.markdown).toContain("Opened from a finding of the site's scan (outdated)")
    expect(fixed.markdown).toContain("Install the giraffe tool with its installer.")
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    await openSiteTab(page, "Findings")
    await item.locator("summary").click()

    // 5. The gap's button opens a change request in the site's space.
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
