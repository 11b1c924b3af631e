/**
 * Every way to sign in, against the built server: the production build (tooling/build, the
 * Dockerfile's RUN line) in dist/, shared with the other tests of the build, its server.mjs run with the
 * embedded database, and its quire.mjs as the CLI. The sources' suites never saw SAML answer 500
 * from dist/ (issue 34: node-saml's named exports were undefined in the bundle); this runs, in
 * order, the first-run setup, password sign-in, an invite link's sign-up, SAML through the test
 * IdP (tied to the browser that began it), OpenID Connect through the test provider (its ID-token
 * signatures checked), and `quire login` with a password and with --sso. The server mails through
 * a real SMTP server this test starts (smtp-server; QUIRE_SMTP_URL): an email invitation's mailed
 * link signs its person up with a proven email, and a mailed confirmation link proves an invite
 * link account's, so nodemailer (CommonJS, imported when the first mail goes) works from the bundle.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { fileURLToPath } from "node:url"
import { LocalServer } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as SmtpInbox from "@quire/testkit/SmtpInbox"
import * as Idp from "../../../packages/identity/test/support/TestIdp.ts"
import * as OidcProvider from "../../../packages/identity/test/support/TestOidcProvider.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const adminToken = "quire_built_sign_in_admin_token_0123456789"
const adminEmail = "admin@built.quire.test"
const password = "correct horse battery staple"

/** A process's exit, with what it printed. */
const run = (args: ReadonlyArray<string>, options: { readonly env?: Record<string, string>; readonly input?: string } = {}) =>
  new Promise<{ readonly status: number | null; readonly stdout: string; readonly stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...options.env }, stdio: ["pipe", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.stdin.end(options.input ?? "")
    child.once("exit", (status) => resolve({ status, stdout, stderr }))
  })

/** A browser, reduced to what these sign-ins need: its cookies, sent to the server it keeps them for. */
class Browser {
  readonly cookies = new Map<string, string>()
  constructor(readonly origin: string) {}

  /** A request that follows no redirect; cookies set by the server are kept (and dropped when cleared). */
  async fetch(url: string, init: RequestInit = {}) {
    const own = new URL(url, this.origin).origin === this.origin
    const cookie = Array.from(this.cookies, ([name, value]) => `${name}=${value}`).join("; ")
    const response = await fetch(new URL(url, this.origin), {
      redirect: "manual",
      ...init,
      headers: { ...(own && cookie !== "" ? { cookie } : {}), ...(init.method === undefined || init.method === "GET" ? {} : { origin: this.origin }), ...init.headers }
    })
    if (own) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";")
        const at = pair.indexOf("=")
        const [name, value] = [pair.slice(0, at), pair.slice(at + 1)]
        if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name)
        else this.cookies.set(name, value)
      }
    }
    return { status: response.status, headers: response.headers, text: await response.text() }
  }

  /** A JSON request of the browser app (same origin, with the session cookie). */
  async json(method: string, path: string, body?: unknown) {
    const answer = await this.fetch(path, {
      method,
      headers: { "content-type": "application/json", accept: "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: answer.status, body: answer.text === "" ? undefined : JSON.parse(answer.text) as any }
  }

  /** The IdP's page posting a SAML response to the ACS, as this browser relays it. */
  postAcs(acsURL: string, samlResponse: string, relayState?: string) {
    return this.fetch(acsURL, {
      method: "POST",
      // The IdP's page is another origin.
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
      body: new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState === undefined ? {} : { RelayState: relayState }) }).toString()
    })
  }
}

interface Built {
  readonly dir: string
  readonly url: string
  readonly server: ChildProcess
  readonly log: () => string
  readonly dataDir: string
  readonly configDir: string
  readonly oidc: OidcProvider.TestOidcProvider
  readonly smtp: SmtpInbox.SmtpInbox
}

/** The link of the newest message to `to` whose URL matches `path`, waiting up to 10 s for it. */
const linkMailedTo = (to: string, path: RegExp): Promise<URL> => started().smtp.linkMailedTo(to, path, { describe: () => started().log() })

let built: Built | undefined
const started = (): Built => {
  assert.isDefined(built, "the built server started")
  return built!
}

beforeAll(async () => {
  const { dir } = await ProductionBuild.ensure(root)
  const dataDir = mkdtempSync(join(tmpdir(), "quire-built-data-"))
  const configDir = mkdtempSync(join(tmpdir(), "quire-built-config-"))
  const port = await LocalServer.freePort()
  const url = `http://127.0.0.1:${port}`
  const oidc = await OidcProvider.start([`${url}/sso/oidc/callback`])
  const smtp = await SmtpInbox.start()
  const { DATABASE_URL: _, ...env } = process.env
  const server = spawn(process.execPath, [join(dir, "server.mjs")], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", QUIRE_PUBLIC_URL: url, QUIRE_DATA_DIR: dataDir, QUIRE_ADMIN_TOKEN: adminToken, QUIRE_ADMIN_EMAIL: adminEmail,
      QUIRE_SMTP_URL: smtp.url, QUIRE_SMTP_FROM: "Quire <quire@built.quire.test>" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  server.stdout.on("data", (chunk) => (log += chunk))
  server.stderr.on("data", (chunk) => (log += chunk))
  built = { dir, url, server, log: () => log, dataDir, configDir, oidc, smtp }
  const deadline = performance.now() + 60_000
  while (performance.now() < deadline && server.exitCode === null) {
    if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) return
    await sleep(50)
  }
  throw new Error(`The built server did not answer /health:\n${log}`)
}, 600_000)

afterAll(async () => {
  if (built === undefined) return
  if (built.server.exitCode === null) {
    const exited = new Promise((resolve) => built!.server.once("exit", resolve))
    built.server.kill("SIGTERM")
    await exited
  }
  await built.oidc.close()
  await built.smtp.close()
  for (const dir of [built.dataDir, built.configDir]) rmSync(dir, { recursive: true, force: true })
})

/** The organization the admin makes for the sign-ins, made once. */
let organization: { readonly id: string; readonly admin: Browser } | undefined
const organizationOfAdmin = async () => {
  if (organization !== undefined) return organization
  const admin = new Browser(started().url)
  // Set up here when the setup test did not run first (a filtered run).
  if ((await admin.json("GET", "/auth/session")).body?.setupNeeded === true) {
    assert.strictEqual((await admin.json("POST", "/auth/setup", { setupCode: adminToken, displayName: "Ada Admin", email: adminEmail, password })).status, 200)
  }
  const signedIn = await admin.json("POST", "/auth/sign-in", { email: adminEmail, password })
  assert.strictEqual(signedIn.status, 200, JSON.stringify(signedIn.body))
  const org = await admin.json("POST", "/v1/orgs", { title: "Built" })
  assert.strictEqual(org.status, 201, JSON.stringify(org.body))
  organization = { id: org.body.id as string, admin }
  return organization
}

/** The SAML provider of the organization (the test IdP's), made once. */
let samlProvider: { readonly startURL: string; readonly acsURL: string; readonly entityID: string } | undefined
const samlOfOrganization = async () => {
  if (samlProvider !== undefined) return samlProvider
  const { id, admin } = await organizationOfAdmin()
  const created = await admin.json("POST", `/v1/orgs/${id}/saml`, {
    label: "Test IdP",
    defaultRole: "edit",
    ssoURL: Idp.idpSsoURL,
    entityID: Idp.idpEntityID,
    certificate: Idp.idpCertificate
  })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  samlProvider = created.body.service
  return samlProvider!
}

/** The test IdP's answer (signed by its key) to the AuthnRequest in the redirect `location`. */
const idpAnswer = async (location: string, email: string, provider: { readonly entityID: string; readonly acsURL: string }) =>
  Idp.response({ email, audience: provider.entityID, destination: provider.acsURL, inResponseTo: await Idp.requestIdOf(location) })

describe("every sign-in path against the built server", { timeout: 120_000 }, () => {
  it("first-run setup sets the administrator's password, which then signs in", async () => {
    const browser = new Browser(started().url)
    const before = await browser.json("GET", "/auth/session")
    assert.deepStrictEqual([before.status, before.body.setupNeeded], [401, true])
    const setup = await browser.json("POST", "/auth/setup", { setupCode: adminToken, displayName: "Ada Admin", email: adminEmail, password })
    assert.strictEqual(setup.status, 200, JSON.stringify(setup.body))
    assert.strictEqual(setup.body.user.email, adminEmail)
    assert.isTrue(browser.cookies.has("quire_session"))
    assert.strictEqual((await browser.json("POST", "/auth/setup", { setupCode: adminToken, displayName: "Again", email: adminEmail, password })).status, 403)

    const other = new Browser(started().url)
    assert.strictEqual((await other.json("POST", "/auth/sign-in", { email: adminEmail, password: "not the password!" })).status, 401)
    const signedIn = await other.json("POST", "/auth/sign-in", { email: adminEmail, password })
    assert.strictEqual(signedIn.status, 200, JSON.stringify(signedIn.body))
    const session = await other.json("GET", "/auth/session")
    assert.deepStrictEqual([session.status, session.body.user.email, session.body.session.method], [200, adminEmail, "password"])
  })

  it("an invite link signs a new person up with a password, into the organization", async () => {
    const { id, admin } = await organizationOfAdmin()
    assert.strictEqual((await admin.json("PATCH", `/v1/orgs/${id}`, { inviteLinks: true })).status, 200)
    const link = await admin.json("POST", `/v1/orgs/${id}/link-invites`, { role: "edit" })
    assert.strictEqual(link.status, 201, JSON.stringify(link.body))
    const token = `${id}.${link.body.id}`
    const newcomer = new Browser(started().url)
    const offered = await newcomer.json("GET", `/auth/invites/${token}`)
    assert.strictEqual(offered.status, 200, JSON.stringify(offered.body))
    const email = `ivan.${Date.now()}@example.com`
    const accepted = await newcomer.json("POST", `/auth/invites/${token}/accept`, { displayName: "Ivan", email, password })
    assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
    const members = await newcomer.json("GET", `/v1/orgs/${id}/members`)
    assert.strictEqual(members.status, 200, JSON.stringify(members.body))
    assert.include(members.body.items.map((member: { user: { email: string } }) => member.user.email), email)
  })

  it("SAML signs in through the test IdP the browser that began it, and refuses a response it did not begin", async () => {
    const provider = await samlOfOrganization()
    const metadata = await fetch(provider.startURL.replace(/start$/, "metadata.xml"))
    assert.strictEqual(metadata.status, 200, await metadata.clone().text())

    const victim = new Browser(started().url)
    const begun = await victim.fetch(provider.startURL)
    assert.strictEqual(begun.status, 302, begun.text)
    const location = begun.headers.get("location") ?? ""
    assert.isTrue(location.startsWith(`${Idp.idpSsoURL}?`), location)
    assert.isTrue(victim.cookies.has("quire_saml_request"))
    const relayState = new URL(location).searchParams.get("RelayState") ?? undefined

    // An attacker's own sign-in, posted from the victim's browser, and an unsolicited response: refused.
    const attacker = new Browser(started().url)
    const attackerLocation = (await attacker.fetch(provider.startURL)).headers.get("location") ?? ""
    const attackers = await victim.postAcs(provider.acsURL, await idpAnswer(attackerLocation, `mallory.${Date.now()}@example.com`, provider), relayState)
    assert.strictEqual(attackers.status, 400, attackers.text)
    assert.include(attackers.text, "not begun in this browser")
    const unsolicited = await new Browser(started().url).postAcs(
      provider.acsURL,
      Idp.response({ email: `mallory.${Date.now()}@example.com`, audience: provider.entityID, destination: provider.acsURL })
    )
    assert.strictEqual(unsolicited.status, 400, unsolicited.text)
    assert.isFalse(victim.cookies.has("quire_session"))

    const email = `sam.${Date.now()}@example.com`
    const victimAgain = new Browser(started().url)
    const location2 = (await victimAgain.fetch(provider.startURL)).headers.get("location") ?? ""
    const signed = await victimAgain.postAcs(provider.acsURL, await idpAnswer(location2, email, provider), new URL(location2).searchParams.get("RelayState") ?? undefined)
    assert.strictEqual(signed.status, 303, signed.text)
    assert.isFalse(victimAgain.cookies.has("quire_saml_request"), "the request cookie is cleared")
    const session = await victimAgain.json("GET", "/auth/session")
    assert.deepStrictEqual([session.status, session.body.user.email, session.body.session.method], [200, email, "saml"])
  })

  it("OpenID Connect signs in through the test provider, and refuses ID tokens not signed by the provider's keys", async () => {
    const { id, admin } = await organizationOfAdmin()
    const { oidc } = started()
    const created = await admin.json("POST", `/v1/orgs/${id}/oidc`, {
      label: "Test OIDC",
      discoveryURL: oidc.issuer,
      clientId: OidcProvider.clientId,
      clientSecret: OidcProvider.clientSecret,
      defaultRole: "read"
    })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    const signIn = async (email: string, forgery?: OidcProvider.Forgery) => {
      const browser = new Browser(started().url)
      const begun = await browser.fetch(created.body.service.startURL)
      assert.strictEqual(begun.status, 302, begun.text)
      const callback = await OidcProvider.signIn(begun.headers.get("location") ?? "", email)
      oidc.forge.mode = forgery
      try {
        return { browser, answer: await browser.fetch(callback.href.replace(/^http:\/\/[^/]+/, started().url)) }
      } finally {
        oidc.forge.mode = undefined
      }
    }
    for (const forgery of ["none", "hs256", "foreign-key"] as const) {
      const { browser, answer } = await signIn(`forged.${forgery}.${Date.now()}@example.com`, forgery)
      assert.strictEqual(answer.status, 400, `${forgery}: ${answer.text}`)
      assert.include(answer.text, "answer was refused", forgery)
      assert.isFalse(browser.cookies.has("quire_session"), forgery)
    }
    const email = `olive.${Date.now()}@example.com`
    const { browser, answer } = await signIn(email)
    assert.strictEqual(answer.status, 303, answer.text)
    const session = await browser.json("GET", "/auth/session")
    assert.deepStrictEqual([session.status, session.body.user.email, session.body.session.method], [200, email, "oidc"])
  })

  it("mail through SMTP: an email invitation's mailed link signs its person up with a proven email; a mailed link proves an invite link account's", async () => {
    const { id, admin } = await organizationOfAdmin()
    const email = `mia.${Date.now()}@example.com`
    const invited = await admin.json("POST", `/v1/orgs/${id}/invites`, { emails: [email], role: "edit" })
    assert.strictEqual(invited.status, 200, JSON.stringify(invited.body))
    assert.strictEqual(invited.body.invited, 1)
    const link = await linkMailedTo(email, /\/invite\//)
    assert.strictEqual(link.origin, started().url)
    const token = decodeURIComponent(link.pathname.slice("/invite/".length))

    const mia = new Browser(started().url)
    const offered = await mia.json("GET", `/auth/invites/${token}`)
    assert.strictEqual(offered.status, 200, JSON.stringify(offered.body))
    assert.deepStrictEqual([offered.body.email, offered.body.kind, offered.body.proof], [email, "email", true])
    const accepted = await mia.json("POST", `/auth/invites/${token}/accept`, { displayName: "Mia", password })
    assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
    const session = await mia.json("GET", "/auth/session")
    assert.deepStrictEqual([session.status, session.body.user.email, session.body.user.emailVerified, session.body.emailDelivery], [200, email, true, true])
    const members = await mia.json("GET", `/v1/orgs/${id}/members`)
    assert.include(members.body.items.map((member: { user: { email: string } }) => member.user.email), email)

    // An invite link proves nothing: the new account asks for a confirmation link, mailed, which proves it.
    assert.strictEqual((await admin.json("PATCH", `/v1/orgs/${id}`, { inviteLinks: true })).status, 200)
    const invite = await admin.json("POST", `/v1/orgs/${id}/link-invites`, { role: "read" })
    assert.strictEqual(invite.status, 201, JSON.stringify(invite.body))
    const ned = new Browser(started().url)
    const nedEmail = `ned.${Date.now()}@example.com`
    const joined = await ned.json("POST", `/auth/invites/${id}.${invite.body.id}/accept`, { displayName: "Ned", email: nedEmail, password })
    assert.strictEqual(joined.status, 200, JSON.stringify(joined.body))
    assert.isFalse((await ned.json("GET", "/auth/session")).body.user.emailVerified)
    const requested = await ned.json("POST", "/auth/verify-email")
    assert.deepStrictEqual([requested.status, requested.body], [202, { email: nedEmail }])
    const confirmation = await linkMailedTo(nedEmail, /\/verify-email\?token=/)
    assert.strictEqual(confirmation.origin, started().url)
    const confirmed = await new Browser(started().url).json("POST", "/auth/verify-email/confirm", { token: confirmation.searchParams.get("token") })
    assert.deepStrictEqual([confirmed.status, confirmed.body], [200, { email: nedEmail }])
    assert.isTrue((await ned.json("GET", "/auth/session")).body.user.emailVerified)
  })

  it("`quire login` of the built CLI stores a token, with a password and through the browser with --sso", async () => {
    const { url, dir, configDir } = started()
    const env = { QUIRE_URL: url, QUIRE_CONFIG_DIR: configDir }
    const login = await run([join(dir, "quire.mjs"), "login", "--email", adminEmail, "--password-stdin"], { env, input: `${password}\n` })
    assert.strictEqual(login.status, 0, `${login.stdout}${login.stderr}`)
    assert.include(login.stdout, `Signed in as ${adminEmail}`)
    const whoami = await run([join(dir, "quire.mjs"), "whoami"], { env })
    assert.strictEqual(whoami.status, 0, whoami.stderr)
    assert.include(whoami.stdout, adminEmail)

    // --sso: the CLI prints the URL to open and waits on its loopback listener; the browser goes
    // through the organization's first provider (the test IdP's SAML) and posts the code to it.
    const { id } = await organizationOfAdmin()
    const provider = await samlOfOrganization()
    const ssoConfig = mkdtempSync(join(tmpdir(), "quire-built-sso-"))
    try {
      const child = spawn(process.execPath, [join(dir, "quire.mjs"), "login", "--sso", id], {
        cwd: root,
        env: { ...process.env, QUIRE_URL: url, QUIRE_CONFIG_DIR: ssoConfig },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => (stdout += chunk))
      child.stderr.on("data", (chunk) => (stderr += chunk))
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
      const deadline = performance.now() + 30_000
      while (!/https?:\/\/\S+\/start\?\S+/.test(stdout) && performance.now() < deadline && child.exitCode === null) await sleep(50)
      const startUrl = /(https?:\/\/\S+\/start\?\S+)/.exec(stdout)?.[1]
      assert.isDefined(startUrl, `${stdout}${stderr}`)
      const browser = new Browser(url)
      const toProvider = await browser.fetch(startUrl!)
      assert.strictEqual(toProvider.status, 302, toProvider.text)
      const toIdp = await browser.fetch(toProvider.headers.get("location") ?? "")
      assert.strictEqual(toIdp.status, 302, toIdp.text)
      const location = toIdp.headers.get("location") ?? ""
      const email = `cli.${Date.now()}@example.com`
      const page = await browser.postAcs(provider.acsURL, await idpAnswer(location, email, provider), new URL(location).searchParams.get("RelayState") ?? undefined)
      assert.strictEqual(page.status, 200, page.text)
      const form = /<form method="post" action="([^"]+)"><input type="hidden" name="code" value="([^"]+)">/.exec(page.text)
      assert.isNotNull(form, page.text)
      const handedOff = await fetch(form![1]!.replaceAll("&amp;", "&"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ code: form![2]! })
      })
      assert.strictEqual(handedOff.status, 200, await handedOff.text())
      assert.strictEqual(await exited, 0, `${stdout}${stderr}`)
      assert.include(stdout, `Signed in as ${email}`)
      const ssoWhoami = await run([join(dir, "quire.mjs"), "whoami"], { env: { ...env, QUIRE_CONFIG_DIR: ssoConfig } })
      assert.strictEqual(ssoWhoami.status, 0, ssoWhoami.stderr)
      assert.include(ssoWhoami.stdout, email)
    } finally {
      rmSync(ssoConfig, { recursive: true, force: true })
    }
    assert.notMatch(started().log(), /"level":\s*"?(ERROR|50)|\bERROR\b/, "the server logged no error")
  })

  it("an API token signs in to the authors' MCP server, whose SDK works from the bundle", async () => {
    const { id } = await organizationOfAdmin()
    const client = new McpClient({ name: "built-test", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${started().url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${adminToken}` } } }))
    try {
      assert.strictEqual(client.getServerVersion()?.name, "quire")
      assert.include((await client.listTools()).tools.map((tool) => tool.name), "writePage")
      const spaces = await client.callTool({ name: "listSpaces", arguments: { organizationId: id } }) as { content: Array<{ text: string }> }
      assert.include(spaces.content[0]!.text, `(organization ${id})`)
    } finally {
      await client.close()
    }
  })
})
