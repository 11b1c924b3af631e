/**
 * The command palette, "Ask or search": Ctrl+K opens it anywhere in an organization, typing
 * searches the organization's pages (whole words, as the API matches them: the API's
 * searchOrganizationContent) and its spaces by title, arrows and Enter open a result, which lands on
 * the page in its space. Its first option asks the words as a question (askInOrganization): the
 * answer shows in the palette with the pages it stands on (this server has no model: the answer is
 * the passages found), and a source opens its page; before anything is typed, it suggests questions.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const filler = Array.from({ length: 40 }, (_, i) => `Step ${i + 1} checks the regions before the next one starts.`).join("\n\n")
const browser = sharedBrowser()

it("finds a page as you type and opens it", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Search Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Operations" })
  const cr = await api<{ number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Runbooks" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.number}/content`, {
    changes: [
      { operation: "insert_page", title: "Welcome", document: { markdown: "# Welcome\n\nStart here.\n" } },
      // The words searched for come after a screenful of others: the page opens scrolled to them.
      { operation: "insert_page", title: "Deploying", document: { markdown: `# Deploying\n\n${filler}\n\nRoll out with the zeppelin rollout tool, one region at a time.\n` } }
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.number}/merge`)
  // The search index follows the merge (a job): wait until the API finds the page.
  for (;;) {
    const found = await api<{ items: ReadonlyArray<unknown> }>(url, "GET", `/orgs/${org.id}/search?query=zeppelin`)
    if (found.items.length > 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Search Org" }).waitFor()
    await page.keyboard.press("Control+k")
    const input = page.getByRole("combobox", { name: "Ask or search the organization" })
    await input.waitFor()
    // The API matches whole words: the page turns up once its word is typed.
    await input.pressSequentially("zeppelin")
    const result = page.getByRole("listbox", { name: "Results" }).getByRole("option", { name: /^Deploying/ })
    await result.waitFor()
    expect(await result.innerText()).toContain("Operations")
    // The word searched for is marked in the result's excerpt.
    expect(await result.locator("mark").allInnerTexts()).toContain("zeppelin")
    await captureScreen(page, "palette")

    // A space by its title, then the page by its words: arrows choose, Enter opens.
    await input.fill("operations")
    await page.getByRole("option", { name: /Operations/ }).first().waitFor()
    await input.fill("zeppelin")
    await result.waitFor()
    // The first option asks the words; the page is the next.
    expect(await page.getByRole("listbox", { name: "Results" }).getByRole("option", { selected: true }).innerText()).toContain("Ask “zeppelin”")
    await input.press("ArrowDown")
    await input.press("ArrowUp")
    await input.press("ArrowDown")
    expect(await page.getByRole("listbox", { name: "Results" }).getByRole("option", { selected: true }).innerText()).toContain("Deploying")
    await input.press("Enter")
    await page.getByRole("heading", { name: "Deploying" }).waitFor()
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/s/${space.id}/`))
    await page.locator(".markdown").getByText("Roll out with the zeppelin rollout tool").waitFor()
    // The page opened where the word is, the word highlighted.
    expect(new URL(page.url()).searchParams.get("q")).toBe("zeppelin")
    await page.waitForFunction(() => (CSS.highlights.get("search-match")?.size ?? 0) > 0)
    const match = page.locator(".markdown").getByText("Roll out with the zeppelin rollout tool")
    await expect.poll(() => match.evaluate((element) => {
      const box = element.getBoundingClientRect()
      return window.scrollY > 0 && box.top >= 0 && box.bottom <= window.innerHeight
    })).toBe(true)
    // The organization of the space is the one the switcher shows.
    expect(await page.getByRole("combobox", { name: "Organization" }).inputValue()).toBe(org.id)
    await captureScreen(page, "space-page")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("asks a question and answers it in the palette from the pages the person may read, with those pages to open", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Ask Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Field Guide" })
  const cr = await api<{ number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Radios" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.number}/content`, {
    changes: [{ operation: "insert_page", title: "Radios", document: { markdown: "# Radios\n\n## Charging\n\nCharge the handheld radios overnight on the blue dock.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.number}/merge`)
  for (;;) {
    const found = await api<{ items: ReadonlyArray<unknown> }>(url, "GET", `/orgs/${org.id}/search?query=radios`)
    if (found.items.length > 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const suggested = await api<{ questions: ReadonlyArray<string> }>(url, "GET", `/orgs/${org.id}/ask/questions`)
  expect(suggested.questions.length).toBeGreaterThan(0)

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Ask Org" }).waitFor()
    await page.keyboard.press("Control+k")
    const input = page.getByRole("combobox", { name: "Ask or search the organization" })
    await input.waitFor()
    // Before anything is typed: the questions worth asking, as the API suggests them.
    const suggestions = page.getByRole("listbox", { name: "Suggested questions" })
    await suggestions.getByRole("option", { name: suggested.questions[0]! }).waitFor()

    await input.pressSequentially("How do I charge the radios?")
    await page.getByRole("option", { name: /Ask “How do I charge the radios\?”/ }).waitFor()
    await input.press("Enter")
    const answer = page.getByRole("region", { name: "Answer" })
    await answer.getByText("Charge the handheld radios overnight on the blue dock.").waitFor()
    await answer.getByRole("link", { name: "Source 1: Radios" }).waitFor()
    await captureScreen(page, "palette-answer")
    // Back to the results, the question still typed; then a source opens its page at the section.
    await answer.getByRole("button", { name: "Back to results" }).click()
    await page.getByRole("option", { name: /Ask “How do I charge the radios\?”/ }).waitFor()
    await input.press("Enter")
    await answer.getByRole("list").getByRole("link", { name: "Radios" }).click()
    await page.getByRole("heading", { name: "Radios", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/s/${space.id}/radios`)
    expect(new URL(page.url()).hash).toBe("#charging")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
