/**
 * `quire login`: with an email and a password (asked for on the terminal, or the password read from
 * standard input with `--password-stdin`), the server's `/auth/cli/token` trades them for an API
 * token. `quire login --sso ORG`: a token through the browser, as `gh auth login` does. A loopback
 * listener (127.0.0.1, a free port) is the sign-in's RelayState. The server answers the browser
 * with a form that POSTs a one-time code (never the token, never in a URL) to the listener; the
 * CLI exchanges it for a token with the PKCE verifier (RFC 7636, S256) whose challenge it sent
 * when starting, so a code that leaks is worth nothing to whoever lacks the verifier.
 */
import { Console, Effect, Option, Redacted, Stdio, Stream } from "effect"
import { Command, Flag, Prompt } from "effect/cli"
import { createServer, type IncomingMessage } from "node:http"
import { createHash, randomBytes } from "node:crypto"
import * as Credentials from "../Credentials.ts"
import { CliFailure } from "../Failure.ts"
import * as GlobalFlags from "../GlobalFlags.ts"

/** A PKCE pair: the verifier kept here, the challenge sent when starting. */
export const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

/** The form body of a callback request (small: a code), as URL parameters. */
const formOf = (request: IncomingMessage): Promise<URLSearchParams> =>
  new Promise((resolve) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => {
      body += chunk
      if (body.length > 16_384) request.destroy()
    })
    request.on("end", () => resolve(new URLSearchParams(body)))
    request.on("error", () => resolve(new URLSearchParams()))
  })

/**
 * Waits (up to `timeoutMs`) for the browser to POST the code to a loopback callback; the code it
 * brings. The listener and the timer end with the wait, however it ends: left running after the
 * code came (the canceller below runs on interruption only), they kept `quire login --sso` from exiting.
 */
const awaitCallback = (state: string, onListening: (callback: string) => Effect.Effect<void>, timeoutMs: number) =>
  Effect.callback<string, CliFailure>((resume) => {
    const finish = (result: Effect.Effect<string, CliFailure>) => {
      clearTimeout(timer)
      server.close()
      server.closeIdleConnections()
      resume(result)
    }
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1")
      const refuse = () => response.writeHead(400, { "content-type": "text/plain" }).end("This is not the sign-in quire is waiting for.")
      if (request.method !== "POST" || url.pathname !== "/callback" || url.searchParams.get("state") !== state) return refuse()
      void formOf(request).then((form) => {
        const code = form.get("code")
        if (code === null || code === "") return refuse()
        response.writeHead(200, { "content-type": "text/plain", connection: "close" })
          .end("Signed in: you can close this tab and return to the terminal.", () => finish(Effect.succeed(code)))
      })
    })
    const timer = setTimeout(() => finish(Effect.fail(new CliFailure({ message: "Timed out waiting for the browser sign-in" }))), timeoutMs)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      Effect.runFork(onListening(`http://127.0.0.1:${port}/callback?state=${state}`))
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      server.close()
      server.closeAllConnections()
    })
  })

/**
 * Signs in with the organization's SSO: `open` is given the URL to visit (the command prints
 * it); the token obtained (it reaches that organization only) is stored for `url` and returned.
 */
export const ssoLogin = Effect.fnUntraced(function*(
  url: string,
  organizationId: string,
  open: (startUrl: string) => Effect.Effect<void>,
  timeoutMs = 5 * 60_000
) {
  const base = url.replace(/\/+$/, "")
  const state = randomBytes(16).toString("hex")
  const pkce = pkcePair()
  const code = yield* awaitCallback(state, (callback) =>
    open(
      `${base}/sso/orgs/${encodeURIComponent(organizationId)}/start?RelayState=${encodeURIComponent(callback)}` +
        `&code_challenge=${pkce.challenge}&code_challenge_method=S256`
    ), timeoutMs)
  const answer = yield* Effect.tryPromise({
    try: async () => {
      const response = await fetch(`${base}/sso/cli/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ code, code_verifier: pkce.verifier })
      })
      const body = await response.json() as { token?: string; user?: { email?: string }; error?: { message?: string } }
      if (!response.ok || body.token === undefined) throw new Error(body.error?.message ?? `HTTP ${response.status}`)
      return { token: body.token, email: body.user?.email ?? "" }
    },
    catch: (error) => new CliFailure({ message: `The server refused the sign-in code: ${error instanceof Error ? error.message : String(error)}` })
  })
  const file = yield* Credentials.save(base, answer.token)
  return { ...answer, file }
})

/** Signs in with an email and a password; the token obtained is stored for `url` and returned. */
export const passwordLogin = Effect.fnUntraced(function*(url: string, email: string, password: Redacted.Redacted) {
  const base = url.replace(/\/+$/, "")
  const answer = yield* Effect.tryPromise({
    try: async () => {
      const response = await fetch(`${base}/auth/cli/token`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "quire-cli" },
        body: JSON.stringify({ email, password: Redacted.value(password) })
      })
      const body = await response.json().catch(() => ({})) as { token?: string; user?: { email?: string }; error?: { message?: string } }
      if (!response.ok || body.token === undefined) throw new Error(body.error?.message ?? `HTTP ${response.status}`)
      return { token: body.token, email: body.user?.email ?? email }
    },
    catch: (error) => new CliFailure({ message: `Sign-in refused: ${error instanceof Error ? error.message : String(error)}` })
  })
  const file = yield* Credentials.save(base, answer.token)
  return { ...answer, file }
})

/** The first line of standard input (a password piped in). */
const passwordFromStdin = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  const text = yield* stdio.stdin.pipe(Stream.decodeText(), Stream.mkString, Effect.orElseSucceed(() => ""))
  const line = text.split(/\r?\n/)[0] ?? ""
  if (line === "") return yield* new CliFailure({ message: "--password-stdin: standard input was empty" })
  return Redacted.make(line)
})

export const login = Command.make(
  "login",
  {
    sso: Flag.String("sso").pipe(Flag.withDescription("Sign in through this organization's single sign-on (an organization id)"), Flag.optional),
    email: Flag.String("email").pipe(Flag.withDescription("The email of a password account (asked for when left out)"), Flag.optional),
    passwordStdin: Flag.Boolean("password-stdin").pipe(Flag.withDescription("Read the password from standard input instead of asking"), Flag.withDefault(false))
  },
  Effect.fn("quire.login")(function*({ sso, email, passwordStdin }) {
    const url = yield* GlobalFlags.Url
    if (Option.isSome(sso)) {
      const signedIn = yield* ssoLogin(url, sso.value, (startUrl) => Console.log(`Open this URL in your browser to sign in:\n  ${startUrl}`))
      return yield* Console.log(`Signed in as ${signedIn.email}; token stored in ${signedIn.file}`)
    }
    const address = Option.isSome(email) ? email.value : yield* Prompt.run(Prompt.String({ message: "Email" }))
    const password = passwordStdin ? yield* passwordFromStdin : yield* Prompt.run(Prompt.Password({ message: "Password" }))
    const signedIn = yield* passwordLogin(url, address, password)
    yield* Console.log(`Signed in as ${signedIn.email}; token stored in ${signedIn.file}`)
  })
).pipe(Command.withDescription("Sign in with your email and password (or your organization's SAML single sign-on with --sso) and store an API token"))
