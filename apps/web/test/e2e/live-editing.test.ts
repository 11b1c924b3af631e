/**
 * Live editing, the only way the app edits a page's text: Ada and Bea, two members in two
 * browsers, open the same page of a change request; what each types reaches the other, each sees
 * the other's caret with their name, and once both say "Saved" the change request's markdown read
 * through /v1 holds both. The server's refusals in words, and typing offline. (Issue 36's newcomer
 * reproductions are saved-means-stored.test.ts.)
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureScreen, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const browser = sharedBrowser()
const url = inject("readyServer")

interface PageRead { readonly id: string; readonly markdown?: string; readonly title: string }

const saved = (page: Page) => page.getByRole("status").filter({ hasText: /^Saved$/ }).waitFor()

const changeRequest = async (subject: string, pages: ReadonlyArray<{ readonly title: string; readonly slug: string; readonly markdown: string }>) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: `${subject} Org` })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: pages.map((p) => ({ operation: "insert_page", title: p.title, slug: p.slug, document: { markdown: p.markdown } }))
  })
  const listed = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const read = async (title: string) => {
    const page = listed.pages.find((p) => p.title === title)!
    const got = await api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${page.id}?format=markdown`)
    return got.markdown ?? ""
  }
  return { org, space, cr, read }
}

/** Puts the caret at the end of the paragraph holding `text` and types `typed`. */
const typeAfter = async (page: Page, text: string, typed: string) => {
  await page.getByRole("textbox", { name: "Page content" }).getByText(text).click()
  await page.keyboard.press("End")
  await page.keyboard.type(typed)
}

it("two members type in one page at once: each sees the other's text and caret, and the markdown holds both", async () => {
  const { org, space, cr, read } = await changeRequest("Together", [{ title: "Notes", slug: "notes", markdown: "First paragraph.\n\nSecond paragraph.\n" }])
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const a = await open(browser(), url)
  const b = await open(browser(), url)
  try {
    const joined = await b.context.request.post(`${url}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Bea Writer", email: "bea.live@quire.test", password: "a password long enough" },
      headers: { origin: url }
    })
    expect(joined.status()).toBe(200)
    await signInAsAdmin(a, url)
    const path = `/s/${space.id}/~/changes/${cr.number}/notes`
    await Promise.all([a.page.goto(path), b.page.goto(path)])
    await Promise.all([saved(a.page), saved(b.page)])
    const editorA = a.page.getByRole("textbox", { name: "Page content" })
    const editorB = b.page.getByRole("textbox", { name: "Page content" })
    await editorB.getByText("First paragraph.").waitFor()

    await typeAfter(a.page, "First paragraph.", " Ada was here.")
    await editorB.getByText("First paragraph. Ada was here.").waitFor()
    await typeAfter(b.page, "Second paragraph.", " Bea too.")
    await editorA.getByText("Second paragraph. Bea too.").waitFor()

    // Each sees the other's caret, named.
    await a.page.locator(".collab-caret-label").filter({ hasText: "Bea Writer" }).waitFor()
    await b.page.locator(".collab-caret-label").filter({ hasText: "Ada Admin" }).waitFor()
    await Promise.all([saved(a.page), saved(b.page)])
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toBe("First paragraph. Ada was here.\n\nSecond paragraph. Bea too.\n")
    await captureScreen(a.page, "live-editing-carets")
    // Undo takes back only one's own typing: Bea's stays, for both.
    await editorA.getByText("First paragraph. Ada was here.").click()
    await a.page.keyboard.press("Control+z")
    await expect.poll(() => editorB.innerText()).not.toContain("Ada was here")
    expect(await editorB.innerText()).toContain("Second paragraph. Bea too.")
    expect(await editorA.innerText()).toContain("Second paragraph. Bea too.")
    await saved(a.page)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toBe("First paragraph.\n\nSecond paragraph. Bea too.\n")
    expect([...a.problems, ...b.problems]).toEqual([])
  } finally {
    await Promise.all([a.context.close(), b.context.close()])
  }
})

it("says in words that a paste was too large for the server, and goes on from the server's page after a reload", async () => {
  const { space, cr, read } = await changeRequest("Too large", [{ title: "Notes", slug: "notes", markdown: "Short page.\n" }])
  const session = await open(browser(), url, { expected: [/WebSocket/] })
  const { page } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/notes`)
    await saved(page)
    await page.getByRole("textbox", { name: "Page content" }).getByText("Short page.").click()
    await page.keyboard.press("End")
    // Over the server's 1 MiB for one update, under what the socket itself cuts.
    await page.evaluate((size) => {
      const data = new DataTransfer()
      data.setData("text/plain", "x".repeat(size))
      document.querySelector(".quire-editor")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }))
    }, 1_060_000)
    await page.getByRole("alert").filter({ hasText: "too large to send at once" }).waitFor()
    // Nothing typed now could be stored: the editor stops, and a reload starts from the server's page.
    await expect.poll(() => page.locator(".quire-editor").getAttribute("contenteditable")).toBe("false")
    await page.reload()
    await saved(page)
    await page.getByRole("textbox", { name: "Page content" }).getByText("Short page.").click()
    await page.keyboard.press("End")
    await page.keyboard.type(" Still here.")
    await saved(page)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toBe("Short page. Still here.\n")
  } finally {
    await session.context.close()
  }
})

it("counts what is not yet on the server while offline, and sends it on reconnecting", async () => {
  const { space, cr, read } = await changeRequest("Offline", [{ title: "Notes", slug: "notes", markdown: "Online start.\n" }])
  const session = await open(browser(), url, { expected: [/WebSocket|ERR_INTERNET_DISCONNECTED/] })
  const { page } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/notes`)
    await saved(page)
    await session.context.setOffline(true)
    await typeAfter(page, "Online start.", " Typed offline.")
    await page.getByRole("status").filter({ hasText: /^Offline — \d+ changes? not yet on the server$/ }).waitFor()
    await session.context.setOffline(false)
    await saved(page)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toBe("Online start. Typed offline.\n")
  } finally {
    await session.context.close()
  }
})
