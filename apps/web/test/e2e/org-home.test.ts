/**
 * The organization home: create a space and a collection, rename the space, give it an emoji,
 * move it into the collection from the keyboard ("Move to…") and reorder by drag; each change is
 * what the API then answers. Every urls.app form opens a screen, never a 404.
 */
import { expect, inject, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { captureScreen, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { petstore } from "./petstore.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Item { readonly id: string; readonly title: string; readonly emoji?: string; readonly parent?: string }

const spaces = (org: string) => api<{ items: ReadonlyArray<Item> }>(url, "GET", `/orgs/${org}/spaces`).then((list) => list.items)
const collections = (org: string) => api<{ items: ReadonlyArray<Item> }>(url, "GET", `/orgs/${org}/collections`).then((list) => list.items)

/**
 * A pointer drag of `source` to the point `at` of `target` (a fraction of its height), in steps as
 * a hand moves. The tree may redraw as the API's answer to the previous move arrives: then the
 * rows are found again.
 */
const drag = async (page: Page, source: Locator, target: Locator, at: number) => {
  for (let attempt = 1; ; attempt++) {
    try {
      await source.scrollIntoViewIfNeeded({ timeout: 2_000 })
      const from = (await source.boundingBox())!
      const to = (await target.boundingBox())!
      await page.mouse.move(from.x + 40, from.y + from.height / 2)
      await page.mouse.down()
      await page.mouse.move(from.x + 45, from.y + from.height / 2 + 5, { steps: 3 })
      await page.mouse.move(to.x + 40, to.y + to.height * at, { steps: 10 })
      await page.mouse.up()
      return
    } catch (error) {
      if (attempt === 3) throw error
    }
  }
}

const create = async (page: Page, kind: "space" | "collection", title: string) => {
  const home = page.url()
  await page.getByRole("button", { name: `New ${kind}` }).click()
  await page.getByLabel(`Title of the new ${kind}`).fill(title)
  await page.getByRole("button", { name: "Create", exact: true }).click()
  if (kind === "space") {
    // A new space opens on its first page; back to the organization for the next.
    await page.waitForURL(/\/s\/[^/]+\/~\/changes\/\d+\//)
    await page.goto(home)
  }
  await page.getByRole("main").getByRole("link", { name: title, exact: true }).waitFor()
}

it("creates, renames and moves spaces and collections", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Acme Docs" })
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Acme Docs" }).waitFor()
    await page.getByText("No spaces yet").waitFor()

    await create(page, "space", "Handbook")
    await create(page, "space", "API reference")
    await create(page, "collection", "Guides")
    expect((await spaces(org.id)).map((space) => space.title).toSorted()).toEqual(["API reference", "Handbook"])

    // Rename in place.
    await page.getByRole("button", { name: "Rename Handbook" }).click()
    await page.getByLabel("New title of the space").fill("Employee handbook")
    await page.keyboard.press("Enter")
    await page.getByRole("main").getByRole("link", { name: "Employee handbook", exact: true }).waitFor()
    await eventually("the new title", () => spaces(org.id), (items) => items.some((space) => space.title === "Employee handbook"))

    // An emoji.
    await page.getByRole("button", { name: "Change the emoji of Employee handbook" }).click()
    await page.getByRole("textbox", { name: "Emoji of Employee handbook" }).fill("📘")
    await page.keyboard.press("Enter")
    await eventually("the emoji", () => spaces(org.id), (items) => items.some((space) => space.emoji === "📘" || space.emoji === "1f4d8"))

    // Move into the collection from the keyboard.
    const guides = (await collections(org.id)).find((collection) => collection.title === "Guides")!
    await page.getByRole("button", { name: "Move Employee handbook to…" }).focus()
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Move “Employee handbook”" }).waitFor()
    await expectAccessible(page, "the Move to… dialog")
    await page.getByRole("dialog").getByRole("button", { name: "Guides" }).click()
    await eventually("the handbook in Guides", () => spaces(org.id), (items) => items.find((space) => space.title === "Employee handbook")?.parent === guides.id)

    // Drag "API reference" onto the collection: it goes inside.
    const reference = (await spaces(org.id)).find((space) => space.title === "API reference")!
    await drag(page, page.getByTestId(`row-${reference.id}`), page.getByTestId(`row-${guides.id}`), 0.5)
    await eventually("the reference dragged into Guides", () => spaces(org.id), (items) => items.find((space) => space.id === reference.id)?.parent === guides.id)
    await page.getByRole("status").filter({ hasText: "Moved API reference" }).waitFor()
    // Then drag it above the handbook, inside the same collection: the order changes.
    const handbook = (await spaces(org.id)).find((space) => space.title === "Employee handbook")!
    const target = page.getByTestId(`row-${handbook.id}`)
    await drag(page, page.getByTestId(`row-${reference.id}`), target, 0.1)
    await eventually("the reference dragged above the handbook", () => spaces(org.id), (items) => {
      const order = items.filter((space) => space.parent === guides.id).map((space) => space.id)
      return order.indexOf(reference.id) === 0 && order.indexOf(handbook.id) === 1
    })
    await page.reload()
    await page.getByRole("main").getByRole("link", { name: "Employee handbook", exact: true }).waitFor()
    await captureScreen(page, "org-home")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("opens a screen for every urls.app form the API answers", async () => {
  const org = await api<{ id: string; urls: { app: string } }>(url, "POST", "/orgs", { title: "Links Org" })
  const space = await api<{ id: string; revision: string; urls: { app: string } }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Linked" })
  const collection = await api<{ urls: { app: string } }>(url, "POST", `/orgs/${org.id}/collections`, { title: "Linked collection" })
  const site = await api<{ urls: { app: string } }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Linked site" })
  const cr = await api<{ urls: { app: string } }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Fix typos" })
  const spec = await api<{ urls: { app: string } }>(url, "PUT", `/orgs/${org.id}/openapi/petstore`, { source: { text: petstore } })
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    const screens: ReadonlyArray<[string, string]> = [
      [org.urls.app, "Links Org"],
      [space.urls.app, "Linked"],
      [collection.urls.app, "Linked collection"],
      [cr.urls.app, "Change request #1"],
      [`${url}/s/${space.id}/~/revisions/${space.revision}`, "Revision"],
      [site.urls.app, "Linked site"],
      [spec.urls.app, "petstore"]
    ]
    for (const [link, heading] of screens) {
      const response = await page.goto(link)
      expect(response?.status(), link).toBe(200)
      await page.getByRole("heading", { name: heading, exact: true }).first().waitFor()
    }
    // The organization's home lists the change request; its link opens the change request's screen.
    await page.goto(org.urls.app)
    await page.getByRole("link", { name: /#1 Fix typos/ }).click()
    await page.getByRole("heading", { name: "Change request #1" }).waitFor()
    await captureScreen(page, "placeholder")
    await page.goto(space.urls.app)
    await page.getByText("This space has no pages yet.").waitFor()
    await captureScreen(page, "space")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
