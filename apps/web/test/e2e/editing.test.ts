/**
 * Writing: "Edit" on a page opens a new change request on it; typing autosaves (Saving…, then
 * Saved); a reload shows the text; the page's markdown read through /v1 differs from the seeded
 * page by the edited line only (GitBook blocks around it byte for byte); a page added in the tree
 * is in the change request.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, expectAccessible, open, openEditor, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const seeded = [
  "Quire keeps your docs next to your code.",
  "",
  "{% hint style=\"info\" %}",
  "Install Node 24 first.",
  "{% endhint %}",
  "",
  "{% tabs %}",
  "{% tab title=\"npm\" %}",
  "Run `npm install quire`.",
  "{% endtab %}",
  "",
  "{% tab title=\"pnpm\" %}",
  "Run `pnpm add quire`.",
  "{% endtab %}",
  "{% endtabs %}",
  "",
  "{% code title=\"quire.config.js\" %}",
  "```js",
  "export default { root: \"docs\" }",
  "```",
  "{% endcode %}",
  "",
  "That is all it takes.",
  ""
].join("\n")

interface PageRead { readonly id: string; readonly markdown?: string; readonly path?: string; readonly title: string }

it("edits a page in a new change request, autosaved, only the edited line changed", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Writers Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Guide" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Getting started", slug: "getting-started", document: { markdown: seeded } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  const target = pages.pages.find((page) => page.title === "Getting started")!
  const before = await api<PageRead>(url, "GET", `/spaces/${space.id}/content/page/${target.id}?format=markdown`)
  expect(before.markdown).toContain("That is all it takes.")

  // No console error at all: the editor injects no <style> the CSP would refuse (editor.css has its rules).
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/${target.path ?? "getting-started"}`)
    await page.getByRole("heading", { name: "Getting started" }).first().waitFor()
    const edit = page.getByRole("button", { name: "Edit", exact: true })
    if (await edit.count() > 0) await edit.click()
    else {
      // The space screen does not place EditButton yet: open the change request as it does.
      const created = await page.evaluate(async (spaceId) => {
        const response = await fetch(`/v1/spaces/${spaceId}/change-requests`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ subject: "Edits" }) })
        return (await response.json() as { number: number }).number
      }, space.id)
      await page.goto(`/s/${space.id}/~/changes/${created}/getting-started`)
    }
    await page.waitForURL(/\/~\/changes\/\d+\/getting-started$/)
    const number = Number(/\/changes\/(\d+)\//.exec(page.url())![1])
    expect(number).toBeGreaterThan(1)
    await page.getByRole("heading", { name: `Change request #${number}` }).waitFor()

    // Type at the end of the last paragraph.
    const editor = page.getByRole("textbox", { name: "Page content" })
    await editor.getByText("That is all it takes.").click()
    await page.keyboard.press("End")
    await page.keyboard.type(" Then write your first page.")
    await page.getByRole("status").filter({ hasText: "Saving…" }).waitFor()
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()

    const after = await api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${number}/content/page/${target.id}?format=markdown`)
    expect(after.markdown).toBe(before.markdown!.replace("That is all it takes.", "That is all it takes. Then write your first page."))

    await page.reload()
    await page.getByRole("textbox", { name: "Page content" }).getByText("That is all it takes. Then write your first page.").waitFor()
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()

    // A second Edit reuses this change request.
    await page.goto(`/s/${space.id}/getting-started`)
    await page.getByRole("heading", { name: "Getting started" }).first().waitFor()
    if (await edit.count() > 0) {
      await edit.click()
      await page.waitForURL(new RegExp(`/~/changes/${number}/getting-started$`))
    } else await page.goto(`/s/${space.id}/~/changes/${number}/getting-started`)

    // Add a page in the tree.
    await page.getByLabel("New page title").fill("Troubleshooting")
    await page.getByRole("button", { name: "Add page" }).click()
    await page.getByRole("navigation", { name: "Pages of the change request" }).getByRole("link", { name: "Troubleshooting" }).waitFor()
    await eventually("the added page", () => api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${number}/content/pages`),
      (list) => list.pages.some((p) => p.title === "Troubleshooting"))

    await page.getByRole("textbox", { name: "Page content" }).waitFor()
    await expectAccessible(page, "the change request editor")
    await captureScreen(page, "editing")
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editing-failure.png" })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`)
  } finally {
    await context.close()
  }
})

it("keeps typing through a dropped connection, offers kept edits after a reload, moves a page from the keyboard", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Offline Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Notes" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Notes" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: "insert_page", title: "First", slug: "first", document: { markdown: "One line.\n" } },
      { operation: "insert_page", title: "Second", slug: "second", document: { markdown: "Two.\n" } }
    ]
  })
  const pagesOf = () => api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`).then((r) => r.pages)
  const first = (await pagesOf()).find((p) => p.title === "First")!
  const read = () => api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${first.id}?format=markdown`)
  const session = await open(browser(), url, {
    expected: [/ERR_INTERNET_DISCONNECTED|Failed to fetch/]
  })
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/first`)
    await editor.getByText("One line.").click()
    await page.keyboard.press("End")

    // The connection drops while typing: the state says so, and the text goes once it is back.
    await context.setOffline(true)
    await page.keyboard.type(" Written offline.")
    await page.getByRole("status").filter({ hasText: "Offline — will retry" }).waitFor()
    await context.setOffline(false)
    await page.evaluate(() => window.dispatchEvent(new Event("online")))
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()
    expect((await read()).markdown).toBe("One line. Written offline.\n")

    // Edits this browser kept but the server never got are offered after a reload.
    await page.evaluate(([crId, pageId]) => window.localStorage.setItem(`quire:draft:${crId}:${pageId}`, "One line. Kept in the browser.\n"), [cr.id, first.id])
    await page.reload()
    await page.getByRole("button", { name: "Restore them" }).click()
    await editor.getByText("One line. Kept in the browser.").waitFor()
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()
    expect((await read()).markdown).toBe("One line. Kept in the browser.\n")

    // Move "Second" before "First" with the keyboard.
    await page.getByRole("button", { name: "Move Second to…" }).click()
    await page.getByLabel("Move “Second” to").selectOption({ label: "Top level, before First" })
    await page.getByRole("button", { name: "Move", exact: true }).click()
    const moved = async () => (await pagesOf()).map((p) => p.title)
    for (const until = Date.now() + 10_000; (await moved())[0] !== "Second" && Date.now() < until;) await new Promise((r) => setTimeout(r, 100))
    expect(await moved()).toEqual(["Second", "First"])
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editing-failure.png" })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`)
  } finally {
    await context.close()
  }
})

it("says plainly when the page changed elsewhere, never overwriting it; renames, drags and deletes pages", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Conflict Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Shared" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Shared edits" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: "insert_page", title: "Alpha", slug: "alpha", document: { markdown: "The same line.\n" } },
      { operation: "insert_page", title: "Beta", slug: "beta", document: { markdown: "Beta.\n" } },
      { operation: "insert_page", title: "Gamma", slug: "gamma", document: { markdown: "Gamma.\n" } }
    ]
  })
  const pagesOf = () => api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`).then((r) => r.pages)
  const alpha = (await pagesOf()).find((p) => p.title === "Alpha")!
  const read = () => api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${alpha.id}?format=markdown`)
  const session = await open(browser(), url, { expected: [/status of 409/] })
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/alpha`)
    await editor.getByText("The same line.").click()
    // Someone else changes the same line meanwhile.
    await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: "update_page", page: alpha.id, document: { markdown: "Their line.\n\nMiddle.\n\nLast.\n" } }]
    })
    await page.keyboard.press("End")
    await page.keyboard.type(" Mine.")
    await page.getByRole("status").filter({ hasText: "This page changed elsewhere" }).waitFor()
    expect((await read()).markdown).toBe("Their line.\n\nMiddle.\n\nLast.\n")
    await page.getByRole("button", { name: "Reload the page" }).click()
    await editor.getByText("Their line.").waitFor()

    // A change elsewhere to another line is merged by the server: the screen says so and stops.
    await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
      changes: [{ operation: "update_page", page: alpha.id, document: { markdown: "Their line.\n\nMiddle.\n\nLast, changed.\n" } }]
    })
    await editor.getByText("Their line.").click()
    await page.keyboard.press("Home")
    await page.keyboard.type("Also ")
    await page.getByRole("status").filter({ hasText: "the server merged those changes with yours" }).waitFor()
    expect((await read()).markdown).toBe("Also Their line.\n\nMiddle.\n\nLast, changed.\n")
    await page.getByRole("button", { name: "Reload the page" }).click()
    await editor.getByText("Last, changed.").waitFor()

    // Rename Beta in the tree.
    await page.getByRole("button", { name: "Rename Beta" }).click()
    await page.getByLabel("New title of Beta").fill("Beta two")
    await page.keyboard.press("Enter")
    await page.getByRole("link", { name: "Beta two" }).waitFor()
    // Drag Gamma above Alpha.
    const nav = page.getByRole("navigation", { name: "Pages of the change request" })
    const from = (await nav.getByRole("link", { name: "Gamma" }).boundingBox())!
    const to = (await nav.getByRole("link", { name: "Alpha" }).boundingBox())!
    await page.mouse.move(from.x + 20, from.y + from.height / 2)
    await page.mouse.down()
    await page.mouse.move(from.x + 25, from.y + from.height / 2 - 5, { steps: 3 })
    await page.mouse.move(to.x + 20, to.y + 2, { steps: 10 })
    await page.mouse.up()
    const titles = async () => (await pagesOf()).map((p) => p.title)
    for (const until = Date.now() + 10_000; (await titles())[0] !== "Gamma" && Date.now() < until;) await new Promise((r) => setTimeout(r, 100))
    expect(await titles()).toEqual(["Gamma", "Alpha", "Beta two"])
    // Delete Gamma (after confirming).
    page.once("dialog", (dialog) => void dialog.accept())
    await page.getByRole("button", { name: "Delete Gamma" }).click()
    for (const until = Date.now() + 10_000; (await titles()).includes("Gamma") && Date.now() < until;) await new Promise((r) => setTimeout(r, 100))
    expect(await titles()).toEqual(["Alpha", "Beta two"])
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editing-failure.png" })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`)
  } finally {
    await context.close()
  }
})
