/**
 * An invitation link: a newcomer opens `/invite/<token>`, sees the organization they are invited
 * to, is told next to the password field when it is too short, then makes their account, joins
 * and lands in the organization, signed in.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, sharedBrowser } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

it("signs a newcomer up through an invitation link", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Invite Org" })
  await api(url, "PATCH", `/orgs/${org.id}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org.id}/link-invites`, { role: "edit" })
  const { page, problems, context } = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/] })
  try {
    await page.goto(`/invite/${org.id}.${link.id}`)
    await page.getByRole("heading", { name: "Join Invite Org" }).waitFor()
    await page.getByText("You are invited as an editor.").waitFor()
    await captureScreen(page, "invite")
    await page.getByLabel("Your name").fill("Nora Newcomer")
    await page.getByLabel("Email").fill("nora@quire.test")
    await page.getByLabel("Password").fill("short")
    await page.getByRole("button", { name: "Create the account and join" }).click()
    const error = page.getByRole("alert")
    await error.waitFor()
    expect(await error.innerText()).toMatch(/^Must be at least \d+ characters/)
    expect(await page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true")

    await page.getByLabel("Password").fill("a password long enough")
    await page.getByRole("button", { name: "Create the account and join" }).click()
    await page.getByRole("heading", { name: "Invite Org", exact: true }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/o/${org.id}`)
    await page.getByRole("button", { name: "Nora Newcomer" }).waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
