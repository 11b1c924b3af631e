/**
 * A test OpenID Connect provider: oidc-provider on 127.0.0.1 (a free port) with one confidential
 * client, whose sign-in page asks only for an email (any email signs in; its `email_verified` is
 * true unless the test says otherwise). `signIn` walks a browser's steps with fetch, for tests
 * without a browser. NOT for production: the provider uses oidc-provider's development keys.
 */
import { createHmac, generateKeyPairSync, sign } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import Provider from "oidc-provider"

export const clientId = "quire-test-client"
export const clientSecret = "test-client-secret-not-a-secret"

/**
 * How the token endpoint re-signs the ID token it answers (its claims unchanged: issuer, audience,
 * nonce, email): unsigned (`alg: none`), HS256 keyed by the client secret, or RS256 by a key that
 * is not in the provider's JWKS (under the provider's own `kid`). Undefined: the provider's own.
 */
export type Forgery = "none" | "hs256" | "foreign-key"

export interface TestOidcProvider {
  /** The issuer, which is also what Quire discovers from. */
  readonly issuer: string
  /** Emails whose `email_verified` the provider says is false. */
  readonly unverified: Set<string>
  /** The forgery the token endpoint applies to the next ID tokens, if any. */
  readonly forge: { mode: Forgery | undefined }
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

const foreignKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey

const base64url = (data: string | Buffer) => Buffer.from(data).toString("base64url")

/** `idToken` with its claims kept and its signature replaced as `mode` says. */
export const forgeIdToken = (idToken: string, mode: Forgery): string => {
  const [header, payload] = idToken.split(".")
  const { kid } = JSON.parse(Buffer.from(header ?? "", "base64url").toString("utf8")) as { kid?: string }
  const forgedHeader = (alg: string) => base64url(JSON.stringify({ alg, typ: "JWT", ...(mode === "foreign-key" && kid !== undefined ? { kid } : {}) }))
  switch (mode) {
    case "none":
      return `${forgedHeader("none")}.${payload}.`
    case "hs256": {
      const input = `${forgedHeader("HS256")}.${payload}`
      return `${input}.${createHmac("sha256", clientSecret).update(input).digest("base64url")}`
    }
    case "foreign-key": {
      const input = `${forgedHeader("RS256")}.${payload}`
      return `${input}.${sign("sha256", Buffer.from(input), foreignKey).toString("base64url")}`
    }
  }
}

/**
 * Rewrites a JSON answer on its way out (oidc-provider ends it in one `end`): the token endpoint's
 * ID token is forged, and the discovery document declares `none` and HS256 beside RS256, as a
 * hostile provider would, so that only Quire's own rules refuse them.
 */
const forgeAnswer = (res: ServerResponse, mode: Forgery) => {
  const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse
  res.end = ((chunk?: unknown) => {
    const text = Buffer.isBuffer(chunk) ? chunk.toString("utf8") : typeof chunk === "string" ? chunk : ""
    try {
      const answer = JSON.parse(text) as { id_token?: string; id_token_signing_alg_values_supported?: Array<string> }
      const forged = typeof answer.id_token === "string"
        ? JSON.stringify({ ...answer, id_token: forgeIdToken(answer.id_token, mode) })
        : Array.isArray(answer.id_token_signing_alg_values_supported)
        ? JSON.stringify({ ...answer, id_token_signing_alg_values_supported: ["RS256", "HS256", "none"] })
        : undefined
      if (forged === undefined) return end(chunk)
      if (!res.headersSent) res.setHeader("content-length", Buffer.byteLength(forged))
      return end(forged)
    } catch {
      return end(chunk)
    }
  }) as ServerResponse["end"]
}

/** Starts the provider, its client allowed to come back to `redirectUris`. */
export const start = async (redirectUris: ReadonlyArray<string>): Promise<TestOidcProvider> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const unverified = new Set<string>()
  const forge: { mode: Forgery | undefined } = { mode: undefined }
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
    const forgedPath = (req.method === "POST" && (req.url ?? "").startsWith("/token")) || (req.url ?? "").startsWith("/.well-known/openid-configuration")
    if (forgedPath && forge.mode !== undefined) forgeAnswer(res, forge.mode)
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
    forge,
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
