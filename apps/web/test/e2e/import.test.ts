/**
 * Import: an editor opens "Import from…" on a space, is told under the file field that a file is
 * needed, imports a Confluence space export (a zip) and then a Word document made by LibreOffice,
 * follows each run to its end, and opens an imported page from the run's list. Each step is
 * checked against the API (runs, pages, files). An import left as the screen proposes it goes into
 * a new change request, which opens once the run completes, the space's pages unchanged.
 */
import { zipSync } from "fflate"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, inject, it } from "vitest"
import { filesOfFolder } from "@quire/testkit"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureScreen, errorOf, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()
const fixtures = fileURLToPath(new URL("../../../../packages/content/test/importing/fixtures/", import.meta.url))

const zipOf = (dir: string): Buffer => Buffer.from(zipSync(filesOfFolder(join(fixtures, dir))))

interface Run {
  readonly id: string
  readonly status: string
  readonly target: { readonly changeRequest?: string }
  readonly pages: ReadonlyArray<{ readonly id: string }>
  readonly progress: { readonly files: number }
}

it("imports a Confluence export and a Word document into a space, with progress, and opens an imported page", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Importing Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Engineering" })
  const runs = () => api<{ items: ReadonlyArray<Run> }>(url, "GET", `/org/${org.id}/imports?space=${space.id}`).then((answer) => answer.items)
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}`)
    await page.getByRole("link", { name: "Import from…" }).click()
    await page.getByRole("heading", { name: "Import", level: 1 }).waitFor()
    await page.getByText("None yet.").waitFor()

    // 1. No file chosen: said under the file field, and nothing is started.
    await page.getByRole("button", { name: "Start the import" }).click()
    expect(await errorOf(page.getByLabel("File", { exact: true }))).toContain("Choose a file to import.")
    expect(await runs()).toEqual([])

    // 2. A Confluence space export: its four pages and two attachments, straight into the space.
    await page.getByLabel("What are you importing?").selectOption("confluence")
    await page.getByRole("radio", { name: /Straight into the space/ }).check()
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: "Confluence-space-export-ENG.html.zip", mimeType: "application/zip", buffer: zipOf("confluence") })
    await page.getByRole("button", { name: "Start the import" }).click()
    await page.getByText("Imported 4 pages and 2 images", { exact: true }).waitFor({ timeout: 60_000 })
    const [confluence] = await eventually("the Confluence run", runs, (items) => items[0]?.status === "completed")
    expect(confluence!.pages).toHaveLength(4)
    const imported = page.getByRole("list", { name: "Imported pages" }).first()
    await imported.getByRole("link", { name: "Onboarding" }).waitFor()
    await captureScreen(page, "import")
    if (screenshotsWanted()) {
      for (const [colorScheme, width] of [["dark", 1280], ["light", 390]] as const) {
        await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
        await page.screenshot({ path: `${artifacts}import-${colorScheme}-${width}.png`, fullPage: true })
      }
      await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
      await page.setViewportSize({ width: 1280, height: 800 })
    }

    // 3. A Word document: one page, its image stored as a file.
    await page.getByLabel("What are you importing?").selectOption("docx")
    await page.getByRole("radio", { name: /Straight into the space/ }).check()
    await page.getByLabel("File", { exact: true }).setInputFiles(join(fixtures, "release-notes.docx"))
    await page.getByRole("button", { name: "Start the import" }).click()
    await page.getByText("Imported 1 page and 1 image", { exact: true }).waitFor({ timeout: 60_000 })
    const [word] = await eventually("the Word run", runs, (items) => items.length === 2 && items[0]?.status === "completed")
    expect(word!.pages).toHaveLength(1)
    const files = await api<{ items: ReadonlyArray<{ name: string }> }>(url, "GET", `/spaces/${space.id}/content/files`)
    expect(files.items.map((f) => f.name).sort()).toEqual(["lint-flow.png", "release-notes-image-1.png", "team-map.png"])

    // 4. An imported page opens from the run's list, its hints and table rendered.
    await page.getByRole("list", { name: "Imported pages" }).nth(1).getByRole("link", { name: "Onboarding" }).click()
    await page.getByText("Your accounts are ready after 24 hours.").waitFor()
    await page.getByRole("cell", { name: "Set up the laptop" }).waitFor()
    await captureScreen(page, "import-confluence-page")
    await page.goto(`/s/${space.id}/~/import`)
    await page.getByRole("list", { name: "Imported pages" }).first().getByRole("link", { name: "Release Notes 4.2" }).click()
    await page.getByRole("heading", { name: "Highlights" }).waitFor()
    await captureScreen(page, "import-docx-page")

    // 5. Published on a site: an imported page of each source as a reader sees it.
    const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Engineering docs" })
    await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/site-spaces`, { spaceId: space.id })
    await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)
    interface Listed { readonly title: string; readonly path?: string; readonly pages?: ReadonlyArray<Listed> }
    const flat = (items: ReadonlyArray<Listed>): Array<Listed> => items.flatMap((item) => [item, ...flat(item.pages ?? [])])
    const tree = flat((await api<{ pages: ReadonlyArray<Listed> }>(url, "GET", `/spaces/${space.id}/content/pages`)).pages)
    for (const [title, text, name] of [["Onboarding", "Your accounts are ready after 24 hours.", "confluence"], ["Release Notes 4.2", "Sync is twice as fast.", "docx"]] as const) {
      const path = tree.find((item) => item.title === title)?.path
      expect(path).toBeDefined()
      await page.goto(`/~sites/${site.id}/${path}`)
      await page.getByText(text).first().waitFor()
      if (screenshotsWanted()) {
        for (const [colorScheme, width] of [["light", 1280], ["dark", 390]] as const) {
          await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
          await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
          await page.screenshot({ path: `${artifacts}import-site-${name}-${colorScheme}-${width}.png`, fullPage: true })
        }
        await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
        await page.setViewportSize({ width: 1280, height: 800 })
      }
    }
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }
})

it("proposes an import as a new change request unless told otherwise, and opens it once done", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Proposing Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbooks" })
  const runs = () => api<{ items: ReadonlyArray<Run> }>(url, "GET", `/org/${org.id}/imports?space=${space.id}`).then((answer) => answer.items)
  const mainPages = () => api<{ pages: ReadonlyArray<{ title: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`).then((answer) => answer.pages.map((p) => p.title))
  const before = await mainPages()
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/import`)
    await page.getByText("None yet.").waitFor()
    // The proposal is what the screen offers first; nothing else is touched.
    expect(await page.getByRole("radio", { name: /Propose them in a new change request/ }).isChecked()).toBe(true)
    await captureScreen(page, "import-proposed")
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: "escalations.md", mimeType: "text/markdown", buffer: Buffer.from("# Escalations\n\nCall the lead first.\n") })
    await page.getByRole("button", { name: "Start the import" }).focus()
    await page.keyboard.press("Enter")
    // Once the run is done the screen opens its change request.
    await page.waitForURL(`**/s/${space.id}/~/changes/**`, { timeout: 90_000 })
    const [run] = await eventually("the run", runs, (items) => items[0]?.status === "completed")
    // Into a change request of its own; the space's pages are as they were.
    expect(run!.target.changeRequest).toBeDefined()
    expect(await mainPages()).toEqual(before)
    const cr = await api<{ number: number }>(url, "GET", `/spaces/${space.id}/change-requests/${run!.target.changeRequest}`)
    const proposed = await api<{ pages: ReadonlyArray<{ title: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
    expect(proposed.pages.map((p) => p.title)).toContain("Escalations")
    // The one it opened, its pages in the sidebar.
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/s/${space.id}/~/changes/${cr.number}(/|$)`))
    await page.getByRole("navigation", { name: "Pages of the change request" }).getByText("Escalations").first().waitFor({ timeout: 30_000 })
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
