/**
 * First steps in a space, as a newcomer takes them: creating a space lands on its first page in
 * the editor, the title selected, and what is typed (title, then text) is stored; an empty space's
 * "Write the first page" does the same; "Edit" on a page opens a new change request, never one of
 * the person's others, which "Continue a change request" lists to pick instead. Every step is read
 * back through /v1.
 */
import { expect, inject, it } from "vitest"
import { captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface Listed { readonly id: string; readonly title: string; readonly path?: string; readonly pages?: ReadonlyArray<Listed> }
interface ChangeRequest { readonly id: string; readonly number: number; readonly subject: string; readonly status: string }

const flat = (items: ReadonlyArray<Listed>): Array<Listed> => items.flatMap((item) => [item, ...flat(item.pages ?? [])])

it("lands a new space on its first page, whose title and text are typed straight away", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "First Steps Org" })
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}`)
    await page.getByRole("button", { name: "New space" }).click()
    await page.getByLabel("Title of the new space").fill("Field notes")
    await page.keyboard.press("Enter")
    // The space, as the server has it, and the change request holding its first page.
    const [space] = await eventually("the new space", () => api<{ items: ReadonlyArray<{ id: string; title: string }> }>(url, "GET", `/orgs/${org.id}/spaces`).then((r) => r.items), (items) => items.length === 1)
    await page.waitForURL(`**/s/${space!.id}/~/changes/**`, { timeout: 30_000 })
    const number = Number(/\/changes\/(\d+)\//.exec(page.url())![1])
    const pagesOf = () => api<{ pages: ReadonlyArray<Listed> }>(url, "GET", `/spaces/${space!.id}/change-requests/${number}/content/pages`).then((r) => flat(r.pages))
    expect((await pagesOf()).map((p) => p.title)).toEqual(["Untitled"])
    // The title is selected: typing replaces it; Enter goes on to the description, Enter again to the text.
    const title = page.getByRole("textbox", { name: "Page title", exact: true })
    await expect.poll(() => title.evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.type("Getting started")
    await page.keyboard.press("Enter")
    await eventually("the title stored", pagesOf, (pages) => pages[0]?.title === "Getting started")
    await page.keyboard.press("Enter")
    await page.keyboard.type("Write down what you saw.")
    await expect.poll(async () => {
      const [first] = await pagesOf()
      const read = await api<{ markdown?: string }>(url, "GET", `/spaces/${space!.id}/change-requests/${number}/content/page/${first!.id}?format=markdown`)
      return read.markdown ?? ""
    }, { timeout: 30_000 }).toContain("Write down what you saw.")
    await captureAllPairs(page, "first-steps-new-space")
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }
})

it("writes an empty space's first page from its start, and 'Edit' opens a new change request unless one is picked", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Edit Steps Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Runbooks" })
  const changeRequests = () => Promise.all(["draft", "open"].map((status) =>
    api<{ items: ReadonlyArray<ChangeRequest> }>(url, "GET", `/spaces/${space.id}/change-requests?status=${status}`))).then((lists) => lists.flatMap((l) => l.items))
  const session = await open(browser(), url)
  const { page, problems } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/s/${space.id}`)
    await page.getByRole("button", { name: "Write the first page" }).focus()
    await captureAllPairs(page, "first-steps-empty-space")
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/s/${space.id}/~/changes/**`, { timeout: 30_000 })
    const [first] = await eventually("the first page's change request", changeRequests, (items) => items.length === 1)
    expect(first!.subject).toBe("First page")
    const title = page.getByRole("textbox", { name: "Page title", exact: true })
    await expect.poll(() => title.evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.type("Escalations")
    await page.keyboard.press("Tab")
    const pagesIn = (n: number) => api<{ pages: ReadonlyArray<Listed> }>(url, "GET", `/spaces/${space.id}/change-requests/${n}/content/pages`).then((r) => flat(r.pages))
    await eventually("the title stored", () => pagesIn(first!.number), (pages) => pages[0]?.title === "Escalations")
    await api(url, "POST", `/spaces/${space.id}/change-requests/${first!.id}/merge`)

    // An unrelated change request of the person's, still open: "Edit" does not take them into it.
    const unrelated = await api<ChangeRequest>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Unrelated rework" })
    await page.goto(`/s/${space.id}/escalations`)
    await page.getByRole("heading", { name: "Escalations" }).first().waitFor()
    await page.getByRole("button", { name: "Edit", exact: true }).click()
    const [edit] = await eventually("a new change request", changeRequests, (items) => items.some((cr) => cr.subject === "Edit “Escalations”"))
      .then((items) => items.filter((cr) => cr.subject === "Edit “Escalations”"))
    await page.waitForURL(`**/s/${space.id}/~/changes/${edit!.number}/escalations`)
    expect(edit!.number).not.toBe(unrelated.number)

    // Picking one: Edit's other half, the menu "Continue a change request", lists the person's own, by keyboard.
    await page.goto(`/s/${space.id}/escalations`)
    await page.getByRole("button", { name: "Continue a change request", exact: true }).focus()
    await page.keyboard.press("ArrowDown")
    const choice = page.getByRole("menu", { name: "Continue a change request" }).getByRole("menuitem", { name: new RegExp(`^#${unrelated.number} Unrelated rework`) })
    await choice.waitFor()
    expect(await choice.textContent()).toContain("Draft")
    await captureAllPairs(page, "first-steps-continue")
    await choice.focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`**/s/${space.id}/~/changes/${unrelated.number}/escalations`)
    expect(problems).toEqual([])
  } finally {
    await session.context.close()
  }
})
