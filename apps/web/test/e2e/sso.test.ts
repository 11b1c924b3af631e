/**
 * Single sign-on in the browser. The sign-in screen: an organization with an OpenID Connect
 * provider (oidc-provider on 127.0.0.1, started here) claims an email domain; a person finds it by
 * their work email, signs in at the provider and lands signed in, provisioned into the
 * organization. The settings screen: an admin sets up SAML from a test IdP's metadata file (the
 * IdP on 127.0.0.1, saml-idp.ts) and OpenID Connect against oidc-provider, requires single sign-on,
 * and people sign in through each.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, expect, inject, it } from "vitest"
import * as Provider from "../../../../packages/identity/test/support/TestOidcProvider.ts"
import { captureScreen, errorOf, open, type Session, sharedBrowser, signInAsAdmin } from "./browser.ts"
import { startSamlIdp } from "./saml-idp.ts"
import { api } from "./servers.ts"

const url = inject("readyServer")
const browser = sharedBrowser()
let idp: Provider.TestOidcProvider
beforeAll(async () => {
  idp = await Provider.start([`${url}/sso/oidc/callback`])
})
afterAll(() => idp.close())

/** After a provider's sign-in: back on the app, signed in as `email` by `method` within `organizationId`, with no console error. */
const expectSignedIn = async (person: Session, email: string, method: string, organizationId: string) => {
  await person.page.waitForURL((current) => current.origin === url && !current.pathname.startsWith("/sign-in") && !current.pathname.startsWith("/sso/"))
  const session = (await (await person.context.request.get(`${url}/auth/session`)).json()) as { user: { email: string }; session: { method: string; organizationId: string } }
  expect([session.user.email, session.session.method, session.session.organizationId]).toEqual([email, method, organizationId])
  expect(person.problems).toEqual([])
}

/** The test OpenID Connect provider's sign-in page, filled as `email`. */
const signInAtOidcProvider = async (page: Page, email: string) => {
  await page.getByRole("heading", { name: "Test provider" }).waitFor()
  await page.getByLabel("Email").fill(email)
  await page.getByRole("button", { name: "Continue" }).click()
}

it("finds the organization by a work email and signs in through its OpenID Connect provider", async () => {
  const domain = `sso${Date.now()}.example`
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "SSO Org", emailDomains: [domain] })
  await api(url, "POST", `/orgs/${org.id}/oidc`, { label: "Corporate IdP", discoveryURL: idp.issuer, clientId: Provider.clientId, clientSecret: Provider.clientSecret, defaultRole: "read" })
  const person = await open(browser(), url)
  const { page } = person
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
    await signInAtOidcProvider(page, `ivy@${domain}`)
    await expectSignedIn(person, `ivy@${domain}`, "oidc", org.id)
  } finally {
    await person.context.close()
  }
})

/** A person joins `org` with a password through an invite link (the sign-in routes, as the invitation screen does). */
const joinWithPassword = async (org: string, person: { displayName: string; email: string; password: string }) => {
  await api(url, "PATCH", `/orgs/${org}`, { inviteLinks: true })
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org}/link-invites`, { role: "read" })
  const response = await fetch(`${url}/auth/invites/${org}.${link.id}/accept`, { method: "POST", headers: { "content-type": "application/json", origin: url }, body: JSON.stringify(person) })
  if (!response.ok) throw new Error(`join: ${response.status} ${await response.text()}`)
}


it("an admin sets up SAML from the IdP's metadata file, and a person signs in through it from the organization's sign-in link", async () => {
  const idp = await startSamlIdp()
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "SAML Org" })
  const metadataFile = join(mkdtempSync(join(tmpdir(), "quire-sso-")), "idp-metadata.xml")
  writeFileSync(metadataFile, idp.metadata)
  const admin = await open(browser(), url)
  try {
    await signInAsAdmin(admin, url)
    const { page } = admin
    await page.goto(`/o/${org.id}/settings`)
    await page.getByRole("link", { name: "Set up SAML and OpenID Connect providers" }).click()
    await page.getByRole("heading", { name: "Single sign-on", level: 1 }).waitFor()
    const form = page.getByRole("form", { name: "Add a SAML provider" })
    // Mistakes a person can make are said under what caused them.
    await form.getByRole("button", { name: "Add SAML provider" }).click()
    await expect.poll(() => errorOf(form.getByLabel("Name"))).toContain("Give the provider a name")
    await form.getByLabel("IdP metadata XML").fill("<md:EntityDescriptor")
    await form.getByRole("button", { name: "Read metadata" }).click()
    await expect.poll(() => errorOf(form.getByLabel("IdP metadata XML"))).toContain("This is not XML")
    await form.getByLabel("Name").fill("Corporate SAML")
    await form.getByLabel("Role of people it signs up").selectOption("read")
    await form.locator("input[type=file]").setInputFiles(metadataFile)
    await expect.poll(() => form.getByLabel("IdP entity ID").inputValue()).toBe(idp.entityID)
    expect(await form.getByLabel("IdP sign-in URL").inputValue()).toBe(idp.ssoURL)
    expect(await form.getByLabel("IdP signing certificate").inputValue()).toContain("-----BEGIN CERTIFICATE-----")
    await form.getByRole("button", { name: "Add SAML provider" }).click()
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Corporate SAML" }) })
    await card.getByText("Active", { exact: true }).waitFor()
    const [provider] = (await api<{ items: Array<{ service: { entityID: string; acsURL: string; metadataURL: string } }> }>(url, "GET", `/orgs/${org.id}/saml`)).items
    expect(await card.getByLabel("ACS URL (reply URL)").inputValue()).toBe(provider!.service.acsURL)
    expect(await card.getByLabel("SP metadata URL").inputValue()).toBe(provider!.service.metadataURL)
    await expect.poll(() => card.getByLabel("SP signing certificate").inputValue()).toContain("-----BEGIN CERTIFICATE-----")
    expect(await card.getByRole("link", { name: /^Test sign-in/ }).getAttribute("href")).toMatch(/\/start\?RelayState=%2Fsso%2Fsigned-in$/)
    await captureScreen(page, "sso-settings-saml")
    expect(admin.problems).toEqual([])
  } finally {
    await admin.context.close()
  }
  const person = await open(browser(), url)
  try {
    const { page } = person
    await page.goto(`/sign-in?org=${org.id}`)
    await page.getByRole("link", { name: "Sign in with Corporate SAML" }).click()
    await page.getByLabel("Email").fill("mia@saml-org.example")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Continue to Quire" }).click()
    await expectSignedIn(person, "mia@saml-org.example", "saml", org.id)
  } finally {
    await person.context.close()
    await idp.close()
  }
})

it("an admin adds an OpenID Connect provider and requires single sign-on; a password is then refused with the provider offered", async () => {
  const org = await api<{ id: string }>(url, "POST", "/orgs", { title: "OIDC Org" })
  const member = { displayName: "Pat Password", email: `pat${Date.now()}@oidc-org.example`, password: "pat's long password 1" }
  await joinWithPassword(org.id, member)
  const admin = await open(browser(), url, { expected: [/status of 400/] })
  try {
    await signInAsAdmin(admin, url)
    const { page } = admin
    await page.goto(`/o/${org.id}/settings/sso`)
    const required = page.getByRole("checkbox", { name: "Require single sign-on" })
    await required.click()
    await expect.poll(() => errorOf(required)).toContain("Add a provider below first")
    expect(await required.isChecked()).toBe(false)
    const form = page.getByRole("form", { name: "Add an OpenID Connect provider" })
    await form.getByLabel("Name").fill("Corporate OIDC")
    await form.getByLabel("Role of people it signs up").selectOption("read")
    await form.getByLabel("Issuer or discovery URL").fill("http://127.0.0.1:9/")
    await form.getByLabel("Client ID").fill(Provider.clientId)
    await form.getByLabel("Client secret").fill(Provider.clientSecret)
    await form.getByRole("button", { name: "Add OpenID Connect provider" }).click()
    // The server could not read the discovery document: said under the URL.
    await expect.poll(() => errorOf(form.getByLabel("Issuer or discovery URL")), { timeout: 30_000 }).not.toBe("")
    await form.getByLabel("Issuer or discovery URL").fill(idp.issuer)
    await form.getByRole("button", { name: "Add OpenID Connect provider" }).click()
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Corporate OIDC" }) })
    await card.getByText("Stored (never shown)").waitFor()
    expect(await form.getByLabel("Client secret").inputValue()).toBe("")
    expect(await page.content()).not.toContain(Provider.clientSecret)
    expect(await page.getByLabel("Redirect URL to register at the provider").inputValue()).toBe(`${url}/sso/oidc/callback`)
    // Changed in place: a new client ID needs the secret again (said under it); a new role alone does not.
    await card.getByRole("button", { name: "Change Corporate OIDC" }).click()
    const change = page.getByRole("form", { name: "Change Corporate OIDC" })
    expect(await change.getByLabel("Issuer or discovery URL").inputValue()).toBe(idp.issuer)
    await change.getByLabel("Client ID").fill("another-client")
    await change.getByRole("button", { name: "Save provider" }).click()
    await expect.poll(() => errorOf(change.getByLabel("Client secret"))).toBe("A new issuer or client ID needs its client secret again.")
    await change.getByLabel("Client ID").fill(Provider.clientId)
    await change.getByLabel("Role of people it signs up").selectOption("comment")
    await change.getByRole("button", { name: "Save provider" }).click()
    await page.getByRole("status").filter({ hasText: "Saved the OpenID Connect provider Corporate OIDC." }).waitFor()
    await card.getByText(/signs up people as (a )?comment/i).waitFor()
    await card.getByRole("button", { name: "Change Corporate OIDC" }).click()
    await change.getByLabel("Role of people it signs up").selectOption("read")
    await change.getByRole("button", { name: "Save provider" }).click()
    await change.waitFor({ state: "detached" })
    await required.click()
    await page.getByText("Single sign-on is required").waitFor()
    expect(await required.isChecked()).toBe(true)
    await captureScreen(page, "sso-settings-oidc")
    expect(admin.problems).toEqual([])
  } finally {
    await admin.context.close()
  }
  const person = await open(browser(), url, { expected: [/status of 403/] })
  try {
    const { page } = person
    await page.goto("/sign-in")
    await page.getByLabel("Email", { exact: true }).fill(member.email)
    await page.getByLabel("Password").fill(member.password)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.getByText("requires single sign-on").first().waitFor()
    const offered = page.getByRole("link", { name: "Sign in with Corporate OIDC" })
    await offered.waitFor()
    await captureScreen(page, "sign-in-sso-required")
    await offered.click()
    await signInAtOidcProvider(page, "quinn@oidc-org.example")
    await expectSignedIn(person, "quinn@oidc-org.example", "oidc", org.id)
  } finally {
    await person.context.close()
  }
})
