/**
 * Live editing, the only way the app edits a page's text: Ada and Bea, two members
 * in two browsers, open the same page of a change request; what each types reaches the other, each
 * sees the other's caret with their name, and once both say "Saved" the change request's markdown
 * read through /v1 holds both (the newcomer's reproductions are saved-means-stored.test.ts). Presence:
 * two people on two pages of one change request see each other's mark on the right page of the
 * tree, until one leaves. Offline: what is typed offline is kept in the browser (IndexedDB) through
 * a closed tab and sent when the page opens again.
 */
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureScreen, open, type Session, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { saved, typeAfter } from "./live.ts"
import { api } from "./servers.ts"

const browser = sharedBrowser()
const url = () => inject("readyServer")

interface PageRead { readonly id: string; readonly markdown?: string; readonly title: string }


const changeRequest = async (subject: string, pages: ReadonlyArray<{ readonly title: string; readonly slug: string; readonly markdown: string }>) => {
  const org = await api<{ id: string }>(url(), "POST", "/orgs", { title: `${subject} Org` })
  const space = await api<{ id: string }>(url(), "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url(), "POST", `/spaces/${space.id}/change-requests`, { subject })
  await api(url(), "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: pages.map((p) => ({ operation: "insert_page", title: p.title, slug: p.slug, document: { markdown: p.markdown } }))
  })
  const listed = await api<{ pages: ReadonlyArray<PageRead> }>(url(), "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const read = async (title: string) => {
    const page = listed.pages.find((p) => p.title === title)!
    const got = await api<PageRead>(url(), "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${page.id}?format=markdown`)
    return got.markdown ?? ""
  }
  return { org, space, cr, read }
}

/** Bea joins the organization (invite link, edit role) in `session`'s browser, signed in as her. */
const beaJoins = async (org: { readonly id: string }, session: Session) => {
  await api(url(), "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url(), "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const joined = await session.context.request.post(`${url()}/auth/invites/${org.id}.${link.id}/accept`, {
    data: { displayName: "Bea Writer", email: `bea.${org.id}@quire.test`, password: "a password long enough" },
    headers: { origin: url() }
  })
  expect(joined.status()).toBe(200)
}


/** The names of this origin's IndexedDB databases of kept live edits. */
const keptDatabases = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).flatMap((db) => db.name?.startsWith("quire-live:") === true ? [db.name] : []))

it("two members type in one page at once: each sees the other's text and caret, and the markdown holds both", async () => {
  const { org, space, cr, read } = await changeRequest("Together", [{ title: "Notes", slug: "notes", markdown: "First paragraph.\n\nSecond paragraph.\n" }])
  const a = await open(browser(), url())
  const b = await open(browser(), url())
  try {
    await beaJoins(org, b)
    await signInAsAdmin(a, url())
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
    // Nothing of the whole-page autosave: no draft kept in the browser, no conflict.
    expect(await a.page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes("draft")))).toEqual([])
    await captureScreen(a.page, "live-editing-carets")
    // Undo takes back only one's own typing: Bea's stays, for both. Typing is one undo step per
    // pause, and on a busy machine Playwright's keys pause: undo until her words are gone in her
    // editor (more undos than her steps take back nothing of Bea's).
    await editorA.getByText("First paragraph. Ada was here.").click()
    for (let i = 0; i < 20 && /First paragraph\. A/.test(await editorA.innerText()); i++) await a.page.keyboard.press("Control+z")
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
  const session = await open(browser(), url(), { expected: [/WebSocket/] })
  const { page } = session
  try {
    await signInAsAdmin(session, url())
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
    // The refused paste is not kept in the browser to be sent again at the next opening.
    await expect.poll(() => keptDatabases(page)).toEqual([])
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
  const session = await open(browser(), url(), { expected: [/WebSocket|ERR_INTERNET_DISCONNECTED/] })
  const { page } = session
  try {
    await signInAsAdmin(session, url())
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

it("a typist faster than the server accepts, typing on while the page reopens, loses no word", async () => {
  const { space, cr, read } = await changeRequest("Fast", [{ title: "Notes", slug: "notes", markdown: "Start.\n" }])
  const session = await open(browser(), url())
  const { page } = session
  try {
    await signInAsAdmin(session, url())
    await page.goto(`/s/${space.id}/~/changes/${cr.number}/notes`)
    await saved(page)
    // Well over the server's 60 edits a second: it closes the page for a moment, the editor opens it
    // again, and what is typed meanwhile goes in the sync's answer, never ahead of it.
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ")
    await typeAfter(page, "Start.", ` ${words}`)
    await page.keyboard.type(" and on.")
    await expect.poll(() => read("Notes"), { timeout: 30_000 }).toBe(`Start. ${words} and on.\n`)
    await saved(page)
    expect(await page.locator(".live-refusal").count()).toBe(0)
  } finally {
    await session.context.close()
  }
})

/** The row of the page titled `title` in the change request's tree. */
const treeRow = (page: Page, title: string) =>
  page.getByRole("navigation", { name: "Pages of the change request" }).locator(".cr-tree-row").filter({ has: page.getByRole("link", { name: title, exact: true }) })

it("two people on two pages of one change request each see the other's mark on the right page, until the other leaves", async () => {
  const { org, space, cr } = await changeRequest("Presence", [
    { title: "Alpha", slug: "alpha", markdown: "Alpha text.\n" },
    { title: "Beta", slug: "beta", markdown: "Beta text.\n" }
  ])
  const a = await open(browser(), url())
  const b = await open(browser(), url())
  try {
    await beaJoins(org, b)
    await signInAsAdmin(a, url())
    const base = `/s/${space.id}/~/changes/${cr.number}`
    await Promise.all([a.page.goto(`${base}/alpha`), b.page.goto(`${base}/beta`)])
    await Promise.all([saved(a.page), saved(b.page)])
    // Each sees the other on the other's page, and no mark of their own.
    await treeRow(a.page, "Beta").getByRole("img", { name: "Bea Writer is editing" }).waitFor()
    await treeRow(b.page, "Alpha").getByRole("img", { name: "Ada Admin is editing" }).waitFor()
    expect(await treeRow(a.page, "Alpha").getByRole("img", { name: /is editing/ }).count()).toBe(0)
    expect(await treeRow(b.page, "Beta").getByRole("img", { name: /is editing/ }).count()).toBe(0)
    expect(await treeRow(a.page, "Beta").locator(".presence-mark").innerText()).toBe("BW")
    // The header says who is there, and where.
    expect(await a.page.getByRole("list", { name: "Also here:" }).innerText()).toContain("BW")
    await a.page.getByRole("list", { name: "Also here:" }).getByText("Bea Writer, on Beta").waitFor({ state: "attached" })
    await captureScreen(a.page, "live-presence-tree")

    // The marks take no focus: Tab goes from Alpha's link through its row's buttons to Beta's link and on.
    await treeRow(a.page, "Alpha").getByRole("link", { name: "Alpha" }).focus()
    const stops: Array<string> = []
    for (let i = 0; i < 8; i++) {
      await a.page.keyboard.press("Tab")
      stops.push(await a.page.evaluate(() => {
        const el = document.activeElement
        return el === null ? "" : `${el.tagName}:${el.closest(".presence-marks, .presence-people") === null ? "" : "mark:"}${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim()}`
      }))
    }
    expect(stops.filter((stop) => stop.includes("mark:"))).toEqual([])
    expect(stops).toContain("A:Beta")
    expect(stops.indexOf("A:Beta")).toBeLessThan(stops.findIndex((stop) => stop.includes("Delete Beta")))

    // Bea moves to Alpha: her mark follows her.
    await treeRow(b.page, "Alpha").getByRole("link", { name: "Alpha" }).click()
    await treeRow(a.page, "Alpha").getByRole("img", { name: "Bea Writer is editing" }).waitFor()
    await expect.poll(() => treeRow(a.page, "Beta").getByRole("img", { name: /is editing/ }).count()).toBe(0)

    // Bea leaves: her mark goes, from the tree and the header.
    await b.page.close()
    await expect.poll(() => treeRow(a.page, "Alpha").getByRole("img", { name: /is editing/ }).count(), { timeout: 15_000 }).toBe(0)
    expect(await a.page.getByRole("list", { name: "Also here:" }).count()).toBe(0)
    expect([...a.problems, ...b.problems]).toEqual([])
  } finally {
    await Promise.all([a.context.close(), b.context.close()])
  }
})

/** How many updates the kept database `name` holds, once every write before this read is committed. */
const keptUpdates = (page: Page, name: string) =>
  page.evaluate((db) => new Promise<number>((resolve, reject) => {
    const request = indexedDB.open(db)
    request.addEventListener("error", () => reject(request.error))
    request.addEventListener("success", () => {
      const count = request.result.transaction("updates").objectStore("updates").count()
      count.addEventListener("success", () => {
        request.result.close()
        resolve(count.result)
      })
    })
  }), name)

it("keeps what is typed offline in the browser through a closed tab, and sends it when the page opens again", async () => {
  const { space, cr, read } = await changeRequest("Kept offline", [{ title: "Notes", slug: "notes", markdown: "Online start.\n" }])
  const session = await open(browser(), url(), { expected: [/WebSocket|ERR_INTERNET_DISCONNECTED/] })
  const { page, context } = session
  const path = `/s/${space.id}/~/changes/${cr.number}/notes`
  try {
    await signInAsAdmin(session, url())
    await page.goto(path)
    await saved(page)
    expect(await keptDatabases(page)).toEqual([])
    await context.setOffline(true)
    await typeAfter(page, "Online start.", " Typed offline.")
    await page.getByRole("status").filter({ hasText: /^Offline — \d+ changes? not yet on the server$/ }).waitFor()
    // In IndexedDB (one database for this person's page), not in a localStorage draft.
    await expect.poll(() => keptDatabases(page)).toHaveLength(1)
    const [kept] = await keptDatabases(page)
    await expect.poll(() => keptUpdates(page, kept!)).toBeGreaterThan(0)
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes("draft")))).toEqual([])
    // Closed with changes the server never acknowledged (Chromium cuts the open socket a moment
    // after going offline, so the first keys may have reached it).
    await page.close()

    await context.setOffline(false)
    const again = await context.newPage()
    // The server's answers wait until the status has been read: the kept edits are on their way.
    const { promise: answered, resolve: answer } = Promise.withResolvers<void>()
    await again.routeWebSocket(/\/collab$/, (socket) => {
      const server = socket.connectToServer()
      server.onMessage((message) => void answered.then(() => socket.send(message)))
    })
    await again.goto(path)
    await again.getByRole("status").filter({ hasText: "Sending the changes kept in this browser, not yet on the server…" }).waitFor()
    answer()
    await again.getByRole("textbox", { name: "Page content" }).getByText("Online start. Typed offline.").waitFor()
    await saved(again)
    await expect.poll(() => read("Notes"), { timeout: 15_000 }).toBe("Online start. Typed offline.\n")
    // Everything acknowledged: the copy in the browser goes.
    await expect.poll(() => keptDatabases(again), { timeout: 10_000 }).toEqual([])
    expect(await again.evaluate(() => Object.keys(localStorage).filter((key) => key.includes("draft")))).toEqual([])
  } finally {
    await context.close()
  }
})
