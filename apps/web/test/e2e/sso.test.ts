/**
 * Single sign-on from the sign-in screen: an organization with an OpenID Connect provider
 * (oidc-provider on 127.0.0.1, started here) claims an email domain; a person finds it by their
 * work email, signs in at the provider and lands signed in, provisioned into the organization.
 */
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import * as Provider from "../../../../packages/identity/test/support/TestOidcProvider.ts"
import { captureScreen, errorOf, open, sharedBrowser } from "./browser.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()
let idp: Provider.TestOidcProvider
beforeAll(async () => {
  idp = await Provider.start([`${url}/sso/oidc/callback`])
})
afterAll(() => idp.close())

it("finds the organization by a work email and signs in through its OpenID Connect provider", async () => {
  const domain = `sso${Date.now()}.example`
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "SSO Org", emailDomains: [domain] })
  await api(url, "POST", `/orgs/${org.id}/oidc`, { label: "Corporate IdP", discoveryURL: idp.issuer, clientId: Provider.clientId, clientSecret: Provider.clientSecret, defaultRole: "read" })
  const { page, problems, context } = await open(browser(), url)
  try {
    await page.goto("/sign-in")
    await page.getByRole("button", { name: "Use single sign-on" }).click()
    const work = page.getByLabel("Work email")
    await work.fill("someone@unclaimed.example")
    await page.getByRole("button", { name: "Continue" }).click()
    await expect.poll(() => errorOf(work)).toContain("No organization with single sign-on uses this email's domain")
    await work.fill(`ivy@${domain}`)
    await page.getByRole("button", { name: "Continue" }).click()
    const link = page.getByRole("link", { name: "Sign in with Corporate IdP" })
    await link.waitFor()
    await captureScreen(page, "sign-in-sso")
    await link.click()
    await page.getByRole("heading", { name: "Test provider" }).waitFor()
    await page.getByLabel("Email").fill(`ivy@${domain}`)
    await page.getByRole("button", { name: "Continue" }).click()
    await page.waitForURL((current) => current.origin === url && !current.pathname.startsWith("/sign-in") && !current.pathname.startsWith("/sso/"))
    const session = await (await context.request.get(`${url}/auth/session`)).json() as { user: { email: string }; session: { method: string; organizationId: string } }
    expect([session.user.email, session.session.method, session.session.organizationId]).toEqual([`ivy@${domain}`, "oidc", org.id])
    expect(problems).toEqual([])
  } finally {
    await context.close()
  }
})
