/**
 * A reviewer's day, from an empty server that mails through a real SMTP server: the instance, its
 * organization, Wes (a writer, edit role) and Rena (a reviewer, review role), a space and Wes's
 * change request whose two pages hold every block kind are made through the API. In the browser,
 * Wes submits it for review and asks Rena; Rena follows the link of the email the server sends her,
 * signs in and lands on the review, where every block is drawn as the site draws it (hint, tabs
 * with their titles, expandable with its summary, stepper, columns, table, code, formula typeset,
 * image loaded, cards with their cover, file by its name, embed, OpenAPI operation); she comments
 * beside two blocks and requests changes. Wes, in his own browser, replies beside the block, edits
 * the page in the editor and is told he may not merge; Rena sees the edit in the diff, resolves the
 * thread, approves and merges. The organization's merge rules ask for one approval of the latest
 * version: until Rena approves, her merge box says merging is blocked and why, and Merge waits.
 * Last, what a team would check through the API: the change request merged, the comments on their
 * blocks, the two reviews.
 */
import { expect, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { crc32, deflateSync } from "node:zlib"
import { artifacts, captureAllPairs, open, sharedBrowser } from "./browser.ts"
import { mailingServer } from "./mailing-server.ts"
import { api, joinByLink, setupAdmin } from "./servers.ts"

const browser = sharedBrowser()
// Nothing is set up before the test: it starts from the empty server.
const mailing = mailingServer()

const writer = { displayName: "Wes Writer", email: "wes@handbook.test", password: "wes writes every day" }
const reviewer = { displayName: "Rena Reviewer", email: "rena@handbook.test", password: "rena reads every word" }

/** A PNG chunk: its length, type, data and CRC. */
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])))
  return Buffer.concat([length, Buffer.from(type), data, crc])
}

/** A PNG of `width` × `height` pixels of one colour. */
const png = (width: number, height: number, rgb: readonly [number, number, number]): string => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from(rgb))])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]).toString("base64")
}

const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n").toString("base64")

/** The page Wes edits: the text blocks. */
const install = [
  "Quire runs next to a PostgreSQL database.", "",
  "{% hint style=\"warning\" %}", "Back up the database before you upgrade.", "{% endhint %}", "",
  "{% tabs %}", "{% tab title=\"macOS\" %}", "Install with Homebrew.", "{% endtab %}", "", "{% tab title=\"Windows\" %}", "Install with winget.", "{% endtab %}", "{% endtabs %}", "",
  "<details>", "", "<summary>Behind a proxy?</summary>", "", "Set the proxy's address first.", "", "</details>", "",
  "{% stepper %}", "{% step %}", "### Download", "", "Fetch the release.", "{% endstep %}", "", "{% step %}", "### Start", "", "Run the server.", "{% endstep %}", "{% endstepper %}", "",
  "{% columns %}", "{% column width=\"50%\" %}", "**Before**", "", "One process per host.", "{% endcolumn %}", "", "{% column %}", "**After**", "", "Several behind a balancer.", "{% endcolumn %}", "{% endcolumns %}", "",
  "| Setting | Default |", "| ------- | ------- |", "| PORT | 3000 |", "",
  "{% code title=\"install.sh\" %}", "```bash", "npm install quire", "```", "{% endcode %}", "",
  "$$", "E = mc^2", "$$", ""
].join("\n")

/** The page Wes adds: the blocks that show files, links and operations. */
const reference = (diagram: string, guide: string) => [
  "What the parts are.", "",
  `<figure><img src="/files/${diagram}" alt="The architecture"><figcaption><p>How the parts fit</p></figcaption></figure>`, "",
  "<table data-view=\"cards\"><thead><tr><th></th><th></th><th data-hidden data-card-cover data-type=\"files\"></th></tr></thead><tbody><tr><td><strong>Quick start</strong></td><td>Running in five minutes.</td><td><a href=\".gitbook/assets/cover.png\">cover.png</a></td></tr></tbody></table>", "",
  `{% file src="/files/${guide}" %}`, "",
  "{% embed url=\"https://example.com/demo\" %}", "The demo video.", "{% endembed %}", "",
  "{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}", "[OpenAPI petstore](https://example.com/openapi.json)", "{% endopenapi-operation %}", ""
].join("\n")

/** Joins the organization through an invite link as `person` (an account of their own); their session cookie. */
const join = (url: string, org: string, role: string, person: typeof writer) => joinByLink(url, org, role, person)

/** A call of /v1 as the person of `cookie` (the app's own requests are these). */
const as = async <A>(url: string, cookie: string, method: string, path: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${url}/v1${path}`, {
    method,
    headers: { cookie, origin: url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return (text === "" ? undefined : JSON.parse(text)) as A
}

/** Waits for an image to have loaded its picture (a broken one has no natural width); it loads lazily, so it is brought into view. */
const loaded = async (image: Locator) => {
  await image.waitFor({ state: "attached" })
  await image.scrollIntoViewIfNeeded()
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
}

/** A block's row in the review's diff, by its text. */
const row = (page: Page, text: string) => page.locator(".review-row", { hasText: text })

interface Comment {
  readonly id: string
  readonly status: string
  readonly replies?: number
  readonly body: { readonly markdown?: string }
  readonly target: { readonly page?: { readonly id: string }; readonly node?: { readonly id: string } }
}

it("a reviewer follows the mailed review request, sees every block kind, comments beside blocks, asks for changes, approves and merges", async () => {
  const url = mailing.url()
  // The instance, its organization and its people, through the API.
  await setupAdmin(url)
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Handbook Co" })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const wes = await join(url, org.id, "edit", writer)
  await join(url, org.id, "review", reviewer)
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Operations Guide" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "First page" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Install", slug: "install", document: { markdown: "Quire runs next to a PostgreSQL database.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  // From now on, the organization's merge rules: one approval of the latest version before any merge.
  await api(url, "PATCH", `/orgs/${org.id}`, { mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_approved_review" }] } })
  const [installPage] = (await api<{ pages: ReadonlyArray<{ id: string }> }>(url, "GET", `/spaces/${space.id}/content/pages`)).pages

  // Wes's change request, written through the API as his own: the install page gets every text block, a new page the rest.
  const cr = await as<{ id: string; number: number }>(url, wes, "POST", `/spaces/${space.id}/change-requests`, { subject: "Install guide, every block" })
  const stored = await as<{ files: ReadonlyArray<{ id: string; name: string }> }>(url, wes, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{
      operation: "insert_files",
      files: [
        { name: "diagram.png", contentType: "image/png", base64: png(240, 120, [52, 120, 200]) },
        { name: "cover.png", contentType: "image/png", base64: png(200, 100, [200, 120, 52]) },
        { name: "guide.pdf", contentType: "application/pdf", base64: pdf }
      ]
    }]
  })
  const fileId = (name: string) => stored.files.find((file) => file.name === name)!.id
  await as(url, wes, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: "update_page", page: installPage!.id, document: { markdown: install } },
      { operation: "insert_page", title: "Reference", slug: "reference", document: { markdown: reference(fileId("diagram.png"), fileId("guide.pdf")) } }
    ]
  })
  const pages = await as<{ pages: ReadonlyArray<{ id: string; title: string }> }>(url, wes, "GET", `/spaces/${space.id}/change-requests/${cr.id}/content/pages`)
  const referencePage = pages.pages.find((p) => p.title === "Reference")!

  const review = `/s/${space.id}/~/changes/${cr.number}/~/review`
  const a = await open(browser(), url)
  const b = await open(browser(), url)
  try {
    // Wes submits the draft for review and asks Rena.
    const [name, value] = wes.split("=") as [string, string]
    await a.context.addCookies([{ name, value, url }])
    await a.page.goto(`/s/${space.id}/~/changes/${cr.number}/install`)
    await a.page.getByRole("button", { name: "Submit for review" }).click()
    await a.page.locator(".cr-status").filter({ hasText: "In review" }).waitFor()
    await a.page.goto(review)
    await a.page.getByRole("heading", { name: "Install guide, every block" }).waitFor()
    await a.page.getByLabel("Ask for a review").selectOption({ label: reviewer.displayName })
    await a.page.getByRole("button", { name: "Request review" }).click()
    await a.page.getByText(`${reviewer.displayName}: review requested`).waitFor()

    // Rena follows the link of the email she gets, signs in, and lands on the review.
    const mailed = await mailing.inbox().linkMailedTo(reviewer.email, /\/~\/review/)
    expect(mailed.pathname).toBe(review)
    await b.page.goto(`${mailed.pathname}${mailed.search}`)
    await b.page.getByRole("heading", { name: "Sign in" }).waitFor()
    await b.page.getByLabel("Email").fill(reviewer.email)
    await b.page.getByLabel("Password").fill(reviewer.password)
    await b.page.getByLabel("Password").press("Enter")
    await b.page.getByRole("heading", { name: "Install guide, every block" }).waitFor()
    expect(new URL(b.page.url()).pathname).toBe(review)

    // Every block kind, drawn as the site draws it.
    const added = b.page.locator(".review-unified .review-added")
    await added.locator(".hint.hint-warning", { hasText: "Back up the database before you upgrade." }).waitFor()
    for (const [title, text] of [["macOS", "Install with Homebrew."], ["Windows", "Install with winget."]] as const) {
      const tab = added.getByRole("group", { name: title })
      await tab.locator(".tab-label", { hasText: title }).waitFor()
      await tab.getByText(text).waitFor()
    }
    await added.locator("details[open] summary", { hasText: "Behind a proxy?" }).waitFor()
    await added.locator("details").getByText("Set the proxy's address first.").waitFor()
    const steps = added.locator(".stepper .step")
    await steps.first().waitFor()
    expect(await steps.locator("h3").allTextContents()).toEqual(["Download", "Start"])
    const columns = added.locator(".columns .column")
    await columns.first().waitFor()
    expect(await columns.count()).toBe(2)
    await columns.nth(1).getByText("Several behind a balancer.").waitFor()
    const table = added.locator("table:not(.cards)")
    await table.getByRole("columnheader", { name: "Default" }).waitFor()
    await table.getByRole("cell", { name: "3000" }).waitFor()
    await added.locator(".code-title", { hasText: "install.sh" }).waitFor()
    await added.locator(".code-block code", { hasText: "npm install quire" }).waitFor()
    await added.locator(".review-math-typeset .katex-display").waitFor()
    expect(await added.locator(".review-math-typeset .katex-mathml annotation").textContent()).toBe("E = mc^2")
    await loaded(added.locator("figure img[alt='The architecture']"))
    await added.locator("figcaption", { hasText: "How the parts fit" }).waitFor()
    const card = added.locator("table.cards tr")
    await card.getByText("Quick start").waitFor()
    await loaded(card.locator(".review-card-cover img"))
    await added.locator(".file a.file-link", { hasText: "guide.pdf" }).locator(".file-type", { hasText: "application/pdf" }).waitFor()
    await added.locator(".embed", { hasText: "The demo video." }).waitFor()
    await added.locator(".openapi-header", { hasText: "GET" }).locator(".openapi-path", { hasText: "/pets" }).waitFor()
    await captureAllPairs(b.page, "reviewers-day-diff")

    // Comments beside two blocks, then changes requested.
    const comment = async (block: string, words: string) => {
      const blockRow = row(b.page, block)
      await blockRow.getByRole("button", { name: /Comment on block/ }).first().click()
      const box = blockRow.getByLabel("Comment on this block")
      await box.fill(words)
      await blockRow.getByRole("button", { name: "Post comment" }).click()
      await blockRow.getByRole("article", { name: `Comment by ${reviewer.displayName}` }).getByText(words).waitFor()
    }
    await comment("Back up the database before you upgrade.", "Say how to back it up.")
    await comment("npm install quire", "Pin the version here.")
    await b.page.getByLabel("Review comment (optional)").fill("Two things to fix, see beside the blocks.")
    await b.page.getByRole("button", { name: "Request changes" }).click()
    await b.page.getByText(`${reviewer.displayName}: requested changes`).waitFor()
    // The merge rules stand between the change request and main: the merge box says which, and Merge waits.
    const verdict = b.page.getByTestId("merge-verdict")
    await verdict.getByText("Merging is blocked").waitFor()
    await verdict.getByText("This change request needs an approved review of its latest revision").waitFor()
    expect(await b.page.getByRole("button", { name: "Merge", exact: true }).isDisabled()).toBe(true)
    await captureAllPairs(b.page, "reviewers-day-changes-requested")

    // Wes answers beside the hint, edits the page in the editor, and is not offered a merge his role does not allow.
    await a.page.reload()
    const hintThread = row(a.page, "Back up the database").getByRole("article", { name: `Comment by ${reviewer.displayName}` })
    await hintThread.getByText("Say how to back it up.").waitFor()
    await hintThread.getByLabel("Reply", { exact: true }).fill("Added the command.")
    await hintThread.getByRole("button", { name: "Reply", exact: true }).click()
    await hintThread.locator(".thread-replies").getByText("Added the command.").waitFor()
    expect(await a.page.getByRole("button", { name: "Merge", exact: true }).count()).toBe(0)
    await a.page.getByText("Your role in this space does not let you merge: someone with the review role merges it.").waitFor()
    await a.page.goto(`/s/${space.id}/~/changes/${cr.number}/install`)
    const editor = a.page.getByRole("textbox", { name: "Page content" })
    await editor.getByText("Back up the database before you upgrade.").click()
    await a.page.keyboard.press("End")
    await a.page.keyboard.type(" Run pg_dump first.")
    await a.page.getByRole("status").filter({ hasText: /^Saved$/ }).waitFor()
    await expect.poll(async () => (await as<{ markdown?: string }>(url, wes, "GET",
      `/spaces/${space.id}/change-requests/${cr.id}/content/page/${installPage!.id}?format=markdown`)).markdown).toContain("before you upgrade. Run pg_dump first.")

    // Rena sees the edit and the answer, resolves the thread, approves and merges.
    await b.page.reload()
    await b.page.locator(".review-added", { hasText: "Run pg_dump first." }).first().waitFor()
    await b.page.getByText(`${reviewer.displayName}: requested changes (on an older version)`).waitFor()
    const answered = b.page.getByRole("article", { name: `Comment by ${reviewer.displayName}` }).filter({ hasText: "Say how to back it up." })
    await answered.locator(".thread-replies").getByText("Added the command.").waitFor()
    await answered.getByRole("button", { name: "Resolve" }).click()
    await answered.getByText(`Resolved by ${reviewer.displayName}`).waitFor()
    await b.page.getByRole("button", { name: "Approve" }).click()
    await b.page.getByText(`${reviewer.displayName}: approved`).waitFor()
    await verdict.getByText("Merging is allowed.").waitFor()
    await b.page.getByRole("button", { name: "Merge", exact: true }).click()
    await b.page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
    await b.page.getByText(`Merged by ${reviewer.displayName}`).waitFor()
    await captureAllPairs(b.page, "reviewers-day-merged")
    // Wes is told by email.
    const merged = await mailing.inbox().waitFor((message) => message.to.includes(writer.email) && message.raw.includes("merged"))
    expect(merged.raw).toContain(review)
    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
  } catch (error) {
    await a.page.screenshot({ path: `${artifacts}reviewers-day-failure-writer.png`, fullPage: true })
    await b.page.screenshot({ path: `${artifacts}reviewers-day-failure-reviewer.png`, fullPage: true })
    throw new Error(`${String(error)}\nmails: ${mailing.inbox().received.map((m) => m.raw.slice(0, 1500)).join('\n----\n')}\nproblems: ${[...a.problems, ...b.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
  }

  // What the team checks through the API: merged, the comments on their blocks, the reviews.
  const after = await api<{ status: string; mergedBy?: { displayName: string } }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}`)
  expect([after.status, after.mergedBy?.displayName]).toEqual(["merged", reviewer.displayName])
  const main = await api<{ markdown?: string }>(url, "GET", `/spaces/${space.id}/content/page/${installPage!.id}?format=markdown`)
  expect(main.markdown).toContain("Back up the database before you upgrade. Run pg_dump first.")
  const comments = (await api<{ items: ReadonlyArray<Comment> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/comments?format=markdown`)).items
  const onBlock = (words: string) => comments.find((c) => c.body.markdown === words)
  expect(onBlock("Say how to back it up.")?.target.page?.id).toBe(installPage!.id)
  expect(decodeURIComponent(onBlock("Say how to back it up.")?.target.node?.id ?? "")).toContain("Back up the database")
  expect([onBlock("Say how to back it up.")?.status, onBlock("Say how to back it up.")?.replies]).toEqual(["resolved", 1])
  expect(decodeURIComponent(onBlock("Pin the version here.")?.target.node?.id ?? "")).toContain("npm install quire")
  expect(onBlock("Pin the version here.")?.status).toBe("open")
  expect(onBlock("Two things to fix, see beside the blocks.")?.target.node).toBeUndefined()
  const reviews = (await api<{ items: ReadonlyArray<{ status: string; outdated: boolean; reviewer: { displayName: string } }> }>(url, "GET",
    `/spaces/${space.id}/change-requests/${cr.id}/reviews`)).items
  expect(reviews.map((r) => [r.reviewer.displayName, r.status, r.outdated]).toSorted()).toEqual([
    [reviewer.displayName, "approved", false],
    [reviewer.displayName, "changes-requested", true]
  ])
  expect(referencePage.id).not.toBe("")
})
