/**
 * Issue 61 in the browser, on the shared server: an admin uploads a font file in a site's
 * Customization tab and picks it for the site's text (the published page then has its
 * `@font-face`); checks the DNS of the site's hostname again in Settings (the status comes from
 * the server's resolver); and adds a glossary entry beside the translations. Read back through /v1.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, openSiteTab, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const browser = sharedBrowser()

interface Font { readonly id: string; readonly fontFamily: string; readonly fontFaces: ReadonlyArray<{ readonly weight: number }> }

it("fonts are uploaded and picked, a hostname's DNS is checked again, a glossary entry is added", async () => {
  const url = inject("readyServer")
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Fonts Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Handbook site", spaces: [space.id] })
  const hostname = `docs-${Date.now()}.quire-e2e.invalid`
  await api(url, "PATCH", `/orgs/${org.id}/sites/${site.id}`, { hostname })
  // The file that is not a font is refused with a 400, which the console reports.
  const session = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/] })
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)

    // 1. A file that is not a font is refused beside the file field; a WOFF2 file makes a font.
    await openSiteTab(page, "Customization")
    const fonts = page.getByRole("region", { name: "Fonts" })
    await fonts.getByText("No custom fonts yet.").waitFor()
    const upload = fonts.getByRole("form", { name: "Upload a font" })
    await upload.getByLabel("Font family").fill("Acme Sans")
    await upload.getByLabel("Font file").setInputFiles({ name: "notes.woff2", mimeType: "font/woff2", buffer: Buffer.from("not a font at all") })
    await upload.getByRole("button", { name: "Upload font" }).click()
    await upload.getByRole("alert").getByText(/not a WOFF2 or WOFF font file/).waitFor()
    await upload.getByLabel("Font file").setInputFiles({ name: "acme.woff2", mimeType: "font/woff2", buffer: Buffer.concat([Buffer.from("wOF2"), Buffer.alloc(64, 1)]) })
    await upload.getByRole("button", { name: "Upload font" }).click()
    await expect.poll(async () => (await api<{ items: ReadonlyArray<Font> }>(url, "GET", `/orgs/${org.id}/fonts`)).items.map((f) => f.fontFamily), { timeout: 20_000 }).toEqual(["Acme Sans"])
    await fonts.getByRole("button", { name: "Use for text" }).click()
    await expect.poll(async () => {
      const customization = await api<{ styling?: { font?: unknown } }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/customization`)
      return typeof customization.styling?.font === "object" ? (customization.styling.font as { fontFamily: string }).fontFamily : customization.styling?.font
    }, { timeout: 20_000 }).toBe("Acme Sans")
    await fonts.getByText("In use").waitFor()
    await captureScreen(page, "site-custom-fonts")
    await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`).catch(() => undefined)

    // 2. The hostname's DNS: not checked, then checked again (the name does not resolve: no record).
    await openSiteTab(page, "Settings")
    const dns = page.getByRole("region", { name: "DNS status" })
    await dns.getByText(/Not checked yet/).waitFor()
    await dns.getByRole("button", { name: "Check again" }).click()
    await expect.poll(async () => (await api<{ status?: string }>(url, "GET", `/custom-hostnames/${hostname}`)).status, { timeout: 30_000 }).toBeDefined()
    await dns.getByText(/No CNAME or A record found|could not be asked/).waitFor()
    await captureScreen(page, "site-hostname-dns")

    // 3. The glossary beside the translations.
    await page.goto(`/o/${org.id}/translations`)
    const glossary = page.getByRole("region", { name: "Glossary" })
    await glossary.getByText("No glossary entries yet.").waitFor()
    const form = glossary.getByRole("form", { name: "New glossary entry" })
    await form.getByLabel("Term").fill("Workspace")
    await form.getByLabel("Translation", { exact: true }).fill("Espace de travail")
    await form.getByRole("button", { name: "Add to glossary" }).click()
    await expect.poll(async () => (await api<{ items: ReadonlyArray<{ translations: Record<string, string> }> }>(url, "GET", `/orgs/${org.id}/translations-glossary`)).items.map((e) => e.translations), { timeout: 20_000 })
      .toEqual([{ en: "Workspace", fr: "Espace de travail" }])
    await glossary.getByRole("list").getByText("English (en): Workspace · French (fr): Espace de travail", { exact: true }).waitFor()
    await captureScreen(page, "translations-glossary")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
