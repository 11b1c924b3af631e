/**
 * Merge rules, set in the app and enforced by the API: an administrator requires one approval for
 * the organization's spaces (by keyboard, on the organization's settings); a space that follows
 * them says so on its Merge rules screen; the author's merge is refused, the review's merge box
 * showing the blocker and the API refusing the merge the same way; a reviewer approves; the merge
 * box says merging is allowed and the author's merge goes through. Every step waits for what the
 * server has, read back through /v1.
 */
import { expect, inject, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { screenshotsWanted } from "@quire/testkit/Chromium"
import { artifacts, captureAllPairs, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api, eventually, joinByLink } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

const stamp = Date.now()
const author = { displayName: "Ari Author", email: `ari.${stamp}@rules.test`, password: "ari writes the handbook" }
const reviewer = { displayName: "Rhea Reviewer", email: `rhea.${stamp}@rules.test`, password: "rhea approves with care" }

/** Joins the organization through an invite link as `person` (an account of their own); their session cookie. */
const join = (org: string, role: string, person: typeof author) => joinByLink(url, org, role, person)

/** A call of /v1 as the person of `cookie` (the app's own requests are these): its status and body. */
const as = async <A>(cookie: string, method: string, path: string, body?: unknown): Promise<{ readonly status: number; readonly body: A }> => {
  const response = await fetch(`${url}/v1${path}`, {
    method,
    headers: { cookie, origin: url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: (text === "" ? undefined : JSON.parse(text)) as A }
}

/** The whole screen from its top, in the four pairs of theme and width (captureAllPairs), with its accessibility checked. */
const capture = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0))
  await captureAllPairs(page, name)
}

/** One part of the screen (`<name>-<theme>-<width>.png`), light at 1280 px and dark at 390 px, for the docs. */
const capturePart = async (page: Page, part: Locator, name: string) => {
  if (!screenshotsWanted()) return
  for (const [colorScheme, width] of [["light", 1280], ["dark", 390]] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: "reduce" })
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 })
    // From the top of the document, clipped to the part: the sticky header stays at the top, off the part.
    await page.evaluate(() => window.scrollTo(0, 0))
    const box = await part.boundingBox()
    if (box === null) throw new Error(`${name}: the part is not shown`)
    await page.screenshot({ path: `${artifacts}${name}-part-${colorScheme}-${width}.png`, fullPage: true, clip: { x: Math.max(0, box.x - 8), y: Math.max(0, box.y - 8), width: box.width + 16, height: box.height + 16 } })
  }
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" })
  await page.setViewportSize({ width: 1280, height: 800 })
}

const oneApproval = { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] }

it("an admin requires one approval; the author's merge is refused with the blocker shown; a reviewer approves; the merge goes through", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Rules Co" })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  // The author may merge (review role): only the rules stand between them and main.
  const ari = await join(org.id, "review", author)
  const rhea = await join(org.id, "review", reviewer)
  const space = await api<{ id: string; mergeRules: { type: string } }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  expect(space.mergeRules).toEqual({ type: "inherit" })
  const cr = (await as<{ id: string; number: number }>(ari, "POST", `/spaces/${space.id}/change-requests`, { subject: "Holiday policy" })).body
  const wrote = await as(ari, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Holidays", document: { markdown: "Everyone gets 25 days a year.\n" } }]
  })
  expect(wrote.status).toBe(200)
  const review = `/s/${space.id}/~/changes/${cr.number}/~/review`

  const admin = await open(browser(), url)
  const a = await open(browser(), url)
  const r = await open(browser(), url)
  try {
    // The administrator requires one approval, by keyboard, on the organization's settings.
    await signInAsAdmin(admin, url)
    await admin.page.goto(`/o/${org.id}/settings`)
    const form = admin.page.getByRole("form", { name: "Merge rules of the organization" })
    await form.getByLabel("No merge rules: anyone who may merge does").focus()
    await admin.page.keyboard.press("ArrowDown")
    expect(await form.getByLabel("These rules, for every space that follows the organization's").isChecked()).toBe(true)
    await form.getByLabel("At least one approval of the latest version").focus()
    await admin.page.keyboard.press("Space")
    await form.getByRole("button", { name: "Save merge rules" }).focus()
    await admin.page.keyboard.press("Enter")
    await eventually("the organization's merge rules", () => api<{ mergeRules: unknown }>(url, "GET", `/orgs/${org.id}`), (o) => JSON.stringify(o.mergeRules) === JSON.stringify(oneApproval))
    await form.getByRole("status").filter({ hasText: "Saved." }).waitFor()
    await capture(admin.page, "merge-rules-organization")
    await capturePart(admin.page, admin.page.locator("#merge-rules"), "merge-rules-organization")

    // A custom rule longer than GitBook's limit is refused before it is sent, the words under its expression.
    await form.getByRole("button", { name: "Add a custom rule" }).click()
    const expression = form.getByLabel("Expression")
    await expression.fill(`true && ${"true || ".repeat(130)}true`)
    await form.getByRole("button", { name: "Save merge rules" }).click()
    const describedBy = (await expression.getAttribute("aria-describedby")) ?? ""
    expect(describedBy).toContain("-error")
    expect(await admin.page.locator(`[id="${describedBy.split(" ").find((id) => id.endsWith("-error"))}"]`).textContent()).toContain("1,024")
    await form.getByRole("button", { name: "Remove this custom rule" }).click()

    // The space follows the organization's rules, and its Merge rules screen says which.
    await admin.page.goto(`/s/${space.id}/~/merge-rules`)
    const spaceForm = admin.page.getByRole("form", { name: "Merge rules of this space" })
    expect(await spaceForm.getByLabel("Follow the organization's merge rules").isChecked()).toBe(true)
    await spaceForm.locator(".merge-inherited").getByText("At least one approval of the latest version").waitFor()
    await capture(admin.page, "merge-rules-space")

    // The author's merge is refused: the merge box shows the blocker, and the API refuses it the same way.
    const [name, value] = ari.split("=") as [string, string]
    await a.context.addCookies([{ name, value, url }])
    await a.page.goto(review)
    const verdict = a.page.getByTestId("merge-verdict")
    await verdict.getByText("Merging is blocked").waitFor()
    await verdict.getByText("This change request needs an approved review of its latest revision").waitFor()
    expect(await a.page.getByRole("button", { name: "Merge", exact: true }).isDisabled()).toBe(true)
    await a.page.getByText("This space follows its organization's merge rules.").waitFor()
    const refused = await as<{ error: { message: string } }>(ari, "POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`)
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toContain("needs an approved review of its latest revision")
    expect((await api<{ status: string }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`)).status).not.toBe("merged")
    await capture(a.page, "merge-box-blocked")
    await capturePart(a.page, a.page.locator(".merge-box"), "merge-box-blocked")

    // The reviewer approves.
    const [rName, rValue] = rhea.split("=") as [string, string]
    await r.context.addCookies([{ name: rName, value: rValue, url }])
    await r.page.goto(review)
    await r.page.getByRole("button", { name: "Approve", exact: true }).click()
    await eventually("Rhea's approval", () => api<{ items: ReadonlyArray<{ status: string; outdated: boolean }> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/reviews`),
      (list) => list.items.some((item) => item.status === "approved" && !item.outdated))

    // The author merges, the merge box saying it may.
    await a.page.reload()
    await verdict.getByText("Merging is allowed.").waitFor()
    await capture(a.page, "merge-box-allowed")
    await capturePart(a.page, a.page.locator(".merge-box"), "merge-box-allowed")
    await a.page.getByRole("button", { name: "Merge", exact: true }).click()
    const merged = await eventually("the merge", () => api<{ status: string; mergedBy?: { displayName: string } }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`), (c) => c.status === "merged")
    expect(merged.mergedBy?.displayName).toBe(author.displayName)
    const main = await api<{ pages: ReadonlyArray<{ title: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`)
    expect(main.pages.map((p) => p.title)).toContain("Holidays")

    // Letting authors approve, in a space that follows the organization, gives the space its own
    // rules: the organization's with that one added, none of them dropped.
    await admin.page.goto(`/s/${space.id}/~/change-requests`)
    const allow = admin.page.getByLabel("Authors may approve their own change requests")
    await expect.poll(() => allow.isEnabled()).toBe(true)
    await allow.focus()
    await admin.page.keyboard.press("Space")
    await eventually("the space's own rules", () => api<{ mergeRules: unknown }>(url, "GET", `/spaces/${space.id}`),
      (read) => JSON.stringify(read.mergeRules) === JSON.stringify({ type: "rules", rules: [...oneApproval.rules, { rule: "allow_author_approval" }] }))

    expect([...admin.problems, ...a.problems, ...r.problems]).toEqual([])
  } finally {
    await Promise.all([admin.context.close(), a.context.close(), r.context.close()])
  }
})
