/**
 * First-run setup on a server no one has set up: every app route shows the setup screen; a wrong
 * setup code is said next to that field; the right one makes the administrator's account and
 * signs them in.
 */
import { expect, inject, it } from "vitest"
import { captureScreen, open, sharedBrowser } from "./browser.ts"
import { setupCode } from "./servers.ts"

const url = inject("freshServer")
const browser = sharedBrowser()

it("sets up the administrator with the code the server printed", async () => {
  const { page, problems, context } = await open(browser(), url, { expected: [/status of 403 \(Forbidden\)/] })
  try {
    await page.goto("/")
    await page.getByRole("heading", { name: "Set up Quire" }).waitFor()
    await captureScreen(page, "setup")

    await page.getByLabel("Setup code").fill("quire_not_the_code_0000000000000000")
    await page.getByLabel("Your name").fill("Grace Hopper")
    await page.getByLabel("Email").fill("grace@quire.test")
    await page.getByLabel("Password").fill("a long enough password")
    await page.getByRole("button", { name: "Create the account" }).click()
    const error = page.getByRole("alert")
    await error.waitFor()
    expect(await error.innerText()).toMatch(/^Not the setup code/)
    expect(await page.getByLabel("Setup code").getAttribute("aria-invalid")).toBe("true")

    await page.getByLabel("Setup code").fill(setupCode)
    await page.getByRole("button", { name: "Create the account" }).click()
    // Signed in, with no organization yet: the second step.
    await page.getByRole("heading", { name: "Create your organization" }).waitFor()
    await page.getByRole("button", { name: "Grace Hopper" }).waitFor()
    const session = await context.request.get(`${url}/auth/session`)
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe("grace@quire.test")

    // Setup is closed now.
    await page.goto("/setup")
    await page.getByRole("heading", { name: "Setup is done" }).waitFor()
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
