/**
 * Style guides in the browser, on the shared server (no model): an admin starts a site's style
 * guide from a template in the site dashboard's Style guide tab; in a change request's review,
 * "Check style" runs the guide's rules that need no model, and each finding is a review comment
 * naming the rule and a fix, which the review shows. What the server has is read back through /v1.
 */
import { expect, inject, it } from "vitest"
import { captureAllPairs, open, openSiteTab, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { api } from "./servers.ts"

const browser = sharedBrowser()

interface Comment { readonly id: string; readonly body: { readonly markdown?: string }; readonly target: { readonly page?: { readonly title: string }; readonly node?: { readonly id: string } } }

it("an admin starts a guide from a template; Check style on a change request leaves comments that name the rule and a fix", async () => {
  const url = inject("readyServer")
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Style Org" })
  const space = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/spaces`, { title: "Handbook" })
  const site = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/sites`, { title: "Handbook site", spaces: [space.id] })
  const cr = await api<{ id: string; number: number }>(url, "POST", `/spaces/${space.id}/change-requests`, { subject: "Getting started" })
  await api(url, "POST", `/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ operation: "insert_page", title: "Start", slug: "start", document: { markdown: "Simply open the settings and save them.\n" } }]
  })
  const session = await open(browser(), url)
  const { page, problems, context } = session
  try {
    await signInAsAdmin(session, url)
    await page.goto(`/o/${org.id}/sites/${site.id}`)
    await openSiteTab(page, "Style guide")
    const start = page.getByRole("region", { name: "Start a style guide" })
    await start.getByRole("radio", { name: /Plain language/ }).check()
    await captureAllPairs(page, "styleguide-templates")
    await start.getByRole("button", { name: "Use this template" }).click()
    await expect.poll(async () => {
      const guide = await api<{ template?: string; rules: ReadonlyArray<{ title: string }> }>(url, "GET", `/orgs/${org.id}/sites/${site.id}/styleguide`).catch(() => undefined)
      return guide?.template
    }, { timeout: 30_000 }).toBe("plain-language")
    await page.getByRole("list", { name: "Rules" }).getByText("No filler words").waitFor()
    await captureAllPairs(page, "styleguide-rules")

    await page.goto(`/s/${space.id}/~/changes/${cr.number}/~/review`)
    await page.getByRole("region", { name: "Style guide" }).getByRole("button", { name: "Check style" }).click()
    let comments: ReadonlyArray<Comment> = []
    await expect.poll(async () => {
      comments = (await api<{ items: ReadonlyArray<Comment> }>(url, "GET", `/spaces/${space.id}/change-requests/${cr.id}/comments?limit=100`)).items
      return comments.some((c) => (c.body.markdown ?? "").includes("Style guide · No filler words"))
    }, { timeout: 60_000 }).toBe(true)
    const filler = comments.find((c) => (c.body.markdown ?? "").includes("No filler words"))!
    expect(filler.body.markdown).toContain("Suggested: Open the settings and save them.")
    expect(filler.target.page?.title).toBe("Start")
    expect(filler.target.node?.id).toMatch(/^qa1:0:[0-9a-z]+:0:6:Simply$/)
    // The review shows the comment beside the block it is about.
    await page.getByText("Suggested: Open the settings and save them.").first().waitFor()
    await page.getByRole("region", { name: "Style guide" }).getByRole("status").getByText(/Checked without a model/).waitFor()
    await captureAllPairs(page, "styleguide-check-style")

    // The site's dashboard lists the check and its findings.
    await page.goto(`/o/${org.id}/sites/${site.id}/styleguide`)
    const checks = page.getByRole("list", { name: "Checks" })
    await checks.getByText("Change request check").waitFor()
    await checks.getByText("Findings of this check").click()
    await checks.getByRole("list", { name: "Findings" }).getByText("No filler words").waitFor()
    await captureAllPairs(page, "styleguide-checks")
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
