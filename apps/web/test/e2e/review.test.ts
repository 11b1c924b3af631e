/**
 * Reviewing: Ada (the administrator) opens a change request through /v1; Rita, a second member in
 * her own browser context, opens its review, sees the rendered diff, comments on a block in the
 * box that opens beside it (the thread stays beside the block, under it at 390 px; the right panel
 * lists it with a link back, the participants and the verdicts) and asks for changes, mentioning Ada; Ada reacts, replies, resolves and reopens the thread; Rita approves;
 * Ada merges. Then a change request whose lines on two pages main also changed: Ada updates it from
 * main, resolves each conflict in the page (main's side, hers, her own text), and merges.
 */
import { expect, inject, it } from "vitest"
import type { Locator, Page } from "playwright-core"
import { crc32, deflateSync } from "node:zlib"
import { captureOtherPairs, captureScreen, expectAccessible, open, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

interface PageRead { readonly id: string; readonly markdown?: string; readonly title: string }

const seedSpace = async (title: string) => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Guide" })
  const seed = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Seed" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/content`, {
    changes: [{ operation: "insert_page", title: "Intro", slug: "intro", document: { markdown: "Alpha line.\n\nBeta line.\n" } }]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${seed.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  return { org, space, page: pages.pages.find((p) => p.title === "Intro")! }
}

const editIn = async (spaceId: string, pageId: string, subject: string, markdown: string) => {
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${spaceId}/change-requests`, { subject })
  await api(url, "POST", `/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes: [{ operation: "update_page", page: pageId, document: { markdown } }] })
  return cr
}

/** Types `@` and the start of a name in a comment box, picks the member from the listbox with the keyboard. */
const mention = async (page: Page, box: Locator, typed: string, name: string) => {
  await box.pressSequentially(typed)
  const option = page.getByRole("listbox", { name: "Members to mention" }).getByRole("option", { name: new RegExp(name) })
  await option.waitFor()
  expect(await option.getAttribute("aria-selected")).toBe("true")
  await box.press("Enter")
  await option.waitFor({ state: "detached" })
}

/** Rita's thread on the review. */
const thread = (p: Page) => p.getByRole("article", { name: "Comment by Rita Reviewer" })

/** A page whose first and last lines are given, four lines apart (two separate hunks when both change). */
const lines = (first: string, last: string) => `${first}\n\nTwo.\n\nThree.\n\nFour.\n\nFive.\n\n${last}\n`

it("two members review a change request: diff, block comment, mentions, reactions, resolve, changes requested, reply, approval, merge", async () => {
  const { org, space, page } = await seedSpace("Review Org")
  const cr = await editIn(space.id, page.id, "Reword beta", "Alpha **line**.\n\nBeta line changed.\n")
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "review" })

  const a = await open(browser(), url)
  const b = await open(browser(), url)
  try {
    const joined = await b.context.request.post(`${url}/auth/invites/${org.id}.${link.id}/accept`, {
      data: { displayName: "Rita Reviewer", email: "rita@quire.test", password: "a password long enough" },
      headers: { origin: url }
    })
    expect(joined.status()).toBe(200)
    await signInAsAdmin(a, url)
    const review = `/s/${space.id}/~/changes/${cr.number}/~/review`

    // Ada asks Rita for a review, then withdraws the request.
    await a.page.goto(review)
    await a.page.getByRole("heading", { name: "Reword beta" }).waitFor()
    await a.page.getByLabel("Ask for a review").selectOption({ label: "Rita Reviewer" })
    await a.page.getByRole("button", { name: "Request review" }).click()
    await a.page.getByText("Rita Reviewer: review requested").waitFor()
    await a.page.getByRole("button", { name: "Withdraw the review request of Rita Reviewer" }).click()
    await a.page.getByText("Rita Reviewer: review requested").waitFor({ state: "detached" })
    await a.page.getByText("No reviews yet.").waitFor()

    // Rita sees the rendered diff (a bolded word counts as a change), comments on the changed block mentioning Ada, asks for changes.
    await b.page.goto(review)
    await b.page.getByRole("heading", { name: "Reword beta" }).waitFor()
    await b.page.locator("ins", { hasText: "changed" }).first().waitFor()
    await b.page.locator(".review-row", { hasText: "Formatting changed" }).locator(".review-formatted strong", { hasText: "line" }).waitFor()
    expect(await b.page.locator(".review-changed").count()).toBe(2)
    await b.page.getByRole("button", { name: "Side by side" }).click()
    await b.page.locator(".review-split-row .review-added").first().waitFor()
    await b.page.getByRole("button", { name: "Markdown" }).click()
    await b.page.locator(".review-line-added", { hasText: "Beta line changed." }).waitFor()
    await b.page.getByRole("button", { name: "Inline" }).click()
    await b.page.getByRole("button", { name: "Next change" }).click()
    const betaRow = b.page.locator(".review-row", { hasText: "Beta line" })
    await betaRow.getByRole("button", { name: /Comment on block/ }).click()
    // The box opens beside the block, with the focus in it.
    const box = betaRow.getByLabel("Comment on this block")
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true)
    await box.fill("Say what changed, ")
    await mention(b.page, box, "@ad", "Ada Admin")
    expect(await box.inputValue()).toMatch(/^Say what changed, @\[Ada Admin\]\(user:[^)]+\) $/)
    await box.pressSequentially("please.")
    await betaRow.getByRole("button", { name: "Post comment" }).click()
    // The thread stays beside its block (under it at 390 px), and the server has it on that block.
    const beside = betaRow.getByRole("article", { name: "Comment by Rita Reviewer" })
    await beside.locator(".mention-chip", { hasText: "@Ada Admin" }).waitFor()
    const [stored] = (await api<{ items: ReadonlyArray<{ body: { markdown?: string }; target: { page?: { id: string }; node?: { id: string } } }> }>(url, "GET",
      `/spaces/${space.id}/change-requests/${cr.id}/comments?format=markdown`)).items
    expect(stored?.target.page?.id).toBe(page.id)
    expect(decodeURIComponent(stored?.target.node?.id ?? "")).toContain("Beta line")
    expect(stored?.body.markdown).toMatch(/^Say what changed, @\[Ada Admin\]\(user:[^)]+\) please\.$/)
    const block = (await betaRow.locator(".review-row-block").boundingBox())!
    expect((await beside.boundingBox())!.x).toBeGreaterThanOrEqual(block.x + block.width)
    await b.page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(async () => (await beside.boundingBox())!.y >= (await betaRow.locator(".review-row-block").boundingBox())!.y + 10).toBe(true)
    await b.page.setViewportSize({ width: 1280, height: 800 })
    await b.page.getByRole("button", { name: "Request changes" }).click()
    await b.page.getByText("Rita Reviewer: requested changes").waitFor()
    // The right panel: the participants, the reviewers' verdicts, and the thread with a link to its block.
    const panel = b.page.getByRole("complementary", { name: "Page details" })
    await panel.getByRole("listitem").filter({ hasText: /^Rita Reviewer Changes requested$/ }).waitFor()
    await panel.getByRole("listitem").filter({ hasText: /^Ada Admin \(author/ }).waitFor()
    const toThread = panel.getByRole("link", { name: "Rita Reviewer: Say what changed, @Ada Admin please." })
    await toThread.waitFor()
    await panel.getByText("On Intro: “Beta line").waitFor()
    await b.page.evaluate(() => window.scrollTo(0, 0))
    await toThread.click()
    await expect.poll(() => beside.evaluate((el) => el.parentElement === document.activeElement)).toBe(true)
    await expectAccessible(b.page, "Rita's review")
    // One main landmark: the review is the shell's main content, not a second <main> inside it.
    expect(await b.page.locator("main").count()).toBe(1)

    // Ada reacts, replies mentioning Rita (the reply nests under the comment), resolves and reopens the thread.
    await a.page.reload()
    await thread(a.page).getByText("please.").waitFor()
    await thread(a.page).getByRole("button", { name: "Add a reaction to Rita Reviewer's comment" }).click()
    await thread(a.page).getByRole("button", { name: "React with thumbs up" }).click()
    const thumbs = thread(a.page).getByRole("button", { name: "👍 1: Ada Admin" })
    await thumbs.waitFor()
    expect(await thumbs.getAttribute("aria-pressed")).toBe("true")
    const reply = thread(a.page).getByLabel("Reply", { exact: true })
    await reply.fill("Done, see the new wording. ")
    await mention(a.page, reply, "@rit", "Rita Reviewer")
    await thread(a.page).getByRole("button", { name: "Reply", exact: true }).click()
    await thread(a.page).locator(".thread-replies").getByText("Done, see the new wording.").waitFor()
    await thread(a.page).locator(".thread-replies .mention-chip", { hasText: "@Rita Reviewer" }).waitFor()
    await thread(a.page).getByRole("button", { name: "Resolve" }).click()
    await thread(a.page).getByText("Resolved by Ada Admin").waitFor()
    await a.page.locator(".review-changed").first().waitFor()
    // Screenshots as Ada: at 390 px the shell's account button shows Rita's initials only, which axe flags (not this screen's).
    await captureScreen(a.page, "review")
    await thread(a.page).getByRole("button", { name: "Reopen" }).click()
    await thread(a.page).getByText("Resolved by Ada Admin").waitFor({ state: "detached" })

    // Rita takes the thumbs up too, and reacts to the reply; then removes her thumbs up again; approves; Ada merges.
    await b.page.reload()
    await thread(b.page).getByText("Done, see the new wording.").waitFor()
    await thread(b.page).getByRole("button", { name: "👍 1: Ada Admin" }).click()
    await thread(b.page).getByRole("button", { name: "👍 2: Ada Admin and Rita Reviewer" }).waitFor()
    await thread(b.page).getByRole("button", { name: "Add a reaction to Ada Admin's answer" }).click()
    await thread(b.page).getByRole("button", { name: "React with party" }).click()
    await thread(b.page).locator(".thread-replies").getByRole("button", { name: "🎉 1: Rita Reviewer" }).waitFor()
    await thread(b.page).getByRole("button", { name: "👍 2: Ada Admin and Rita Reviewer" }).click()
    await thread(b.page).getByRole("button", { name: "👍 1: Ada Admin" }).waitFor()
    await b.page.getByLabel("Review comment (optional)").fill("Reads well now, thanks ")
    await mention(b.page, b.page.getByLabel("Review comment (optional)"), "@ad", "Ada Admin")
    await b.page.getByRole("button", { name: "Approve" }).click()
    await b.page.getByText("Rita Reviewer: approved").waitFor()
    await b.page.locator(".review-thread", { hasText: "Reads well now, thanks" }).locator(".mention-chip", { hasText: "@Ada Admin" }).waitFor()
    await a.page.reload()
    await a.page.getByText("Rita Reviewer: approved").waitFor()
    // Ada wrote it: she is not offered a review of her own change request.
    await a.page.getByText("You wrote this change request: someone else reviews it.").waitFor()
    expect(await a.page.getByRole("button", { name: /^(Approve|Request changes)$/ }).count()).toBe(0)
    await a.page.getByRole("button", { name: "Merge", exact: true }).click()
    await a.page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
    // Merged, the change request is read-only: no review or merge is offered any more.
    await a.page.getByText("This change request is merged into the space").waitFor()
    expect(await a.page.getByRole("status").filter({ hasText: "This change request is merged" }).textContent()).toMatch(/^Merged by Ada Admin /)
    expect(await a.page.getByRole("button", { name: /^(Approve|Request changes|Merge|Update from main)$/ }).count()).toBe(0)
    const main = await api<PageRead>(url, "GET", `/spaces/${space.id}/content/page/${page.id}?format=markdown`)
    expect(main.markdown).toContain("Beta line changed.")
    expect(a.problems).toEqual([])
    expect(b.problems).toEqual([])
  } catch (error) {
    await b.page.screenshot({ path: "test/artifacts/review-failure-b.png", fullPage: true })
    await a.page.screenshot({ path: "test/artifacts/review-failure-a.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${[...a.problems, ...b.problems].join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
    await b.context.close()
  }
})

it("resolves every conflict with main in the page (two on one page, one on another: keep main, keep the change, edit), then merges", async () => {
  const { space, page } = await seedSpace("Conflict Org")
  const setup = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "More pages" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${setup.id}/content`, {
    changes: [
      { operation: "update_page", page: page.id, document: { markdown: lines("One.", "Six.") } },
      { operation: "insert_page", title: "Other", slug: "other", document: { markdown: "Left.\n\nRight.\n" } }
    ]
  })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${setup.id}/merge`)
  const pages = await api<{ pages: ReadonlyArray<PageRead> }>(url, "GET", `/spaces/${space.id}/content/pages`)
  const other = pages.pages.find((p) => p.title === "Other")!
  const both = async (subject: string, side: string) => {
    const made = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject })
    await api(url, "POST", `/spaces/${space.id}/change-requests/${made.id}/content`, {
      changes: [
        { operation: "update_page", page: page.id, document: { markdown: lines(`One ${side}.`, `Six ${side}.`) } },
        { operation: "update_page", page: other.id, document: { markdown: `Left ${side}.\n\nRight.\n` } }
      ]
    })
    return made
  }
  const cr = await both("Both ends from the change", "CR")
  const onMain = await both("Both ends on main", "main")
  await api(url, "POST", `/spaces/${space.id}/change-requests/${onMain.id}/merge`)
  const a = await open(browser(), url, { expected: [/status of 409 \(Conflict\)/] })
  try {
    await signInAsAdmin(a, url)
    // A thread with a mention and a reply, so the screenshots show threads beside the conflicts.
    const me = await api<{ id: string }>(url, "GET", "/user")
    const comment = await api<{ id: string }>(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/comments`, {
      body: { markdown: `@[Ada Admin](user:${me.id}) both ends changed on main too.` }
    })
    await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/comments/${comment.id}/replies`, { body: { markdown: "Resolving in the page." } })
    await a.page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await a.page.getByRole("heading", { name: "Both ends from the change" }).waitFor()
    await a.page.locator(".thread-replies").getByText("Resolving in the page.").waitFor()
    await a.page.getByRole("button", { name: "Update from main" }).click()
    await a.page.getByRole("heading", { name: "Conflicts" }).waitFor()
    await a.page.getByText("3 conflicts with main on 2 pages").waitFor()
    expect(await a.page.getByRole("button", { name: "Merge", exact: true }).isDisabled()).toBe(true)
    await a.page.getByText(/conflicts? with main: resolve them/).first().waitFor()
    const first = a.page.getByRole("group", { name: "Conflict 1 of 2 on Intro" })
    const second = a.page.getByRole("group", { name: "Conflict 2 of 2 on Intro" })
    const third = a.page.getByRole("group", { name: "Conflict on Other" })
    await first.getByText("One main.").waitFor()
    await first.getByText("One CR.").waitFor()
    await second.getByText("Six main.").waitFor()
    await second.getByText("Six CR.").waitFor()
    await third.getByText("Left main.").waitFor()
    await third.getByText("Left CR.").waitFor()
    await first.getByLabel("Keep main").check()
    await second.getByLabel("Keep this change").check()
    const resolveButton = a.page.getByRole("button", { name: "Resolve conflicts" })
    expect(await resolveButton.isDisabled()).toBe(true)
    await third.getByLabel("Edit").check()
    await third.getByLabel("Merged text").fill("Left merged.")
    await a.page.locator(".review-changed").first().waitFor()
    await captureScreen(a.page, "review-conflicts")
    await resolveButton.click()
    await a.page.getByRole("heading", { name: "Conflicts" }).waitFor({ state: "detached" })
    await a.page.getByRole("button", { name: "Merge", exact: true }).click()
    await a.page.getByTestId("status").filter({ hasText: "merged" }).waitFor()
    const intro = await api<PageRead>(url, "GET", `/spaces/${space.id}/content/page/${page.id}?format=markdown`)
    expect(intro.markdown).toContain("One main.")
    expect(intro.markdown).toContain("Six CR.")
    const second2 = await api<PageRead>(url, "GET", `/spaces/${space.id}/content/page/${other.id}?format=markdown`)
    expect(second2.markdown).toContain("Left merged.")
    expect(a.problems).toEqual([])
  } catch (error) {
    await a.page.screenshot({ path: "test/artifacts/review-conflicts-failure.png", fullPage: true })
    throw new Error(`${String(error)}\nproblems: ${a.problems.join("\n")}`, { cause: error })
  } finally {
    await a.context.close()
  }
})

it("draws an expandable in the diff with its own summary, as a reader sees it", async () => {
  const { space, page } = await seedSpace("Expandable Org")
  const cr = await editIn(space.id, page.id, "Add a checklist",
    "Alpha line.\n\nBeta line.\n\n<details>\n\n<summary>Before you start</summary>\n\nCheck the cables.\n\n</details>\n")
  const a = await open(browser(), url)
  try {
    await signInAsAdmin(a, url)
    await a.page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    const added = a.page.locator(".review-added details")
    await added.locator("summary", { hasText: "Before you start" }).waitFor()
    expect(await added.locator("summary").count()).toBe(1)
    await added.getByText("Check the cables.").waitFor()
    expect(a.problems).toEqual([])
  } finally {
    await a.context.close()
  }
})

it("comments on words selected in a block: the comment is anchored on them and shows them beside the block", async () => {
  const { space, page } = await seedSpace("Selection Org")
  const cr = await editIn(space.id, page.id, "Reword alpha", "Alpha line, now with the cables named.\n\nBeta line.\n")
  const a = await open(browser(), url)
  try {
    await signInAsAdmin(a, url)
    await a.page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    const row = a.page.locator(".review-row", { hasText: "now with the cables" })
    const block = row.locator(".review-row-block")
    await block.locator("ins", { hasText: "cables" }).waitFor()
    // Select "the cables" with the mouse: from the start of "the" to the end of "cables".
    const words = await block.evaluate((el) => {
      // The words may span text nodes (each inserted word is marked): find them in the text of all.
      const nodes: Array<Text> = []
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) nodes.push(node as Text)
      const whole = nodes.map((node) => node.data).join("")
      const from = whole.indexOf("the cables")
      const to = from + "the cables".length
      const range = document.createRange()
      let seen = 0
      for (const node of nodes) {
        const end = seen + node.data.length
        if (from >= seen && from < end) range.setStart(node, from - seen)
        if (to > seen && to <= end) range.setEnd(node, to - seen)
        seen = end
      }
      getSelection()!.removeAllRanges()
      getSelection()!.addRange(range)
      return getSelection()!.toString()
    })
    expect(words).toBe("the cables")
    await block.dispatchEvent("mouseup")
    await row.getByRole("button", { name: "Comment on the selection “the cables”" }).click()
    const box = row.getByLabel("Comment on this block")
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true)
    await box.fill("Which cables?")
    await row.getByRole("button", { name: "Post comment" }).click()
    const beside = row.getByRole("article", { name: "Comment by Ada Admin" })
    await beside.getByText("“the cables”").waitFor()
    await beside.getByText("Which cables?").waitFor()
    // Stored on those words: their offset and length in the block's text, and the quote.
    const [stored] = (await api<{ items: ReadonlyArray<{ target: { node?: { id: string } } }> }>(url, "GET",
      `/spaces/${space.id}/change-requests/${cr.id}/comments`)).items
    const node = stored?.target.node?.id ?? ""
    const offset = "Alpha line, now with ".length
    expect(node).toMatch(new RegExp(`^qa1:\\d+:[0-9a-z]+:${offset}:10:`))
    expect(decodeURIComponent(node.split(":").slice(5).join(":"))).toBe("the cables")
    await captureScreen(a.page, "review-selection-comment")
    await captureOtherPairs(a.page, "review-selection-comment")
    expect(a.problems).toEqual([])
  } finally {
    await a.context.close()
  }
})

/** A PNG chunk: its length, type, data and CRC. */
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])))
  return Buffer.concat([length, Buffer.from(type), data, crc])
}

/** Waits for an image to have loaded its picture (a broken one has no natural width); it loads lazily, so it is brought into view. */
const loaded = async (image: Locator) => {
  await image.waitFor()
  await image.scrollIntoViewIfNeeded()
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0)
}

/** A PNG of `width` × `height` pixels of one colour (the image the change request adds). */
const png = (width: number, height: number): string => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([52, 120, 200]))])
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]).toString("base64")
}

it("draws an added image (loaded, with its caption), tabs with their titles, cards, titled code, a formula and an OpenAPI operation in the diff", async () => {
  const { space, page } = await seedSpace("Blocks Org")
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Add the install guide" })
  const stored = await api<{ files: ReadonlyArray<{ id: string }> }>(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [
      { operation: "insert_files", files: [{ name: "diagram.png", contentType: "image/png", base64: png(240, 120) }] },
      { operation: "insert_files", files: [{ name: "cover.png", contentType: "image/png", base64: png(200, 100) }] }
    ]
  })
  const markdown = [
    "Alpha line.", "", "Beta line.", "",
    `<figure><img src="/files/${stored.files[0]!.id}" alt="The architecture"><figcaption><p>How the parts fit</p></figcaption></figure>`, "",
    "{% tabs %}", "{% tab title=\"macOS\" %}", "Install with Homebrew.", "{% endtab %}", "", "{% tab title=\"Windows\" %}", "Install with winget.", "{% endtab %}", "{% endtabs %}", "",
    "<table data-view=\"cards\"><thead><tr><th></th><th></th><th data-hidden data-card-cover data-type=\"files\"></th></tr></thead><tbody><tr><td><strong>Quick start</strong></td><td>Running in five minutes.</td><td><a href=\".gitbook/assets/cover.png\">cover.png</a></td></tr></tbody></table>", "",
    "{% code title=\"install.sh\" %}", "```bash", "npm install quire", "```", "{% endcode %}", "",
    "$$", "E = mc^2", "$$", "",
    "{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}", "[OpenAPI petstore](https://example.com/openapi.json)", "{% endopenapi-operation %}", ""
  ].join("\n")
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, { changes: [{ operation: "update_page", page: page.id, document: { markdown } }] })
  const a = await open(browser(), url)
  try {
    await signInAsAdmin(a, url)
    await a.page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    const added = a.page.locator(".review-unified .review-added")
    // The image loads from the stored file, with its caption.
    await loaded(added.locator("figure img[alt='The architecture']"))
    await added.locator("figcaption", { hasText: "How the parts fit" }).waitFor()
    // Every tab's title, above its content.
    for (const [title, text] of [["macOS", "Install with Homebrew."], ["Windows", "Install with winget."]] as const) {
      const tab = added.getByRole("group", { name: title })
      await tab.locator(".tab-label", { hasText: title }).waitFor()
      await tab.getByText(text).waitFor()
    }
    // The card with its title, its description and its cover (a `.gitbook/assets/` name).
    const card = added.locator("table.cards tr")
    await card.getByText("Quick start").waitFor()
    await card.getByText("Running in five minutes.").waitFor()
    await loaded(card.locator(".review-card-cover img"))
    // The code's title, the formula's TeX, the operation's method and path.
    await added.locator(".code-title", { hasText: "install.sh" }).waitFor()
    await added.locator(".code-block code", { hasText: "npm install quire" }).waitFor()
    await added.getByRole("math", { name: "Formula (TeX)" }).getByText("E = mc^2").waitFor()
    // Typeset as the site shows it, above its TeX.
    await added.locator(".review-math-typeset .katex-display").waitFor()
    expect(await added.locator(".review-math-typeset .katex-mathml annotation").textContent()).toBe("E = mc^2")
    await added.locator(".openapi-header", { hasText: "GET" }).locator(".openapi-path", { hasText: "/pets" }).waitFor()
    await captureScreen(a.page, "review-blocks")
    await captureOtherPairs(a.page, "review-blocks")
    // Side by side draws them the same way.
    await a.page.getByRole("button", { name: "Side by side" }).click()
    const right = a.page.locator(".review-split .review-added")
    await loaded(right.locator("figure img[alt='The architecture']"))
    await right.getByRole("group", { name: "Windows" }).locator(".tab-label").waitFor()
    await captureScreen(a.page, "review-blocks-split")
    expect(a.problems).toEqual([])
  } finally {
    await a.context.close()
  }
})
