/**
 * Proving an email in the browser, with mail through a real SMTP server this test starts
 * (smtp-server) and the Quire server's nodemailer (QUIRE_SMTP_URL): a squatter who
 * signed up with alice@bigcorp.test through an invite link is offered nothing of BigCorp's, and
 * the real Alice, following the link of the invitation mailed to her, claims the address and
 * joins; a person asks for a confirmation link from the banner (by keyboard), and the link
 * confirms the email; a person signed in with another email is refused an invitation, with Sign
 * out beside the refusal. Each screen is captured in light and dark at 1280 and 390 px, with axe.
 */
import { beforeAll, expect, it } from "vitest"
import { captureScreen, open, sharedBrowser } from "./browser.ts"
import { mailingServer } from "./mailing-server.ts"
import { api, setupAdmin } from "./servers.ts"

const browser = sharedBrowser()
const mailing = mailingServer(setupAdmin)
let url: string
beforeAll(() => void (url = mailing.url()))

/** The link of the newest message to `to` whose text matches `path`, waiting up to 10 s for it. */
const linkMailedTo = (to: string, path: RegExp): Promise<URL> => mailing.inbox().linkMailedTo(to, path)

const post = (path: string, body: unknown, cookie?: string) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, ...(cookie === undefined ? {} : { cookie }) },
    body: JSON.stringify(body)
  })

/** A newcomer signs up through an invite link of `org` (proving nothing); their session cookie. */
const signUpThroughLink = async (org: string, person: { displayName: string; email: string; password: string }) => {
  await api(url, "PATCH", `/orgs/${org}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org}/link-invites`, { role: "read" })
  const response = await post(`/auth/invites/${org}.${link.id}/accept`, person)
  expect(response.status).toBe(200)
  return (response.headers.get("set-cookie") ?? "").split(";")[0]!
}

it("offers a squatter nothing of BigCorp's, and the real Alice claims her address through her mailed invitation", async () => {
  const trap = await api<{ id: string }>(url, "POST", "/orgs", { title: "Trap" })
  const squatter = await signUpThroughLink(trap.id, { displayName: "Not Alice", email: "alice@bigcorp.test", password: "the squatter's password" })
  const session = await fetch(`${url}/auth/session`, { headers: { cookie: squatter } }).then((r) => r.json() as Promise<{ user: { emailVerified: boolean } }>)
  expect(session.user.emailVerified).toBe(false)

  const bigcorp = await api<{ id: string }>(url, "POST", "/orgs", { title: "BigCorp" })
  const invited = await api<{ users: ReadonlyArray<string>; invited: number }>(url, "POST", `/orgs/${bigcorp.id}/invites`, { emails: ["alice@bigcorp.test"], role: "admin" })
  expect(invited.invited).toBe(1)
  const link = await linkMailedTo("alice@bigcorp.test", /\/invite\//)
  // The squatter is offered nothing.
  const offers = await fetch(`${url}/v1/user/invites`, { headers: { cookie: squatter } }).then((r) => r.json() as Promise<{ items: ReadonlyArray<unknown> }>)
  expect(offers.items).toEqual([])

  const { page, problems, context } = await open(browser(), url)
  try {
    await page.goto(link.pathname)
    await page.getByRole("heading", { name: "Join BigCorp" }).waitFor()
    await page.getByText("This invitation came to alice@bigcorp.test: joining through it also confirms that this address is yours.").waitFor()
    await page.getByLabel("Your name").fill("Alice")
    await page.getByLabel("Password").fill("alice's very own password")
    await page.getByRole("button", { name: "Create the account and join" }).click()
    await page.getByRole("heading", { name: "BigCorp", exact: true }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/o/${bigcorp.id}`)
    // Confirmed: no banner asks for it.
    expect(await page.locator(".verify-banner").count()).toBe(0)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
  // The squatter's session ended, and their password no longer signs in.
  expect((await fetch(`${url}/auth/session`, { headers: { cookie: squatter } })).status).toBe(401)
  expect((await post("/auth/sign-in", { email: "alice@bigcorp.test", password: "the squatter's password" })).status).toBe(401)
  const members = await api<{ items: ReadonlyArray<{ role: string; user: { email?: string; displayName: string } }> }>(url, "GET", `/orgs/${bigcorp.id}/members`)
  expect(members.items.map((m) => [m.user.displayName, m.role])).toContainEqual(["Alice", "admin"])
})

it("confirms an email through the link the banner sends", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Banner Org" })
  const cookie = await signUpThroughLink(org.id, { displayName: "Bea", email: "bea@quire.test", password: "bea's long password" })
  // The used link's refusal is the server's 400, which the browser logs; nothing else may be.
  const { page, problems, context } = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/] })
  try {
    const [name, value] = cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url }])
    await page.goto(`/o/${org.id}`)
    const banner = page.getByRole("region", { name: "Confirm your email" })
    await banner.getByText("Your email bea@quire.test is not confirmed").waitFor()
    await page.getByRole("heading", { name: "Banner Org", exact: true }).waitFor()
    await captureScreen(page, "verify-banner")
    // By keyboard: Tab from the top of the page reaches the banner's button, Enter sends the link.
    const send = banner.getByRole("button", { name: "Send me a link" })
    // The live region is on the page before the answer, so a screen reader announces what fills it.
    const status = banner.getByRole("status")
    expect(await status.count()).toBe(1)
    await page.locator("body").focus()
    let reached = false
    for (let presses = 0; presses < 20 && !reached; presses++) {
      await page.keyboard.press("Tab")
      reached = await send.evaluate((button) => button === document.activeElement)
    }
    expect(reached, "Tab reaches the banner's button").toBe(true)
    await page.keyboard.press("Enter")
    await status.getByText("We sent a link to bea@quire.test: open it to confirm your email.").waitFor()
    // Focus is not dropped to the page when the button goes: it lands on the answer.
    expect(await status.evaluate((element) => element === document.activeElement)).toBe(true)
    await captureScreen(page, "verify-banner-sent")
    const link = await linkMailedTo("bea@quire.test", /\/verify-email\?token=/)
    await page.goto(`${link.pathname}${link.search}`)
    await page.getByText("Thank you: bea@quire.test is confirmed.").waitFor()
    await captureScreen(page, "verify-email-confirmed")
    // Opened again by Bea, now confirmed: nothing is wrong, nothing is left to do.
    await page.reload()
    await page.getByText("Your email bea@quire.test is confirmed already: this link is no longer needed.").waitFor()
    expect(await page.getByRole("alert").count()).toBe(0)
    await captureScreen(page, "verify-email-again")
    // Used once: opened where nobody is signed in, it says so and how to get a new one.
    const signedOut = await open(browser(), url, { expected: [/status of 400 \(Bad Request\)/] })
    try {
      await signedOut.page.goto(`${link.pathname}${link.search}`)
      const error = signedOut.page.getByRole("alert")
      await error.waitFor()
      expect(await error.innerText()).toBe("This link is unknown, used or expired: ask for a new one.")
      await signedOut.page.getByText("Sign in, then choose “Send me a link” at the top of the page for a new one.").waitFor()
      await signedOut.page.getByRole("link", { name: "Sign in" }).waitFor()
      await captureScreen(signedOut.page, "verify-email-used")
      expect(signedOut.problems).toEqual([])
    } finally {
      await signedOut.context.close()
    }
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Banner Org", exact: true }).waitFor()
    expect(await page.locator(".verify-banner").count()).toBe(0)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})

it("tells a signed-in person of another email that the invitation is not theirs, and offers no Join", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Other Org" })
  const cookie = await signUpThroughLink(org.id, { displayName: "Dan", email: "dan@quire.test", password: "dan's long password" })
  const target = await api<{ id: string }>(url, "POST", "/orgs", { title: "Carol's Team" })
  await api(url, "POST", `/orgs/${target.id}/invites`, { emails: ["carol@quire.test"], role: "edit" })
  const link = await linkMailedTo("carol@quire.test", /\/invite\//)
  const { page, problems, context } = await open(browser(), url)
  try {
    const [name, value] = cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url }])
    await page.goto(link.pathname)
    await page.getByRole("heading", { name: "Join Carol's Team" }).waitFor()
    const refusal = page.getByRole("alert")
    await refusal.waitFor()
    expect(await refusal.innerText()).toBe("You are signed in as dan@quire.test, and this invitation is for carol@quire.test: if that address is yours, sign out here to join with it.")
    // What joining would do is not said to a person who cannot join.
    expect(await page.getByText("joining through it also confirms").count()).toBe(0)
    // Nothing offers to join as Dan: the only way on is to sign out, offered next to the refusal.
    expect(await page.getByRole("button", { name: "Join" }).count()).toBe(0)
    await captureScreen(page, "invite-other-email")
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("Your name").waitFor()
    expect(await page.getByLabel("Email").inputValue()).toBe("carol@quire.test")
    await page.getByText("This invitation came to carol@quire.test: joining through it also confirms that this address is yours.").waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
