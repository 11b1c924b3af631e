/**
 * OpenAPI specs: an admin opens the organization's specs from its home, is told a missing slug
 * under its field, adds a spec by uploading a YAML file and sees it processed with its operations;
 * makes it public (its published address answers anyone); gives it a source the server cannot
 * fetch and sees the failure and its error while the last version stays; puts one of its
 * operations on a page of a published site (through the API) and sees the operation drawn on the
 * published page, and the spec's screen lists that page; deletes the spec after a confirmation. Each step is checked against the API.
 */
import { expect, inject, it } from "vitest"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureScreen, errorOf, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { petstore } from "./petstore.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Spec { readonly slug: string; readonly processingState: string; readonly lastVersion?: string; readonly lastProcessErrorCode?: string; readonly visibility: string; readonly urls: { readonly published?: string } }

it("adds a spec from a file, publishes it, shows its failure, draws its operation on a published page, and deletes it", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "API Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "API docs" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Developers" })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/site-spaces`, { spaceId: space.id })
  await api(url, "POST", `/orgs/${org.id}/sites/${site.id}/publish`)
  const spec = () => api<Spec>(url, "GET", `/orgs/${org.id}/openapi/petstore`)
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("link", { name: "OpenAPI specs" }).click()
    await page.getByRole("heading", { name: "OpenAPI specs", level: 1 }).waitFor()
    await page.getByText("No OpenAPI specs yet.").waitFor()

    // 1. A slug is asked for, under its field; then a YAML file, whose name gives the slug.
    await page.getByRole("button", { name: "Add spec" }).click()
    await page.getByRole("button", { name: "Add spec" }).click()
    expect(await errorOf(page.getByLabel("Slug", { exact: true }))).toContain("Give the spec a slug")
    await page.getByLabel("Upload a file").check()
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: "petstore.yaml", mimeType: "application/yaml", buffer: Buffer.from(petstore) })
    await expect.poll(() => page.getByLabel("Slug", { exact: true }).inputValue()).toBe("petstore")
    await page.getByRole("button", { name: "Add spec" }).click()

    // 2. Its screen: processed, with its operations and a version.
    await page.getByRole("heading", { name: "petstore", level: 1 }).waitFor()
    expect(page.url()).toBe(`${url}/openapi/${org.id}/petstore`)
    await page.getByRole("status").filter({ hasText: "Processed" }).waitFor()
    const processed = await spec()
    expect(processed.processingState).toBe("complete")
    expect(processed.lastVersion).toBeDefined()
    await page.getByText("List the pets").waitFor()
    await page.getByText("Add a pet").waitFor()
    await page.getByText("Latest").waitFor()
    await page.getByText("No page of the organization's sites shows it yet.").waitFor()
    await captureScreen(page, "spec")

    // 3. Public: its published address answers without a token.
    await page.getByLabel("Public").check()
    const published = page.getByRole("link", { name: /\/~openapi\// })
    await published.waitFor()
    const address = await published.getAttribute("href")
    expect(address).toBe((await spec()).urls.published)
    const document = await fetch(address!)
    expect(document.status).toBe(200)
    expect(await document.text()).toContain("List the pets")

    // 4. A source the server may not fetch (a loopback address): the failure and its error, the version kept.
    await page.getByRole("button", { name: "Update source…" }).click()
    await page.getByLabel("URL of the document").fill("http://127.0.0.1:9/openapi.yaml")
    await page.getByRole("button", { name: "Update", exact: true }).click()
    await page.getByText("New source saved: processing it.").waitFor()
    await page.getByRole("status").filter({ hasText: "Failed: The source could not be fetched" }).waitFor()
    const failed = await spec()
    expect(failed.lastProcessErrorCode).toBe("FETCH_ERROR")
    expect(failed.lastVersion).toBe(processed.lastVersion)
    await page.getByRole("heading", { name: "The error" }).waitFor()
    await page.getByText("Pages keep showing the last version that was processed.").waitFor()
    await captureScreen(page, "spec-failed")

    // 5. An operation block on a page of the published site: the operation is drawn there.
    const cr = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Reference" })
    await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: "insert_page", title: "Pets", slug: "pets", document: { markdown: `The pets API.\n\n{% openapi-operation spec="petstore" path="/pets" method="get" %}\n{% endopenapi-operation %}\n` } }]
    })
    await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
    const siteAddress = (await api<{ urls: { published?: string } }>(url, "GET", `/orgs/${org.id}/sites/${site.id}`)).urls.published!
    const reader = await open(browser(), url)
    try {
      await reader.page.goto(`${siteAddress.replace(/\/$/, "")}/pets`)
      const operation = reader.page.locator(".openapi-path", { hasText: "/pets" })
      await operation.waitFor()
      await reader.page.getByText("List the pets").waitFor()
      await reader.page.getByRole("cell", { name: "limit" }).waitFor()
      if (screenshotsWanted()) await reader.page.screenshot({ path: `${artifacts}spec-on-published-page.png`, fullPage: true })
      expect(reader.problems).toEqual([])
    } finally {
      await reader.context.close()
    }

    // The spec's screen lists the page, which opens in the app.
    await page.reload()
    const usedOn = page.getByRole("region", { name: "Used on" })
    await usedOn.getByText("on Developers").waitFor()
    await captureScreen(page, "spec-used")
    await usedOn.getByRole("link", { name: "Pets" }).click()
    await page.waitForURL(`${url}/s/${space.id}/pets`)
    await page.goBack()
    await page.getByRole("heading", { name: "petstore", level: 1 }).waitFor()

    // 6. Deleted after a confirmation: back to the list, and gone from the API.
    await page.getByRole("button", { name: "Delete spec…" }).click()
    await page.getByRole("dialog", { name: "Delete petstore?" }).getByRole("button", { name: "Delete spec" }).click()
    await page.getByText("No OpenAPI specs yet.").waitFor()
    expect(page.url()).toBe(`${url}/o/${org.id}/openapi`)
    await eventually("the spec's deletion", () => api<{ items: ReadonlyArray<unknown> }>(url, "GET", `/orgs/${org.id}/openapi`), (list) => list.items.length === 0)
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
