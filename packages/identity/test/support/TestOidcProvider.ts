/**
 * A test OpenID Connect provider: oidc-provider on 127.0.0.1 (a free port) with one confidential
 * client, whose sign-in page asks only for an email (any email signs in; its `email_verified` is
 * true unless the test says otherwise). `signIn` walks a browser's steps with fetch, for tests
 * without a browser. NOT for production: the provider uses oidc-provider's development keys.
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import Provider from "oidc-provider"

export const clientId = "quire-test-client"
export const clientSecret = "test-client-secret-not-a-secret"

export interface TestOidcProvider {
  /** The issuer, which is also what Quire discovers from. */
  readonly issuer: string
  /** Emails whose `email_verified` the provider says is false. */
  readonly unverified: Set<string>
  readonly close: () => Promise<void>
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const bodyOf = (req: IncomingMessage) =>
  new Promise<URLSearchParams>((resolve, reject) => {
    let text = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (text += chunk))
    req.on("end", () => resolve(new URLSearchParams(text)))
    req.on("error", reject)
  })

const signInPage = (uid: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Test provider sign-in</title></head><body><main>` +
  `<h1>Test provider</h1><form method="post" action="/interaction/${escapeHtml(uid)}">` +
  `<label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required> ` +
  `<button type="submit">Continue</button></form></main></body></html>`

/** Starts the provider, its client allowed to come back to `redirectUris`. */
export const start = async (redirectUris: ReadonlyArray<string>): Promise<TestOidcProvider> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const unverified = new Set<string>()
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [...redirectUris],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post"
    }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ["test-provider-cookie-key"] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: !unverified.has(id), name: `Person ${id.split("@")[0] ?? id}` })
    })
  })
  const callback = provider.callback()
  server.on("request", (req, res) => {
    const uid = /^\/interaction\/([^/?]+)/.exec(req.url ?? "")?.[1]
    if (uid === undefined) return callback(req, res)
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(signInPage(uid))
      return
    }
    void (async () => {
      const email = ((await bodyOf(req)).get("email") ?? "").trim().toLowerCase()
      const details = await provider.interactionDetails(req, res)
      const grant = new provider.Grant({ accountId: email, clientId: String(details.params["client_id"]) })
      grant.addOIDCScope(String(details.params["scope"]))
      const grantId = await grant.save()
      await provider.interactionFinished(req, res, { login: { accountId: email }, consent: { grantId } }, { mergeWithLastSubmission: false })
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error))
    })
  })
  return {
    issuer,
    unverified,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * A browser's steps at the provider, with fetch: from the authorization URL Quire redirected to,
 * through the sign-in page as `email`, to the callback URL the provider sends the browser to.
 */
export const signIn = async (authorizationUrl: string, email: string): Promise<URL> => {
  const cookies = new Map<string, string>()
  const step = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...init.headers, cookie: Array.from(cookies, ([k, v]) => `${k}=${v}`).join("; ") }
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair!.indexOf("=")
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
    await response.arrayBuffer()
    const location = response.headers.get("location")
    if (location === null) throw new Error(`the provider answered ${response.status} at ${url}`)
    return new URL(location, url).href
  }
  const interaction = await step(authorizationUrl)
  const resume = await step(interaction, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }).toString()
  })
  return new URL(await step(resume))
}
