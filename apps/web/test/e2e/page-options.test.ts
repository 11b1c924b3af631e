/**
 * The page tree and page options of a change request: a group and link pages (to a URL, to a
 * page by its title) added from the tree, renamed and deleted; pages moved into the group and out of it from the keyboard (Alt+Shift+arrows) and out by
 * drag (dropped left of the group's last child); links to a moved page follow it; the page's
 * header edited in place: icon, cover (an address, an uploaded image, removed, an image chosen
 * again), layout, title and description, with Enter moving on to the next field and into the page,
 * errors said beside the field; everything checked through the API, then on the space after the merge.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureScreen, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, dragUntil, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Read {
  readonly id: string
  readonly title: string
  readonly type: string
  readonly href?: string
  readonly target?: { readonly kind: string; readonly url?: string }
  readonly icon?: string
  readonly emoji?: string
  readonly markdown?: string
  readonly cover?: { readonly ref: { readonly kind: string; readonly url?: string }; readonly height?: number; readonly yPos?: number }
  readonly layout?: Record<string, unknown>
  readonly pages?: ReadonlyArray<Read>
}

/** The tree as titles, nested: `["Overview", {"Guides": ["Install"]}]`. */
const shape = (pages: ReadonlyArray<Read>): unknown => pages.map((p) => p.pages && p.pages.length > 0 ? { [p.title]: shape(p.pages) } : p.title)

/** A 2×2 PNG. */
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==", "base64")

const pressOn = async (page: Page, name: string, keys: ReadonlyArray<string>) => {
  const nav = page.getByRole("navigation", { name: "Pages of the change request" })
  for (const key of keys) {
    // The row's first control (its link, or Rename for a group): the moved row keeps the focus.
    await nav.locator(".cr-tree-row").filter({ hasText: name }).first().locator("a, button").first().focus()
    await page.keyboard.press(`Alt+Shift+${key}`)
    await page.locator(".cr-tree[aria-busy=false]").waitFor()
  }
}

it("adds a group and a link, moves pages in and out of the group by keyboard and drag, and edits a page's header in place", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Options Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Reorganize" })
  const crPath = `/spaces/${space.id}/change-requests/${cr.number}/content`
  await api(url, "POST", crPath, {
    changes: [
      { operation: "insert_page", title: "Overview", slug: "overview", document: { markdown: "Start with [Install](install.md).\n" } },
      { operation: "insert_page", title: "Install", slug: "install", document: { markdown: "Run it.\n" } },
      { operation: "insert_page", title: "Upgrade", slug: "upgrade", document: { markdown: "Run it again.\n" } }
    ]
  })
  const pages = () => api<{ pages: ReadonlyArray<Read> }>(url, "GET", `${crPath}/pages`).then((r) => r.pages)
  const markdownOf = (id: string) => api<Read>(url, "GET", `${crPath}/page/${id}?format=markdown`).then((r) => r.markdown ?? "")
  const overview = (await pages()).find((p) => p.title === "Overview")!

  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/overview`)
    const nav = page.getByRole("navigation", { name: "Pages of the change request" })
    await nav.getByRole("link", { name: "Install" }).waitFor()

    // A group and a link page, from the tree.
    await page.getByRole("button", { name: "New page", exact: true }).click()
    await page.getByLabel("New page title").fill("Guides")
    await page.getByRole("button", { name: "Add group" }).click()
    await nav.getByText("Guides").waitFor()
    await page.getByRole("button", { name: "New page", exact: true }).click()
    await page.getByLabel("New page title").fill("Status")
    await page.getByRole("button", { name: "Add link…" }).click()
    await page.getByLabel("Link URL").fill("status.example.com")
    await page.getByRole("button", { name: "Add link", exact: true }).click()
    await page.getByRole("alert").filter({ hasText: "is not a URL: write it in full, such as https://status.example.com" }).waitFor()
    await page.getByLabel("Link URL").fill("https://status.example.com")
    await page.getByRole("button", { name: "Add link", exact: true }).click()
    await nav.getByText("Status").waitFor()
    // A link to a page, named by its title; renamed, then deleted like any page.
    await page.getByRole("button", { name: "New page", exact: true }).click()
    await page.getByLabel("New page title").fill("Start here")
    await page.getByRole("button", { name: "Add link…" }).click()
    await page.getByLabel("Link URL").fill("overview")
    await page.getByRole("button", { name: "Add link", exact: true }).click()
    await nav.getByText("Start here").waitFor()
    expect((await pages()).find((p) => p.title === "Start here")).toMatchObject({ type: "link", target: { kind: "page", page: overview.id } })
    await page.getByRole("button", { name: "Rename Start here" }).click()
    await page.getByLabel("New title of Start here").fill("Begin here")
    await page.keyboard.press("Enter")
    await nav.getByText("Begin here").waitFor()
    page.once("dialog", (dialog) => void dialog.accept())
    await page.getByRole("button", { name: "Delete Begin here" }).click()
    await eventually("deleted the link", pages, (p) => !p.some((x) => x.title === "Begin here"))
    // The group renamed, and back.
    await page.getByRole("button", { name: "Rename Guides" }).click()
    await page.getByLabel("New title of Guides").fill("How-to guides")
    await page.keyboard.press("Enter")
    await eventually("renamed the group", pages, (p) => p.some((x) => x.title === "How-to guides" && x.type === "group"))
    await page.getByRole("button", { name: "Rename How-to guides" }).click()
    await page.getByLabel("New title of How-to guides").fill("Guides")
    await page.keyboard.press("Enter")
    await eventually("renamed the group back", pages, (p) => p.some((x) => x.title === "Guides"))
    const added = await pages()
    expect(shape(added)).toEqual(["Overview", "Install", "Upgrade", "Guides", "Status"])
    expect(added.find((p) => p.title === "Guides")?.type).toBe("group")
    expect(added.find((p) => p.title === "Status")).toMatchObject({ type: "link", target: { kind: "url", url: "https://status.example.com" } })

    // From the keyboard: the group up twice, then Install and Upgrade into it.
    await pressOn(page, "Guides", ["ArrowUp", "ArrowUp"])
    await pressOn(page, "Install", ["ArrowRight"])
    await pressOn(page, "Upgrade", ["ArrowRight"])
    // The moved row keeps the focus, and the move is announced.
    await page.getByRole("status").filter({ hasText: "Moved “Upgrade” into “Guides”, position 2." }).waitFor({ state: "attached" })
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".cr-tree-row")?.textContent)).toContain("Upgrade")
    expect(shape(await eventually("moved in", pages, (p) => p[1]?.pages?.length === 2))).toEqual(["Overview", { Guides: ["Install", "Upgrade"] }, "Status"])
    // Links follow the page: Overview's link to Install now names its new path, in the same change request.
    expect(await markdownOf(overview.id)).toBe("Start with [Install](guides/install.md).\n")
    await expectAccessible(page, "the change request's tree with a group and a link")

    // Out of the group from the keyboard: Install goes right after it.
    await pressOn(page, "Install", ["ArrowLeft"])
    expect(shape(await eventually("outdented", pages, (p) => p.length === 4))).toEqual(["Overview", { Guides: ["Upgrade"] }, "Install", "Status"])
    expect(await markdownOf(overview.id)).toBe("Start with [Install](install.md).\n")

    // Out of the group by drag: Upgrade, its last page, dropped left of its own level.
    const dragOut = async () => {
      const row = (await nav.locator(".cr-tree-row").filter({ hasText: "Upgrade" }).boundingBox())!
      await page.mouse.move(row.x + 40, row.y + row.height / 2)
      await page.mouse.down()
      await page.mouse.move(row.x + 45, row.y + row.height / 2 - 6, { steps: 3 })
      await page.mouse.move(row.x + 4, row.y + row.height - 3, { steps: 10 })
      await page.mouse.up()
    }
    expect(shape(await dragUntil("dragged out", dragOut, pages, (p) => p.length === 5))).toEqual(["Overview", "Guides", "Upgrade", "Install", "Status"])

    // Overview's header, edited in place. Each edit is on the server when the status says "Saved".
    const saved = async () => {
      await page.getByRole("status").filter({ hasText: /^Saved$/ }).waitFor()
      return api<Read>(url, "GET", `${crPath}/page/${overview.id}`)
    }
    const title = page.getByRole("textbox", { name: "Page title", exact: true })
    await title.hover()
    // An icon: a wrong name is said beside the field, then an icon name is used.
    await page.getByRole("button", { name: "Add icon" }).click()
    const iconField = page.getByRole("group", { name: "Page icon" }).getByLabel("Emoji or icon name")
    await expect.poll(() => iconField.evaluate((el) => el === document.activeElement || el.closest("[role=group]")!.contains(document.activeElement))).toBe(true)
    await iconField.fill("Rocket Ship")
    await page.getByRole("button", { name: "Use this icon" }).click()
    await page.getByText("Write an emoji, or an icon name in lowercase letters").waitFor()
    expect(await iconField.getAttribute("aria-invalid")).toBe("true")
    await iconField.fill("rocket")
    await page.getByRole("button", { name: "Use this icon" }).click()
    await page.getByRole("button", { name: "Icon rocket: change it" }).waitFor()
    expect((await saved()).icon).toBe("rocket")
    // A cover by its address: one that is not a web address is said beside it.
    await title.hover()
    await page.getByRole("button", { name: "Add cover" }).click()
    const address = page.getByLabel("Or an image address")
    await address.fill("example.com/cover.png")
    await page.getByRole("button", { name: "Use this address" }).click()
    await page.getByRole("alert").filter({ hasText: "The cover must be a web address starting with https://" }).waitFor()
    await address.fill("https://example.com/cover.png")
    await page.getByRole("button", { name: "Use this address" }).click()
    await page.getByRole("figure", { name: "Cover" }).getByText("https://example.com/cover.png").waitFor()
    expect((await saved()).cover?.ref).toMatchObject({ kind: "url", url: "https://example.com/cover.png" })
    // The layout: each choice saved as it is made.
    await page.getByRole("button", { name: "Layout" }).click()
    const layout = page.getByRole("group", { name: "Page layout" })
    await layout.getByLabel("Height (px)").fill("30")
    await layout.getByLabel("Height (px)").press("Enter")
    await layout.getByText("The height is a whole number of pixels from 40 to 2000.").waitFor()
    await layout.getByLabel("Height (px)").fill("300")
    await layout.getByLabel("Height (px)").press("Enter")
    await layout.getByLabel("Wide").check()
    await layout.getByLabel("Table of contents").uncheck()
    await layout.getByLabel("Previous and next links").uncheck()
    await expect.poll(() => layout.getByLabel("Previous and next links").isChecked()).toBe(false)
    await captureScreen(page, "page-header-layout")
    await layout.getByRole("button", { name: "Close" }).click()
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Layout")
    const laidOut = await eventually("the layout saved", saved, (p) => p.layout?.["pagination"] === false)
    expect(laidOut.cover, JSON.stringify(laidOut.cover)).toMatchObject({ ref: { kind: "url", url: "https://example.com/cover.png" }, height: 300 })
    expect(laidOut.layout).toMatchObject({ width: "wide", title: true, tableOfContents: false, outline: true, pagination: false })
    // The body is as it was; the frontmatter says the options.
    const markdown = await markdownOf(overview.id)
    expect(markdown).toContain("Start with [Install](install.md).\n")
    expect(markdown).toMatch(/^---\nicon: rocket\ncover: https:\/\/example\.com\/cover\.png\ncoverHeight: 300\nlayout:\n {2}width: wide\n/)

    // Title, then Enter into the description ("Add a description"), then Enter into the page's first block.
    await title.fill("Overview of the handbook")
    await title.press("Enter")
    const description = page.getByRole("textbox", { name: "Page description" })
    await expect.poll(() => description.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await description.getAttribute("placeholder")).toBe("Add a description")
    await page.keyboard.type("Where everything starts")
    await page.keyboard.press("Enter")
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("quire-editor"))).toBe(true)
    await page.keyboard.type("First: ")
    const texts = await eventually("title and description saved", saved, (p) => p.title === "Overview of the handbook")
    expect(texts).toMatchObject({ title: "Overview of the handbook", description: "Where everything starts" })
    await expect.poll(() => markdownOf(overview.id), { timeout: 15_000 }).toContain("First: Start with [Install](install.md).\n")
    await page.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: "Overview of the handbook" }).waitFor()
    await captureScreen(page, "page-header")

    // An uploaded image replaces the address, shown as the banner; then it is removed.
    await page.getByRole("button", { name: "Change cover" }).click()
    await page.getByRole("group", { name: "Cover image" }).getByLabel("Upload an image").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png })
    await page.getByRole("figure", { name: "Cover" }).locator("img").waitFor()
    const uploaded = await saved()
    expect(uploaded.cover?.ref.kind).toBe("file")
    expect(uploaded.cover?.height).toBe(300)
    await expect.poll(() => page.getByRole("figure", { name: "Cover" }).locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(2)
    await captureScreen(page, "page-header-cover")
    await page.getByRole("figure", { name: "Cover" }).getByRole("button", { name: "Remove" }).click()
    await page.getByRole("figure", { name: "Cover" }).waitFor({ state: "detached" })
    expect((await saved()).cover).toBeUndefined()
    await page.getByRole("button", { name: "Change cover" }).waitFor({ state: "detached" })
    // Uploaded once, the image is offered again.
    await title.hover()
    await page.getByRole("button", { name: "Add cover" }).click()
    await page.getByRole("group", { name: "Images of this change request" }).getByRole("button").first().click()
    await page.getByRole("figure", { name: "Cover" }).locator("img").waitFor()
    expect((await saved()).cover?.ref.kind).toBe("file")

    // Merged, the space's page has them.
    await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
    const main = await api<{ pages: ReadonlyArray<Read> }>(url, "GET", `/spaces/${space.id}/content/pages`)
    expect(shape(main.pages)).toEqual(["Overview of the handbook", "Guides", "Upgrade", "Install", "Status"])
    expect(main.pages[0]).toMatchObject({ title: "Overview of the handbook", icon: "rocket", layout: { width: "wide", tableOfContents: false, pagination: false } })
    await page.goto(`/s/${space.id}/overview`)
    await page.getByRole("heading", { name: "Overview of the handbook" }).first().waitFor()
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/page-options-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})
