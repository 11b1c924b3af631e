/**
 * Signing in: the app sends a signed-out visitor to the sign-in screen, says a wrong password
 * under the password field, signs in with the right one and lands where they were going; the
 * settings screen lists the sessions and revokes another browser's; signing out leads back to
 * sign-in.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, chooseFromMenu, open, sharedBrowser } from "./browser.ts"
import { admin, api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()

it("signs in after a wrong password, lists the session, signs out", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "Sign-in Org" })
  const { page, problems, context } = await open(browser(), url)
  try {
    await page.goto(`/o/${org.id}`)
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    await captureScreen(page, "sign-in")

    await page.getByLabel("Email").fill(admin.email)
    await page.getByLabel("Password").fill("not the password")
    await page.getByRole("button", { name: "Sign in" }).click()
    const error = page.getByRole("alert")
    await error.waitFor()
    expect(await error.innerText()).toBe("Wrong email or password.")
    // The error sits with the password field and describes it.
    expect(await page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true")
    await captureScreen(page, "sign-in-error")

    await page.getByLabel("Password").fill(admin.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Sign-in Org" }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/o/${org.id}`)

    // Another browser signs in too: the settings list both sessions, and revoking the other ends it.
    const other = await browser().newContext({ baseURL: url })
    const otherSignIn = await other.request.post(`${url}/auth/sign-in`, { data: { email: admin.email, password: admin.password }, headers: { origin: url, "user-agent": "Mozilla/5.0 (Windows NT 10.0) Firefox/140.0" } })
    expect(otherSignIn.status()).toBe(200)
    // The person's menu, by keyboard: ArrowDown opens it on its first entry, Settings and sessions.
    await page.getByRole("button", { name: admin.displayName, exact: true }).focus()
    await page.keyboard.press("ArrowDown")
    const personal = page.getByRole("menu", { name: admin.displayName, exact: true })
    await personal.getByRole("menuitem", { name: "Settings and sessions" }).waitFor()
    expect(await personal.getByRole("menuitemradio", { name: "As the system" }).getAttribute("aria-checked")).toBe("true")
    await captureScreen(page, "user-menu")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Settings and sessions")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Where you are signed in" }).waitFor()
    await page.getByText("(this browser)").waitFor()
    await page.getByText("Firefox on Windows").waitFor()
    await captureScreen(page, "settings")
    await page.getByRole("button", { name: /^Revoke the session of Firefox on Windows/ }).click()
    await page.getByText("Firefox on Windows").waitFor({ state: "detached" })
    expect((await other.request.get(`${url}/auth/session`)).status()).toBe(401)
    await other.close()

    // The theme is chosen there too, and the system's again.
    await chooseFromMenu(page, admin.displayName, "Dark")
    expect(await page.evaluate(() => document.documentElement.dataset["theme"])).toBe("dark")
    await chooseFromMenu(page, admin.displayName, "As the system")
    expect(await page.evaluate(() => document.documentElement.dataset["theme"])).toBeUndefined()
    await chooseFromMenu(page, admin.displayName, "Sign out")
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    const session = await context.request.get(`${url}/auth/session`)
    expect(session.status()).toBe(401)
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
