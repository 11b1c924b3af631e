/**
 * Writing a page with the editor's ways in: the slash menu (a heading, a hint, a code block, a table, tabs, an
 * expandable), a task list typed as markdown, a link picked from another page's headings, a pasted image, undo
 * and redo from the toolbar; a File block's upload (progress, cancel, a network failure and retry) and images
 * pasted from another site, copied into the change request; tabs, a code block and an OpenAPI operation edited
 * as they show (a tab bar, a language picker, a spec and operation picker). The stored markdown is read through /v1.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { expect, inject, it } from "vitest"
import type { Page } from "playwright-core"
import { captureScreen, expectAccessible, open, openEditor, sharedBrowser } from "./browser.ts"
import { petstore } from "./petstore.ts"
import { api, eventually, writeDebounceMs } from "./servers.ts"
import { insertItems } from "../../src/editor/commands/items.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface PageRead { readonly id: string; readonly markdown?: string; readonly title: string }

/** A 1×1 PNG. */
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

/** Types `/query` on the current (empty) line and picks the first item the menu shows. */
const slash = async (page: Page, query: string, expected: string) => {
  await page.keyboard.type(`/${query}`)
  const menu = page.getByRole("listbox", { name: "Insert a block" })
  await menu.getByRole("option", { name: new RegExp(`^${expected}`) }).first().waitFor()
  await expect.poll(() => menu.getByRole("option").first().textContent()).toMatch(new RegExp(`^${expected}`))
  await page.keyboard.press("Enter")
  await menu.waitFor({ state: "detached" })
}

/**
 * After a click or a key the browser handles itself, the turn in which ProseMirror reads the moved
 * selection (its selectionchange task) and a frame: a person's next key never comes sooner.
 */
const settled = (page: Page) => page.evaluate(() => new Promise((done) => setTimeout(() => requestAnimationFrame(done), 0)))

/** To the empty line the editor leaves after a block inserted last. */
const toEnd = (page: Page) => page.keyboard.press("ControlOrMeta+End")

it("writes a page with the slash menu, shortcuts, a picked link and an uploaded image", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Commands Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Write notes" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: "insert_page", title: "Welcome", slug: "welcome", document: { markdown: "Hello.\n" } },
      { operation: "insert_page", title: "Guide", slug: "guide", document: { markdown: "Intro.\n\n## Install\n\nRun it.\n\n## Configure the server\n\nSet it.\n" } },
      { operation: "insert_page", title: "Notes", slug: "notes", document: { markdown: "Start here.\n" } }
    ]
  })
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const notes = pages.pages.find((p) => p.title === "Notes")!
  const read = () => api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${notes.id}?format=markdown`)

  const session = await open(browser(), url, { expected: [] })
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/notes`)
    await editor.getByText("Start here.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")

    // The menu opens on `/`, lists every block, filters as one types, and closes on Escape.
    await page.keyboard.type("/")
    const menu = page.getByRole("listbox", { name: "Insert a block" })
    await menu.waitFor()
    // The blocks are listed with the change request's reusable contents, read as the menu opens.
    await expect.poll(() => menu.getByRole("option").count()).toBeGreaterThan(20)
    await expect.poll(() => editor.getAttribute("aria-activedescendant")).toBe(await menu.getByRole("option").first().getAttribute("id"))
    // "Write with AI" first (the change request's agent), then the blocks.
    expect(await menu.getByRole("option", { selected: true }).textContent()).toMatch(/^Write with AI/)
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    expect(await menu.getByRole("option", { selected: true }).textContent()).toMatch(/^Heading 1/)
    await captureScreen(page, "editor-commands-menu")
    await page.keyboard.type("hea")
    await expect.poll(() => menu.getByRole("option").allTextContents()).toEqual([expect.stringMatching(/^Heading 1/), expect.stringMatching(/^Heading 2/), expect.stringMatching(/^Heading 3/)])
    await page.keyboard.press("Escape")
    await menu.waitFor({ state: "detached" })
    for (let i = 0; i < 4; i++) await page.keyboard.press("Backspace")

    // Blocks from the menu: the starter text is selected, so typing replaces it.
    await slash(page, "h2", "Heading 2")
    await page.keyboard.type("Setup")
    await page.keyboard.press("Enter")
    await slash(page, "warn", "Hint: Warning")
    await page.keyboard.type("Back up first.")
    await toEnd(page)
    await slash(page, "code", "Code block")
    await page.keyboard.type("console.log(1)")
    // The language is picked above the code.
    await editor.getByRole("combobox", { name: "Language" }).first().selectOption("typescript")
    await editor.getByText("console.log(1)").click()
    await toEnd(page)
    // "Code block with title": the title field is empty and has the focus; Enter goes to the code.
    await slash(page, "filename", "Code block with title")
    const title = editor.getByRole("textbox", { name: "Title" }).last()
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await title.inputValue()).toBe("")
    await page.keyboard.type("app.js")
    await page.keyboard.press("Enter")
    await page.keyboard.type("run()")
    await expectAccessible(page, "code blocks with their language picker and title field")
    await toEnd(page)
    await slash(page, "table", "Table")
    await page.keyboard.type("Name")
    await toEnd(page)
    await slash(page, "tabs", "Tabs")
    await page.keyboard.type("npm i")
    await toEnd(page)
    await slash(page, "expand", "Expandable")
    await page.keyboard.type("More words.")
    await toEnd(page)

    // Markdown shortcuts: a task list, bold.
    await page.keyboard.type("[ ] Ship it")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    await page.keyboard.type("Read **this** and see ")

    // The link picker: a heading of another page, found by its title.
    await page.keyboard.press("ControlOrMeta+k")
    const search = page.getByRole("combobox", { name: "Search pages or type a URL" })
    await search.waitFor()
    await page.getByRole("listbox", { name: "Link targets" }).getByRole("option", { name: /Configure the server/ }).waitFor()
    await search.fill("configure")
    await expect.poll(() => page.getByRole("listbox", { name: "Link targets" }).getByRole("option").first().textContent()).toMatch(/^Configure the server/)
    await expectAccessible(page, "the link picker")
    await page.keyboard.press("Enter")
    await search.waitFor({ state: "detached" })
    await editor.getByRole("link", { name: "Configure the server" }).waitFor()
    await page.keyboard.type(".")

    // A pasted image is uploaded and shown as a figure whose caption is edited in place.
    await editor.evaluate((element, bytes) => {
      const data = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([data], "dot.png", { type: "image/png" }))
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }))
    }, png)
    const caption = editor.getByRole("textbox", { name: "Caption" })
    await caption.waitFor()
    await expect.poll(() => editor.locator(".quire-figure img").evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(1)
    await caption.fill("A dot")
    await caption.press("Tab")

    // Undo and redo from the toolbar.
    await editor.getByText("Read this and see").click()
    await toEnd(page)
    await slash(page, "divider", "Divider")
    await expect.poll(() => editor.locator("hr").count()).toBe(1)
    await page.waitForTimeout(600)
    await page.getByRole("button", { name: "Undo" }).click()
    await expect.poll(() => editor.locator("hr").count()).toBe(0)
    // Typing and the command are one step when they come within the history's half second of each
    // other; on a busy machine they may be two, and a second Undo takes the typed command back.
    let undos = 1
    if (await editor.getByText("/divider").count() > 0) {
      await page.getByRole("button", { name: "Undo" }).click()
      undos++
    }
    await expect.poll(() => editor.getByText("/divider").count()).toBe(0)
    for (let i = 0; i < undos; i++) await page.getByRole("button", { name: "Redo" }).click()
    await expect.poll(() => editor.locator("hr").count()).toBe(1)

    // An image dropped on the first line goes in after it; the toolbar's Insert opens the menu there, used by mouse.
    await editor.getByText("Start here.").evaluate((element, bytes) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], "drop.png", { type: "image/png" }))
      const box = element.getBoundingClientRect()
      element.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, clientX: box.left + 4, clientY: box.top + 4, bubbles: true, cancelable: true }))
    }, png)
    await expect.poll(() => editor.locator(".quire-figure").count()).toBe(2)
    await page.getByRole("button", { name: "Insert a block" }).click()
    await menu.getByRole("option", { name: /^Quote/ }).click()
    await menu.waitFor({ state: "detached" })
    await page.keyboard.type("Wise words.")

    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()
    await expect.poll(async () => (await read()).markdown, { timeout: 10_000 }).toContain("> Wise words.")
    const markdown = (await read()).markdown!
    expect(markdown).toMatch(/^Start here\.\n\n<figure><img src="\/files\/[^"]+" alt=""><figcaption><\/figcaption><\/figure>\n\n> Wise words\.\n\n## Setup\n/)
    expect(markdown).toContain("{% hint style=\"warning\" %}\nBack up first.\n{% endhint %}")
    expect(markdown).toContain("```typescript\nconsole.log(1)\n```")
    expect(markdown).toContain("{% code title=\"app.js\" %}\n```\nrun()\n```\n{% endcode %}")
    expect(markdown).toContain("| Name | Column 2 |\n| --- | --- |\n| Cell | Cell |")
    expect(markdown).toContain("{% tabs %}\n{% tab title=\"First tab\" %}\nnpm i\n{% endtab %}")
    // GitBook's form of <details>: blank lines around the summary and before </details>.
    expect(markdown).toContain("<details>\n\n<summary>Summary</summary>\n\nMore words.\n\n</details>")
    // The empty line the editor leaves after the divider inserted last adds nothing: one newline ends the page.
    expect(markdown).toMatch(/\n---\n$/)
    expect(markdown).toContain("- [ ] Ship it")
    expect(markdown).toContain("Read **this** and see [Configure the server](guide.md#configure-the-server).")
    expect(markdown).toMatch(/<figure><img src="\/files\/[^"]+" alt=""><figcaption><p>A dot<\/p><\/figcaption><\/figure>/)
    const files = await api<{ items: ReadonlyArray<{ id: string; name: string }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/files`)
    expect(files.items.map((f) => f.name).toSorted()).toEqual(["dot.png", "drop.png"])
    for (const file of files.items) expect(markdown).toContain(`/files/${file.id}`)
    // The server reads the picked link and the image as working links to the page and the file.
    const links = await api<{ items: ReadonlyArray<{ status: string; targetReference: { kind: string } }>; stats: { total: number; broken: { total: number } } }>(
      url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${notes.id}/links`)
    expect(links.items.map((l) => `${l.targetReference.kind} ${l.status}`).toSorted()).toEqual(["file ok", "file ok", "page ok"])
    await captureScreen(page, "editor-commands-page")
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editor-commands-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})

it("uploads a 5 MB file into a File block with its progress, and copies images pasted from another site", async () => {
  // Another site: one image it serves, one it does not have.
  const site = createServer((request, response) => {
    if (request.url === "/pic.png") response.writeHead(200, { "content-type": "image/png" }).end(Buffer.from(png, "base64"))
    else response.writeHead(404).end()
  })
  await new Promise<void>((done) => site.listen(0, done))
  const elsewhere = `http://localhost:${(site.address() as AddressInfo).port}`
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Files Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Downloads" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Attach" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Files", slug: "files", document: { markdown: "Attachments.\n" } }]
  })
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const filesPage = pages.pages.find((p) => p.title === "Files")!
  const read = () => api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${filesPage.id}?format=markdown`)
  const listed = () => api<{ items: ReadonlyArray<{ id: string; name: string; size: number }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/files`)
  // The app's policy shows no image of a plain-http site (the pasted ones until copied); the upload cut off on
  // purpose and the image that cannot be copied (a 400) are logged.
  const session = await open(browser(), url, { expected: [/Loading the image 'http:\/\/localhost/, /ERR_CONNECTION_RESET|ERR_FAILED/, /status of 400 \(Bad Request\)/] })
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/files`)
    await editor.getByText("Attachments.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    await slash(page, "file", "File")
    // Empty: "Upload a file", focused, in place of a src field.
    const block = editor.locator(".quire-file")
    const choose = block.getByRole("button", { name: "Upload a file" })
    await expect.poll(() => choose.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await block.getByRole("textbox").count()).toBe(0)
    await captureScreen(page, "editor-file-empty")

    const size = 5 * 1024 * 1024
    const picker = block.locator("input[type=file]")
    // The file chosen in the picker, made in the page (5 MB sent through the DevTools protocol is slow on a loaded machine).
    const chooseFile = () => picker.evaluate((input: HTMLInputElement, bytes) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([new Uint8Array(bytes).fill(7)], "manual.pdf", { type: "application/pdf" }))
      input.files = transfer.files
      input.dispatchEvent(new Event("change", { bubbles: true }))
    }, size)
    const uploads = "**/change-requests/*/files?name=*"
    // 1. Held on its way: the progress shows, Cancel gives the empty block back.
    const held: Array<() => void> = []
    await page.route(uploads, async (route) => {
      await new Promise<void>((done) => held.push(done))
      await route.continue().catch(() => undefined)
    })
    await chooseFile()
    const progress = block.getByRole("status").filter({ hasText: "Uploading “manual.pdf”" })
    await progress.waitFor()
    expect(await progress.locator("progress").getAttribute("max")).toBe(String(size))
    await captureScreen(page, "editor-file-uploading")
    await progress.getByRole("button", { name: "Cancel" }).click()
    await choose.waitFor()
    held.forEach((release) => release())
    await page.unroute(uploads)
    // 2. The connection fails: said next to the block, with Retry.
    await page.route(uploads, (route) => route.abort("connectionreset"))
    await chooseFile()
    const failure = block.getByRole("alert")
    await expect.poll(() => failure.textContent()).toContain("The connection failed while uploading “manual.pdf”. Check your network and retry.")
    await captureScreen(page, "editor-file-error")
    await page.unroute(uploads)
    // 3. Retried on a slow connection: the bar moves, then the file shows as GitBook shows it.
    const cdp = await context.newCDPSession(page)
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 })
    await failure.getByRole("button", { name: "Retry" }).click()
    await expect.poll(() => progress.locator("progress").evaluate((bar) => (bar as HTMLProgressElement).value), { timeout: 15_000 }).toBeGreaterThan(0)
    await block.getByRole("link", { name: "Download manual.pdf" }).waitFor({ timeout: 30_000 })
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    expect(await block.locator(".quire-file-card").innerText()).toMatch(/PDF\s+manual\.pdf\s+5\.0 MB\s+Download\s+Replace/)
    await captureScreen(page, "editor-file-stored")
    const stored = (await listed()).items.find((f) => f.name === "manual.pdf")!
    expect(stored.size).toBe(size)
    await expect.poll(async () => (await read()).markdown, { timeout: 15_000 }).toContain(`{% file src="/files/${stored.id}" %}`)

    // Images pasted from another site, on a new line after the first: copied into the change request; one that
    // cannot be fetched stays linked, and says so.
    await editor.getByText("Attachments.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    await editor.evaluate((element, html) => {
      const transfer = new DataTransfer()
      transfer.setData("text/html", html)
      transfer.setData("text/plain", "From elsewhere")
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }))
    }, `<p>From elsewhere</p><img src="${elsewhere}/pic.png"><img src="${elsewhere}/gone.png">`)
    await page.getByRole("alert").filter({ hasText: `Could not copy the pasted image from localhost:${(site.address() as AddressInfo).port}: it stays linked to that site.` }).waitFor()
    await expect.poll(async () => (await listed()).items.some((f) => f.name === "pic.png"), { timeout: 15_000 }).toBe(true)
    const copied = (await listed()).items.find((f) => f.name === "pic.png")!.id
    await expect.poll(async () => (await read()).markdown, { timeout: 15_000 }).toContain(`<img src="/files/${copied}"`)
    const markdown = (await read()).markdown!
    expect(markdown).toContain("From elsewhere\n")
    expect(markdown).toContain(`<figure><img src="${elsewhere}/gone.png"`)
    expect(markdown).not.toContain("![](")
    expect(markdown).toMatch(new RegExp(`^Attachments\\.\\n\\nFrom elsewhere\\n\\n<figure><img src="/files/${copied}"[^\\n]*\\n\\n<figure><img src="${elsewhere}/gone\\.png"[^\\n]*\\n\\n\\{% file src="/files/${stored.id}" %\\}`))
    expect(markdown).not.toContain(`${elsewhere}/pic.png`)
    await captureScreen(page, "editor-file-pasted")
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editor-file-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
    site.close()
  }
})

it("turns markdown typed in the editor into blocks and marks", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Shortcuts Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Scratch" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Shortcuts" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Scratch", slug: "scratch", document: { markdown: "First.\n" } }]
  })
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const read = () => api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${pages.pages[0]!.id}?format=markdown`)
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/scratch`)
    // The page is drawn a moment before it takes keys (editable once the shared document is in):
    // on a busy machine, keys pressed in between went nowhere and the rest landed at the page's start.
    await expect.poll(() => editor.isEditable()).toBe(true)
    await editor.getByText("First.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    const type = (text: string) => page.keyboard.type(text)
    await type("# Big title")
    await page.keyboard.press("Enter")
    await type("> Quoted")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    await type("* Star item")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    await type("1. One")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    await type("[x] Done")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Enter")
    await type("```py")
    await page.keyboard.press("Enter")
    await type("x = 1")
    await toEnd(page)
    await type("$$")
    await page.keyboard.press("Enter")
    await type("a^2")
    await toEnd(page)
    await type("---")
    await type("Mix **bold** and *it* and `tick` and ~~gone~~ and $$e^x$$ end ")
    await page.keyboard.press("ControlOrMeta+b")
    await type("strong")
    await page.keyboard.press("ControlOrMeta+b")
    await type(".")
    await expect.poll(async () => (await read()).markdown, { timeout: 10_000 }).toContain("strong**.")
    expect((await read()).markdown).toBe([
      "First.", "", "# Big title", "", "> Quoted", "", "- Star item", "", "1. One", "", "- [x] Done", "",
      "```py", "x = 1", "```", "", "$$", "a^2", "$$", "", "---", "",
      "Mix **bold** and *it* and `tick` and ~~gone~~ and $$e^x$$ end **strong**.", ""
    ].join("\n"))

    // Pasted from another page or Google Docs: <b>, <i> and <del> keep their formatting; Docs'
    // whole-paste wrapper (<b style="font-weight:normal">) is no bold.
    await page.keyboard.press("Enter")
    await editor.evaluate((element) => {
      const transfer = new DataTransfer()
      transfer.setData("text/html", "<b style=\"font-weight:normal\" id=\"docs-internal-guid-1\"><span>Pasted </span><b>bold</b><span>, </span><i>italic</i><span> and </span><del>gone</del><span> words.</span></b>")
      transfer.setData("text/plain", "Pasted bold, italic and gone words.")
      element.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }))
    })
    await expect.poll(async () => (await read()).markdown, { timeout: 10_000 }).toContain("Pasted **bold**, *italic* and ~~gone~~ words.\n")
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editor-shortcuts-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})

it("inserts every block of the insert menu; the page saves as GitBook's markdown, renders with no raw tag and reopens unchanged", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Blocks Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Every block" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Every block" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Blocks", slug: "blocks", document: { markdown: "Every block below.\n" } }]
  })
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const blocks = pages.pages.find((p) => p.title === "Blocks")!
  const pagePath = `/spaces/${space.id}/change-requests/${cr.number}/content/page/${blocks.id}`
  const session = await open(browser(), url, { expected: [] })
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/blocks`)
    const menu = page.getByRole("listbox", { name: "Insert a block" })
    // Each item on a new line under the first, from the menu by keyboard: its id typed after `/`, Enter.
    const items = insertItems.filter((item) => item.template !== undefined && item.id !== "paragraph")
    for (const item of items) {
      await editor.getByText(/^Every block below\./).click()
      await settled(page)
      await page.keyboard.press("End")
      await settled(page)
      await page.keyboard.press("Enter")
      await page.keyboard.type(`/${item.id}`)
      await expect.poll(() => menu.getByRole("option", { selected: true }).textContent()).toBe(`${item.title}${item.description}`)
      await page.keyboard.press("Enter")
      await menu.waitFor({ state: "detached" })
    }
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()
    const expected = [
      "# Heading", "## Heading", "### Heading", "- Item", "1. Item", "- [ ] Task", "> Quote",
      "```", "{% code title=", "| --- |",
      "{% hint style=\"info\" %}", "{% hint style=\"success\" %}", "{% hint style=\"warning\" %}", "{% hint style=\"danger\" %}",
      "{% tabs %}", "<details>", "{% stepper %}", "{% step %}", "{% columns %}", "{% column width=\"50%\" %}",
      "<table data-view=\"cards\">", "{% embed url=\"https://\" %}", "{% content-ref url=\"page.md\" %}", "{% file src=\"\" %}",
      "{% openapi-operation %}\n{% endopenapi-operation %}", "$$\nE = mc^2\n$$", "\n---\n"
    ]
    await expect.poll(async () => {
      const markdown = (await api<PageRead>(url, "GET", `${pagePath}?format=markdown`)).markdown ?? ""
      return expected.filter((fragment) => !markdown.includes(fragment))
    }, { timeout: 15_000 }).toEqual([])
    const saved = (await api<PageRead>(url, "GET", `${pagePath}?format=markdown`)).markdown!
    await captureScreen(page, "editor-every-block")

    // Drawn as the published site draws it: no GitBook tag left as text.
    const html = (await api<{ html?: string }>(url, "GET", `${pagePath}?format=html`)).html ?? ""
    expect(html).not.toMatch(/\{%|%\}|\$\$/)
    expect(html).toContain("<details")

    // Opened again and left alone: nothing is written, the bytes stay.
    await page.reload()
    await editor.getByText(/^Every block below\./).waitFor()
    // A second longer than the server waits after a change before it writes the markdown (servers.ts, docs/web.md "Live editing").
    await page.waitForTimeout(writeDebounceMs + 1_000)
    expect((await api<PageRead>(url, "GET", `${pagePath}?format=markdown`)).markdown).toBe(saved)
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editor-every-block-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})

it("edits tabs in their tab bar, a code block with its language picker and keys, and an OpenAPI block from the organization's specs", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Shown Blocks Org" })
  await api(url, "POST", `/orgs/${org.id}/openapi`, { slug: "petstore", source: { text: petstore } })
  await eventually("a processed petstore spec", () => api<{ lastVersion?: string }>(url, "GET", `/orgs/${org.id}/openapi/petstore`), (spec) => spec.lastVersion !== undefined)
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Shown" })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Blocks as shown" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Install", slug: "install", document: { markdown: "Start.\n" } }]
  })
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/pages`)
  const read = async () => (await api<PageRead>(url, "GET", `/spaces/${space.id}/change-requests/${cr.number}/content/page/${pages.pages[0]!.id}?format=markdown`)).markdown ?? ""
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    const editor = await openEditor(session, url, `/s/${space.id}/~/changes/${cr.number}/install`)
    await editor.getByText("Start.").click()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")

    // A code block comes empty, its language picked in its header; Enter is a new line, a third at the end leaves it.
    await slash(page, "code", "Code block")
    const code = editor.locator(".quire-codeBlock")
    expect(await code.locator("pre").textContent()).toBe("")
    const language = code.getByRole("combobox", { name: "Language" })
    expect(await language.locator("option:checked").textContent()).toBe("Plain text")
    await page.keyboard.type("x = 1")
    await page.keyboard.press("Enter")
    await page.keyboard.type("y = 2")
    for (let i = 0; i < 3; i++) await page.keyboard.press("Enter")
    await page.keyboard.type("After the code.")
    await language.selectOption({ label: "Python" })
    // ArrowRight at the code's very end goes on in the paragraph below.
    await code.locator("pre").click({ position: { x: 4, y: 4 } })
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("End")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.type("Then: ")
    await expect.poll(read).toContain("```python\nx = 1\ny = 2\n```\n\nThen: After the code.\n")

    // Tabs as tabs: only the shown tab's blocks, titles edited in the bar, a tab added and one deleted.
    await toEnd(page)
    await slash(page, "tabs", "Tabs")
    await page.keyboard.type("npm i")
    const bar = editor.getByRole("tablist", { name: "Tabs" })
    const tab = (name: string) => bar.getByRole("tab", { name, exact: true })
    expect(await bar.getByRole("tab").allTextContents()).toEqual(["First tab", "Second tab"])
    expect(await tab("First tab").getAttribute("aria-selected")).toBe("true")
    expect(await editor.getByText("Second tab text").isVisible()).toBe(false)
    await tab("Second tab").click()
    await expect.poll(() => editor.getByText("Second tab text").isVisible()).toBe(true)
    expect(await editor.getByText("npm i").isVisible()).toBe(false)
    await page.keyboard.press("ArrowLeft")
    await expect.poll(() => tab("First tab").getAttribute("aria-selected")).toBe("true")
    await expect.poll(() => editor.getByText("npm i").isVisible()).toBe(true)
    expect(await editor.getByRole("tabpanel", { name: "First tab" }).textContent()).toBe("npm i")
    // The shown tab's title is edited where it shows: Enter on it, typed over, Enter again.
    await page.keyboard.press("Enter")
    const title = bar.getByRole("textbox", { name: "Tab title" })
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type("npm")
    await page.keyboard.press("Enter")
    await expect.poll(() => tab("npm").evaluate((el) => el === document.activeElement)).toBe(true)
    // "+" adds a tab, shown with its title ready to be typed over; ArrowDown goes into its text.
    await editor.getByRole("button", { name: "Add a tab" }).click()
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type("yarn")
    await page.keyboard.press("Enter")
    await page.keyboard.press("ArrowDown")
    await page.keyboard.type("yarn add")
    await expect.poll(() => editor.getByRole("tabpanel", { name: "yarn" }).textContent()).toBe("yarn add")
    await tab("Second tab").click()
    await editor.getByRole("button", { name: "Delete tab “Second tab”" }).click()
    await expect.poll(() => bar.getByRole("tab").allTextContents()).toEqual(["npm", "yarn"])
    await expectAccessible(page, "tabs drawn as a tab bar")
    await expect.poll(read).toContain("{% tabs %}\n{% tab title=\"npm\" %}\nnpm i\n{% endtab %}\n\n{% tab title=\"yarn\" %}\nyarn add\n{% endtab %}\n{% endtabs %}\n")

    // An OpenAPI block picks one of the organization's specs, then one of its operations, found by a word.
    await editor.getByText("Then: After the code.").click()
    await toEnd(page)
    await slash(page, "openapi", "OpenAPI operation")
    const block = editor.locator(".quire-openapiOperation")
    const spec = block.getByRole("combobox", { name: "Spec" })
    await expect.poll(() => spec.evaluate((el) => el === document.activeElement)).toBe(true)
    await expect.poll(() => spec.locator("option").allTextContents()).toEqual(["Choose a spec…", "petstore"])
    await spec.selectOption("petstore")
    const operations = block.getByRole("listbox", { name: "Operations" })
    await expect.poll(() => operations.getByRole("option").allTextContents()).toEqual(["GET/petsList the pets", "POST/petsAdd a pet"])
    await block.getByRole("combobox", { name: "Find an operation" }).fill("add")
    await expect.poll(() => operations.getByRole("option").allTextContents()).toEqual(["POST/petsAdd a pet"])
    await page.keyboard.press("Enter")
    await block.getByText("POST /pets (petstore)").waitFor()
    await expectAccessible(page, "an OpenAPI block's pickers")
    // Written as chosen, with no field to leave first: the server has it, and the status says so.
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor()
    await expect.poll(read).toContain("{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"post\" %}\n{% endopenapi-operation %}")
    await captureScreen(page, "editor-blocks-as-shown")
    expect(problems).toEqual([])
  } catch (error) {
    await page.screenshot({ path: "test/artifacts/editor-blocks-as-shown-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${problems.join("\n")}`, { cause: error })
  } finally {
    await context.close()
  }
})
