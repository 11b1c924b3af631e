/**
 * Translations: an admin opens the organization's translations from its home and is told that no
 * provider is configured and which setting enables one (the browser tests' server has none); is
 * told under its field that the target must differ from the source; creates a translation of a
 * space into French with instructions and sees its run fail with the reason; runs it again;
 * changes the instructions; deletes it after a confirmation (its result space stays). Each step is
 * checked against the API.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, errorOf, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Translation {
  readonly id: string
  readonly status: string
  readonly failure?: string
  readonly language: string
  readonly instructions: { readonly nodes: ReadonlyArray<unknown> }
  readonly stats: { readonly runs: number }
  readonly result?: { readonly space: string }
}

it("creates a translation, shows its failed run and why, runs it again, edits its instructions and deletes it", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Translating Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Welcome", slug: "welcome", document: { markdown: "Welcome to the handbook.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const list = () => api<{ items: ReadonlyArray<Translation> }>(url, "GET", `/orgs/${org.id}/translations`).then((answer) => answer.items)
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("link", { name: "Translations" }).click()
    await page.getByRole("heading", { name: "Translations", level: 1 }).waitFor()
    await page.getByText("No translations yet.").waitFor()

    // 1. No provider on this server: the screen names the setting.
    const note = page.getByRole("note")
    await note.getByRole("heading", { name: "No translation provider is configured" }).waitFor()
    await expect.poll(() => note.textContent()).toContain("QUIRE_TRANSLATE_URL")

    // 2. A target in the source's own language is refused under its field.
    await page.getByRole("button", { name: "New translation" }).click()
    await page.getByLabel("Space to translate").selectOption({ label: "Handbook" })
    await page.getByLabel("Its language").selectOption("en")
    await page.getByLabel("Translate into").selectOption("en")
    await page.getByRole("button", { name: "Create translation" }).click()
    expect(await errorOf(page.getByLabel("Translate into", { exact: true }))).toContain("Choose a language other than the space's")
    expect(await list()).toEqual([])

    // 3. Into French, with instructions: its run fails, and the screen says why.
    await page.getByLabel("Translate into").selectOption("fr")
    await page.getByRole("textbox", { name: "Instructions" }).fill("Use a formal tone.\n\nKeep product names in English.")
    await page.getByRole("button", { name: "Create translation" }).click()
    await page.getByText(/Translating Handbook into French/).waitFor()
    const status = page.getByRole("status", { name: /Handbook into French/ })
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe("Failed")
    await page.getByText(/Why it failed: No translation provider is configured: set QUIRE_TRANSLATE_URL/).waitFor()
    const [created] = await list()
    expect(created!.language).toBe("fr")
    expect(created!.status).toBe("completed")
    expect(created!.failure).toContain("QUIRE_TRANSLATE_URL")
    expect(created!.instructions.nodes).toHaveLength(2)
    await page.getByText(/^1 run · last: 0 pages/).waitFor()
    await captureScreen(page, "translations")

    // 4. Run again: a second run, which fails the same way.
    await page.getByRole("button", { name: /^Run again — Handbook into French \(fr\)$/ }).click()
    await eventually("a second run", list, (items) => items[0]?.stats.runs === 2 && items[0].status === "completed" && items[0].failure !== undefined)
    await page.getByText(/^2 runs · last/).waitFor()

    // 5. New instructions: saved, and shown.
    await page.getByRole("button", { name: /^Edit instructions — Handbook into French \(fr\)$/ }).click()
    await page.getByRole("textbox", { name: "Instructions" }).fill("Address the reader as vous.")
    await page.getByRole("button", { name: "Save instructions" }).click()
    await page.getByText("Instructions: Address the reader as vous.").waitFor()
    expect(JSON.stringify((await list())[0]!.instructions)).toContain("Address the reader as vous.")

    // 6. Deleted after a confirmation; the translated space stays.
    const resultSpaces = await api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/orgs/${org.id}/spaces`)
    const result = resultSpaces.items.find((s) => s.title === "Handbook (fr)")
    expect(result).toBeDefined()
    await page.getByRole("button", { name: /^Delete… — Handbook into French \(fr\)$/ }).click()
    await page.getByRole("dialog", { name: "Delete the translation of Handbook?" }).getByRole("button", { name: "Delete translation" }).click()
    await page.getByText("No translations yet.").waitFor()
    expect(await list()).toEqual([])
    expect((await api<{ id: string }>(url, "GET", `/spaces/${result!.id}`)).id).toBe(result!.id)
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
