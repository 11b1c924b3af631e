/**
 * A writer's whole day, in the browser, from a server nobody has set up, mailing through a real SMTP
 * server this test starts: first-run setup; "Create your organization"; a colleague invited by email on
 * the members screen, who joins through the link of the mail the server sent; an OpenAPI spec added on
 * the specs screen; a space, and a change request started with "New change request", in which two pages
 * are written with every block the editor's slash menu offers (marks, headings, lists, tasks, a quote,
 * each hint, code with a language and with a title, a table, a formula, a divider, tabs with their
 * titles, an expandable, a stepper, columns, cards, an embed, a page link card and a link to a page, a
 * 20 MB file uploaded with its progress, an OpenAPI operation and an image), the colleague typing
 * into the first page at the same time as the writer; the change request submitted for review and
 * a second one started and left a draft. The API then answers what a team would check:
 * each block in GitBook's markdown, the file with its size, the two change requests as open and draft,
 * the colleague a member. An item the slash menu gains fails the day until the day writes it. The key
 * screens are captured light and dark at 1280 and 390 px (axe on each, no sideways scrolling).
 */
import { beforeAll, expect, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureScreen, chooseFromMenu, open, type Session, sharedBrowser } from "./browser.ts"
import { mailingServer } from "./mailing-server.ts"
import { petstore } from "./petstore.ts"
import { api, setupCode } from "./servers.ts"
import { insertItems } from "../../src/editor/commands/items.ts"

const browser = sharedBrowser()
const mailing = mailingServer()
let url: string
beforeAll(() => void (url = mailing.url()))

const writer = { displayName: "Wren Writer", email: "wren@quire.test", password: "wren's long enough password" }
const colleague = { displayName: "Cody Colleague", email: "cody@quire.test", password: "cody's long enough password" }
const fileSize = 20 * 1024 * 1024

/** A 1×1 PNG. */
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64")

interface PageRead { readonly id: string; readonly title: string; readonly path: string; readonly markdown?: string }
interface ChangeRequestRead { readonly id: string; readonly number: number; readonly status: string; readonly subject: string }

/** The screen light and dark at 1280 and 390 px (captureScreen adds the axe check and the sideways-scrolling one). */
const captureAll = async (page: Page, name: string) => {
  if (screenshotsWanted()) {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [1280, 390]) {
        await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
        await page.screenshot({ path: `${artifacts}writers-day-${name}-${colorScheme}-${width}.png`, fullPage: true })
      }
    }
  }
  await captureScreen(page, `writers-day-${name}`)
}

/** The titles of the slash menu's items the day has used: at its end, every item of the menu. */
const used = new Set<string>()

/** Types `/query` on the current empty line and picks the item the menu selects, checked by its title. */
const slash = async (page: Page, query: string, title: string) => {
  used.add(title)
  await page.keyboard.type(`/${query}`)
  const menu = page.getByRole("listbox", { name: "Insert a block" })
  await expect.poll(() => menu.getByRole("option", { selected: true }).textContent()).toMatch(new RegExp(`^${title}`))
  await page.keyboard.press("Enter")
  await menu.waitFor({ state: "detached" })
}

/** To the empty line the editor leaves after a block inserted last. */
const toEnd = (page: Page) => page.keyboard.press("ControlOrMeta+End")

/** From a block's fields back to the page's text, at its end (the empty line after the last block). */
const toPageEnd = async (page: Page, editor: Locator) => {
  await editor.locator(":scope > p").first().click({ position: { x: 1, y: 1 } })
  // Until the caret is on that empty line: on a busy machine a key pressed while a block was still
  // settling left the block selected, and the next slash command replaced it.
  await expect.poll(async () => {
    await toEnd(page)
    return editor.evaluate((root) => {
      const last = root.lastElementChild
      const anchor = document.getSelection()?.anchorNode ?? null
      return last?.tagName === "P" && (last.textContent ?? "") === "" && anchor !== null && last.contains(anchor)
    })
  }).toBe(true)
}

/** Whether `locator` has the focus. */
const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement)

/** First-run setup, then the organization: its id. */
const setUpAndCreateOrganization = async (page: Page): Promise<string> => {
  await page.goto("/")
  await page.getByRole("heading", { name: "Set up Quire" }).waitFor()
  await captureAll(page, "setup")
  await page.getByLabel("Setup code").fill(setupCode)
  await page.getByLabel("Your name").fill(writer.displayName)
  await page.getByLabel("Email").fill(writer.email)
  await page.getByLabel("Password").fill(writer.password)
  await page.getByRole("button", { name: "Create the account" }).click()
  await page.getByRole("heading", { name: "Create your organization" }).waitFor()
  await page.getByLabel("Organization name").fill("Writers Guild")
  await page.getByLabel("Organization name").press("Enter")
  await page.getByRole("heading", { name: "Writers Guild", exact: true }).waitFor()
  return new URL(page.url()).pathname.split("/")[2]!
}

/** The colleague is invited by email on the members screen and joins through the mailed link, in their own browser. */
const inviteColleague = async (a: Session, b: Session) => {
  await a.page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Members" }).click()
  await a.page.getByRole("heading", { name: "Members", exact: true }).waitFor()
  await a.page.getByLabel("Email addresses").fill(colleague.email)
  await a.page.getByLabel("Role", { exact: true }).selectOption("edit")
  await a.page.getByLabel("Email addresses").press("Enter")
  // The server mails: the screen says so, beside the link kept to pass on.
  await a.page.getByRole("status").filter({ hasText: `Invited ${colleague.email} as Editor, by email.` }).waitFor()
  await a.page.getByText("Each person was emailed their invitation link").waitFor()
  await captureAll(a.page, "members")
  const link = await mailing.inbox().linkMailedTo(colleague.email, /\/invite\//)
  await b.page.goto(link.pathname)
  await b.page.getByRole("heading", { name: "Join Writers Guild" }).waitFor()
  expect(await b.page.getByLabel("Email").inputValue()).toBe(colleague.email)
  await captureAll(b.page, "invited")
  await b.page.getByLabel("Your name").fill(colleague.displayName)
  await b.page.getByLabel("Password").fill(colleague.password)
  await b.page.getByRole("button", { name: "Create the account and join" }).click()
  await b.page.getByRole("heading", { name: "Writers Guild", exact: true }).waitFor()
}

/** An OpenAPI spec added on the specs screen, for the page's OpenAPI block. */
const addSpec = async (page: Page, organizationId: string) => {
  await page.goto(`/o/${organizationId}`)
  await page.getByRole("link", { name: "OpenAPI specs" }).click()
  await page.getByRole("heading", { name: "OpenAPI specs", level: 1 }).waitFor()
  await page.getByRole("button", { name: "Add spec" }).click()
  await page.getByLabel("Upload a file").check()
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "petstore.yaml", mimeType: "application/yaml", buffer: Buffer.from(petstore) })
  await expect.poll(() => page.getByLabel("Slug", { exact: true }).inputValue()).toBe("petstore")
  await page.getByRole("button", { name: "Add spec" }).click()
  await page.getByRole("status").filter({ hasText: "Processed" }).waitFor()
}

/** A space, and a change request started in it with "New change request": the space's id and the request's number. */
const startSpace = async (page: Page, organizationId: string) => {
  await page.goto(`/o/${organizationId}`)
  await page.getByRole("button", { name: "New space" }).click()
  await page.getByLabel("Title of the new space").fill("Handbook")
  await page.keyboard.press("Enter")
  // The new space opens on a first page of its own change request; this writer starts another from the space.
  await page.waitForURL(/\/s\/[^/]+\/~\/changes\//)
  const spaceId = /\/s\/([^/]+)/.exec(page.url())![1]!
  await page.goto(`/s/${spaceId}`)
  return { spaceId, number: await newChangeRequest(page, "Write the handbook") }
}

/** "New change request" on the space's page, with a subject: its number. */
const newChangeRequest = async (page: Page, subject: string): Promise<number> => {
  await chooseFromMenu(page, "More", "New change request")
  await page.getByLabel("Subject (optional)").fill(subject)
  await page.getByRole("button", { name: "Start editing" }).click()
  await page.waitForURL(/\/~\/changes\/\d+\//)
  return Number(/\/changes\/(\d+)\//.exec(page.url())![1])
}

/** A new page of the change request, opened in the editor: the editor. */
const addPage = async (page: Page, title: string) => {
  await page.getByRole("button", { name: "New page", exact: true }).click()
  await page.getByLabel("New page title").fill(title)
  await page.getByRole("button", { name: "Add page" }).click()
  await page.waitForURL(new RegExp(`/~/changes/\\d+/${title.toLowerCase()}$`))
  const editor = page.getByRole("textbox", { name: "Page content" })
  await editor.click()
  return editor
}

/** The "Writing" page: marks, headings, lists, tasks, a quote, each hint, code, a table, a formula and a divider. */
const writeWriting = async (page: Page, editor: Locator) => {
  const type = (text: string) => page.keyboard.type(text)
  await type("Plain, ")
  await page.keyboard.press("ControlOrMeta+b")
  await type("bold")
  await page.keyboard.press("ControlOrMeta+b")
  await type(", ")
  await page.keyboard.press("ControlOrMeta+i")
  await type("italic")
  await page.keyboard.press("ControlOrMeta+i")
  await type(", `code`, ~~struck~~ and $$x^2$$ too.")
  await page.keyboard.press("Enter")
  for (const level of [1, 2, 3]) {
    await slash(page, `h${level}`, `Heading ${level}`)
    await type(`Heading level ${level}`)
    await page.keyboard.press("Enter")
  }
  for (const [query, title, words] of [["bullet", "Bulleted list", "Bread"], ["numbered", "Numbered list", "First"], ["task", "Task list", "Proofread"], ["quote", "Quote", "Words are wind."]] as const) {
    await slash(page, query, title)
    await type(words)
    await toEnd(page)
  }
  for (const [style, label] of [["info", "Info"], ["success", "Success"], ["warning", "Warning"], ["danger", "Danger"]] as const) {
    await slash(page, `hint ${style}`, `Hint: ${label}`)
    await type(`A ${style} hint.`)
    await toEnd(page)
  }
  await slash(page, "code", "Code block")
  await type("print('hello')")
  await editor.getByRole("combobox", { name: "Language" }).last().selectOption({ label: "Python" })
  await editor.getByText("print('hello')").click()
  await toEnd(page)
  await slash(page, "filename", "Code block with title")
  await expect.poll(() => focused(editor.getByRole("textbox", { name: "Title" }).last())).toBe(true)
  await type("app.ts")
  await page.keyboard.press("Enter")
  await type("run()")
  await toEnd(page)
  await slash(page, "table", "Table")
  await type("Tool")
  await toEnd(page)
  await slash(page, "math", "Math block")
  await type("a^2 + b^2 = c^2")
  await toEnd(page)
  await slash(page, "divider", "Divider")
  await type("The end.")
}

/** The "Components" page: a link to a page, tabs, an expandable, a stepper, columns, cards, an embed, a page link card. */
const writeComponents = async (page: Page, editor: Locator) => {
  const type = (text: string) => page.keyboard.type(text)
  await type("See ")
  await page.keyboard.press("ControlOrMeta+k")
  const search = page.getByRole("combobox", { name: "Search pages or type a URL" })
  await search.fill("writing")
  await expect.poll(() => page.getByRole("listbox", { name: "Link targets" }).getByRole("option").first().textContent()).toMatch(/^Writing/)
  await page.keyboard.press("Enter")
  await search.waitFor({ state: "detached" })
  await type(" first.")
  await page.keyboard.press("Enter")

  // Tabs, their titles edited in the tab bar.
  await slash(page, "tabs", "Tabs")
  await type("npm install quire")
  const bar = editor.getByRole("tablist", { name: "Tabs" })
  await bar.getByRole("tab", { name: "First tab", exact: true }).click()
  await expect.poll(() => focused(bar.getByRole("textbox", { name: "Tab title" }))).toBe(true)
  await type("npm")
  await page.keyboard.press("Enter")
  await bar.getByRole("tab", { name: "Second tab", exact: true }).click()
  await bar.getByRole("tab", { name: "Second tab", exact: true }).click()
  await expect.poll(() => focused(bar.getByRole("textbox", { name: "Tab title" }))).toBe(true)
  await type("yarn")
  await page.keyboard.press("Enter")
  await toPageEnd(page, editor)

  await slash(page, "expand", "Expandable")
  await type("The details.")
  const summary = editor.getByRole("textbox", { name: "Summary" })
  await summary.fill("More about it")
  await summary.press("Enter")
  await editor.getByText("The details.").click()
  await toEnd(page)
  await slash(page, "stepper", "Stepper")
  await type("Install it")
  await toEnd(page)
  await slash(page, "columns", "Columns")
  await type("On the left")
  await toEnd(page)

  // Cards: the first card's title has the focus; its fields are filled in place.
  await slash(page, "cards", "Cards")
  const card = editor.getByRole("group", { name: "Card 1" })
  await card.getByRole("textbox", { name: "Title" }).fill("Start here")
  await card.getByRole("textbox", { name: "Description" }).fill("The first steps")
  // Its target is a page, picked by its title (linked as the link picker does), as GitBook's card is.
  await card.getByRole("combobox", { name: "Page of card 1" }).selectOption({ label: "Writing" })
  await expect.poll(() => editor.getByRole("group", { name: "Card 1" }).getByRole("textbox", { name: "Target" }).inputValue()).toBe("README.md")
  await toPageEnd(page, editor)

  await slash(page, "embed", "Embed")
  const embed = editor.locator(".quire-embed").getByRole("textbox").first()
  await embed.fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ")
  await embed.press("Tab")
  await toPageEnd(page, editor)
  await slash(page, "content-ref", "Page link card")
  // The page is picked by its title; the card links it as the link picker does (the first page is README.md).
  await editor.locator(".quire-contentRef").getByRole("combobox", { name: "Page" }).selectOption({ label: "Writing" })
  await expect.poll(() => editor.locator(".quire-contentRef").getByRole("textbox").first().inputValue()).toBe("README.md")
  await toPageEnd(page, editor)
}

/** A File block: a 20 MB file made in the page, its progress shown, then stored. */
const uploadBigFile = async (page: Page, editor: Locator) => {
  await slash(page, "file", "File")
  const block = editor.locator(".quire-file")
  await expect.poll(() => focused(block.getByRole("button", { name: "Upload a file" }))).toBe(true)
  // Made in the page: 20 MB sent through the DevTools protocol would be slow. The progress bar is
  // noted as soon as it shows (on a quiet machine the upload may end before a locator looks).
  await block.evaluate((root: HTMLElement, size) => {
    const seen: { max: string | null; status: string } = { max: null, status: "" }
    Object.assign(window, { quireUploadSeen: seen })
    const look = () => {
      const bar = root.querySelector("[role=status] progress")
      if (bar === null || seen.max !== null) return
      seen.max = bar.getAttribute("max")
      seen.status = bar.closest("[role=status]")?.textContent ?? ""
    }
    new MutationObserver(look).observe(root, { subtree: true, childList: true, attributes: true })
    const input = root.querySelector<HTMLInputElement>("input[type=file]")!
    const transfer = new DataTransfer()
    transfer.items.add(new File([new Uint8Array(size).fill(42)], "field-recordings.zip", { type: "application/zip" }))
    input.files = transfer.files
    input.dispatchEvent(new Event("change", { bubbles: true }))
  }, fileSize)
  await block.getByRole("link", { name: "Download field-recordings.zip" }).waitFor({ timeout: 60_000 })
  const seen = await page.evaluate(() => (window as unknown as { quireUploadSeen: { max: string | null; status: string } }).quireUploadSeen)
  expect(seen.max).toBe(String(fileSize))
  expect(seen.status).toContain("Uploading “field-recordings.zip”")
  expect(await block.locator(".quire-file-card").innerText()).toMatch(/ZIP\s+field-recordings\.zip\s+20\.0 MB/)
  await toPageEnd(page, editor)
}

/** The OpenAPI block (the organization's spec, an operation found by a word) and an image from the toolbar's chooser. */
const insertOperationAndImage = async (page: Page, editor: Locator) => {
  await slash(page, "openapi", "OpenAPI operation")
  const block = editor.locator(".quire-openapiOperation")
  await block.getByRole("combobox", { name: "Spec" }).selectOption("petstore")
  await block.getByRole("combobox", { name: "Find an operation" }).fill("list")
  await block.getByRole("listbox", { name: "Operations" }).getByRole("option", { name: /^GET\s*\/pets/ }).click()
  await block.getByText("GET /pets (petstore)").waitFor()
  await expect.poll(() => editor.locator(".quire-openapiOperation").count()).toBe(1)
  await toPageEnd(page, editor)
  await expect.poll(() => editor.locator(".quire-openapiOperation").count()).toBe(1)
  const chooser = page.waitForEvent("filechooser")
  await slash(page, "image", "Image")
  await (await chooser).setFiles({ name: "map.png", mimeType: "image/png", buffer: png })
  const caption = editor.locator(".quire-figure").getByRole("textbox", { name: "Caption" })
  await caption.waitFor()
  expect(await editor.locator(".quire-openapiOperation").count()).toBe(1)
  await caption.fill("The map")
  await caption.press("Tab")
}

/**
 * With a teammate: the colleague opens the same page of the change request in their own browser,
 * and both type at once, the writer under the first paragraph and the colleague at the end; each
 * sees the other's words arrive, and the server keeps both.
 */
const writeTogether = async (a: Session, b: Session, spaceId: string, number: number) => {
  await b.page.goto(`/s/${spaceId}/~/changes/${number}/writing`)
  const mine = a.page.getByRole("textbox", { name: "Page content" })
  const theirs = b.page.getByRole("textbox", { name: "Page content" })
  await theirs.getByText("The end.").click()
  await b.page.keyboard.press("End")
  await b.page.keyboard.press("Enter")
  await mine.locator(":scope > p").first().click()
  await a.page.keyboard.press("End")
  await a.page.keyboard.press("Enter")
  await Promise.all([
    a.page.keyboard.type("Written side by side.", { delay: 20 }),
    b.page.keyboard.type("Checked by a colleague.", { delay: 20 })
  ])
  await mine.getByText("Checked by a colleague.").waitFor()
  await theirs.getByText("Written side by side.").waitFor()
  await expect.poll(missing(spaceId, number, "Writing", ["too.\n\nWritten side by side.", "The end.\n\nChecked by a colleague."]), { timeout: 20_000 }).toEqual([])
}

/** The stored markdown of the change request's page titled `title`. */
const storedMarkdown = async (spaceId: string, number: number, title: string): Promise<string> => {
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${spaceId}/change-requests/${number}/content/pages`)
  const page = pages.pages.find((p) => p.title === title)
  return page === undefined ? "" : (await api<PageRead>(url, "GET", `/spaces/${spaceId}/change-requests/${number}/content/page/${page.id}?format=markdown`)).markdown ?? ""
}

/** The fragments of `expected` missing from the stored page (none, once the server has written it). */
const missing = (spaceId: string, number: number, title: string, expected: ReadonlyArray<string | RegExp>) => async () => {
  const markdown = await storedMarkdown(spaceId, number, title)
  const absent = expected.filter((fragment) => typeof fragment === "string" ? !markdown.includes(fragment) : !fragment.test(markdown)).map(String)
  // The page as stored beside what it lacks, to see why.
  return absent.length === 0 ? [] : [...absent, `stored: ${markdown}`]
}

const writingBlocks = [
  "Plain, **bold**, *italic*, `code`, ~~struck~~ and $$x^2$$ too.",
  "# Heading level 1", "## Heading level 2", "### Heading level 3",
  "- Bread", "1. First", "- [ ] Proofread", "> Words are wind.",
  "{% hint style=\"info\" %}\nA info hint.\n{% endhint %}",
  "{% hint style=\"success\" %}\nA success hint.\n{% endhint %}",
  "{% hint style=\"warning\" %}\nA warning hint.\n{% endhint %}",
  "{% hint style=\"danger\" %}\nA danger hint.\n{% endhint %}",
  "```python\nprint('hello')\n```",
  "{% code title=\"app.ts\" %}\n```\nrun()\n```\n{% endcode %}",
  "| Tool | Column 2 |\n| --- | --- |",
  "$$\na^2 + b^2 = c^2\n$$",
  "\n---\n\nThe end."
]

const componentsBlocks = (fileId: string): ReadonlyArray<string | RegExp> => [
  "See [Writing](README.md) first.",
  "{% tabs %}\n{% tab title=\"npm\" %}\nnpm install quire\n{% endtab %}",
  "{% tab title=\"yarn\" %}",
  "<details>\n\n<summary>More about it</summary>\n\nThe details.\n\n</details>",
  "{% stepper %}\n{% step %}\n### Install it",
  "{% columns %}\n{% column width=\"50%\" %}\nOn the left",
  "<table data-view=\"cards\">",
  "<strong>Start here</strong>",
  />The first steps</,
  "<td><a href=\"README.md\">README.md</a></td>",
  "{% embed url=\"https://www.youtube.com/watch?v=dQw4w9WgXcQ\" %}",
  "{% content-ref url=\"README.md\" %}\n[Writing](README.md)\n{% endcontent-ref %}",
  `{% file src="/files/${fileId}" %}`,
  "{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}",
  /<figure><img src="\/files\/[^"]+" alt=""><figcaption><p>The map<\/p><\/figcaption><\/figure>/
]

it("a writer's day: set up, create the organization, invite by email, write every block and a page with a colleague, upload 20 MB, open two change requests", async () => {
  const a = await open(browser(), url)
  const b = await open(browser(), url)
  try {
    const organizationId = await setUpAndCreateOrganization(a.page)
    await captureAll(a.page, "organization")
    await inviteColleague(a, b)
    await addSpec(a.page, organizationId)
    const { spaceId, number } = await startSpace(a.page, organizationId)

    // The first page: text and its marks, headings, lists, hints, code, a table, a formula.
    const writing = await addPage(a.page, "Writing")
    await writeWriting(a.page, writing)
    await expect.poll(missing(spaceId, number, "Writing", writingBlocks), { timeout: 20_000 }).toEqual([])
    await captureAll(a.page, "writing")
    await writeTogether(a, b, spaceId, number)

    // The second: the blocks that hold blocks, the cards, links, the file, the operation and the image.
    const components = await addPage(a.page, "Components")
    await writeComponents(a.page, components)
    await uploadBigFile(a.page, components)
    await insertOperationAndImage(a.page, components)
    type Files = { items: ReadonlyArray<{ id: string; name: string; size: number; contentType: string }> }
    const files = await api<Files>(url, "GET", `/spaces/${spaceId}/change-requests/${number}/content/files`)
    const big = files.items.find((file) => file.name === "field-recordings.zip")
    expect(big?.size).toBe(fileSize)
    await expect.poll(missing(spaceId, number, "Components", componentsBlocks(big!.id)), { timeout: 20_000 }).toEqual([])
    await captureAll(a.page, "components")

    // Submitted for review; a second change request started and left a draft.
    await a.page.getByRole("button", { name: "Submit for review" }).click()
    await a.page.getByRole("button", { name: "Submit for review" }).waitFor({ state: "detached" })
    await a.page.goto(`/s/${spaceId}`)
    const second = await newChangeRequest(a.page, "Next week's notes")
    const notes = await addPage(a.page, "Ideas")
    await notes.pressSequentially("A page for later.")
    await expect.poll(() => storedMarkdown(spaceId, second, "Ideas")).toContain("A page for later.")
    await a.page.goto(`/s/${spaceId}/~/change-requests`)
    await a.page.getByRole("link", { name: /Next week's notes/ }).waitFor()
    await captureAll(a.page, "change-requests")

    // Every block the slash menu offers was written (plain text is the line one types on).
    expect(insertItems.map((item) => item.title).filter((title) => title !== "Text" && !used.has(title))).toEqual([])

    // What a team checks through the API.
    type Listed = { items: ReadonlyArray<ChangeRequestRead> }
    const byStatus = async (status: string) => (await api<Listed>(url, "GET", `/spaces/${spaceId}/change-requests?status=${status}`)).items.map((cr) => cr.subject)
    expect(await byStatus("open")).toEqual(["Write the handbook"])
    // Beside the draft she started, the one the new space opened on its first page, left as it was.
    expect((await byStatus("draft")).toSorted()).toEqual(["First page", "Next week's notes"])
    const members = await api<{ items: ReadonlyArray<{ role: string; user: { displayName: string } }> }>(url, "GET", `/orgs/${organizationId}/members`)
    expect(members.items.map((m) => [m.user.displayName, m.role]).toSorted()).toEqual([[colleague.displayName, "edit"], [writer.displayName, "admin"]])
    expect(files.items.map((file) => file.name).toSorted()).toEqual(["field-recordings.zip", "map.png"].toSorted())
    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
  } catch (error) {
    await a.page.screenshot({ path: `${artifacts}writers-day-failure-a.png`, fullPage: true })
    await b.page.screenshot({ path: `${artifacts}writers-day-failure-b.png`, fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${[...a.problems, ...b.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
  }
})
