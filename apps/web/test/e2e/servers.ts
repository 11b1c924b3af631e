/**
 * Quire servers for the browser tests: each a process of its own (apps/server/test/WebAppServer.ts,
 * bundled as the apps are beside the production build: `ProductionBuild.bundledEntry`) on a free port,
 * with a temporary data directory and the app of the production build (dist/web, made first when a
 * source is newer; one build shared with every other test of dist/). Under tsx, each start compiled
 * the server's sources anew, several times the CPU of the bundle's start.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

const repo = fileURLToPath(new URL("../../../../", import.meta.url))

/** The API token of the servers' administrator: the setup code first-run setup asks for. */
export const setupCode = "quire_web_e2e_admin_token_0123456789"

/**
 * How long after typing pauses the servers write a page's markdown (production: 2 s). The flows that
 * wait for typed words in the stored markdown wait this long each time; a tenth of production's
 * keeps them from idling. The two built servers of live-editing-servers.test.ts keep production's.
 */
export const writeDebounceMs = 200

export const admin = { displayName: "Ada Admin", email: "ada@quire.test", password: "correct horse battery staple" }

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

export interface RunningServer {
  readonly url: string
  readonly stop: () => Promise<void>
}

/** Starts a server (with these settings besides); resolves once it answers, with its URL. */
export const startServer = async (settings: Readonly<Record<string, string>> = {}): Promise<RunningServer> => {
  const webDir = process.env["QUIRE_E2E_WEB_DIR"] ?? join((await ProductionBuild.ensure(repo)).dir, "web")
  const [node, bundle] = await ProductionBuild.bundledEntry(repo, "web-app-server", "apps/server/test/WebAppServer.ts")
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), "quire-web-e2e-"))
  const child = spawn(node, [bundle], {
    cwd: join(repo, "apps/server"),
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: process.env["HOME"] ?? tmpdir(),
      PORT: String(port),
      QUIRE_DATA_DIR: dataDir,
      QUIRE_ADMIN_TOKEN: setupCode,
      // A helper building into its own directory (several builds at once) names it here.
      QUIRE_WEB_DIR: webDir,
      QUIRE_LOG_FORMAT: "json",
      // Every person the tests sign up comes from 127.0.0.1.
      QUIRE_SIGN_UP_LIMIT: "1000",
      // The Git sync screen's test connects spaces to local bare repositories (file://).
      QUIRE_GIT_ALLOW_FILE: "1",
      // Images pasted from another site are copied from a server the editor test runs on localhost
      // (by name: the loopback addresses themselves stay refused, as the specs test expects).
      QUIRE_FETCH_ALLOW: "localhost",
      QUIRE_COLLAB_WRITE_DEBOUNCE_MS: String(writeDebounceMs),
      // It stops when this process's end of its stdin closes: a run killed midway (turbo stops the
      // other suites when one fails) leaves no server behind.
      QUIRE_STOP_WITH_STDIN: "1",
      ...settings
    },
    stdio: ["pipe", "pipe", "pipe"],
    // Its own process group, which stopping signals whole.
    detached: true
  })
  let output = ""
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening (http:\/\/\S+)/.exec(output)
      if (match !== null) resolve(match[1]!)
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", (code) => reject(new Error(`The test server exited (${code}) before listening:\n${output}`)))
  })
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        const group = -child.pid!
        const kill = setTimeout(() => process.kill(group, "SIGKILL"), 5_000)
        child.once("exit", () => {
          clearTimeout(kill)
          child.stdout.destroy()
          child.stderr.destroy()
          rmSync(dataDir, { recursive: true, force: true })
          resolve()
        })
        process.kill(group, "SIGTERM")
      })
  }
}

/** First-run setup through the sign-in routes, as the app's page would send it; answers the session cookie. */
export const setupAdmin = async (url: string): Promise<string> => {
  const response = await fetch(`${url}/auth/setup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ setupCode, ...admin })
  })
  if (!response.ok) throw new Error(`setup failed: ${response.status} ${await response.text()}`)
  return response.headers.get("set-cookie") ?? ""
}

/** A call of the public API as the administrator (bearer token). */
export const api = async <A>(url: string, method: string, path: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${setupCode}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return (text === "" ? undefined : JSON.parse(text)) as A
}

/**
 * `act` (a pointer drag, its rows measured anew each time), then `eventually` on the API. A drag the
 * screen's redraw ended (the answer to the step before it arriving under the pointer) is made again,
 * as a person would, up to three times.
 */
export const dragUntil = async <A>(what: string, act: () => Promise<void>, read: () => Promise<A>, check: (value: A) => boolean): Promise<A> => {
  for (let attempt = 1; ; attempt++) {
    await act()
    try {
      return await eventually(what, read, check)
    } catch (error) {
      if (attempt === 3) throw error
    }
  }
}

/** Waits (up to 10 s) until the API answers what `check` expects; fails naming `what` and the last answer. */
export const eventually = async <A>(what: string, read: () => Promise<A>, check: (value: A) => boolean): Promise<A> => {
  const until = Date.now() + 10_000
  for (;;) {
    const value = await read()
    if (check(value)) return value
    if (Date.now() > until) throw new Error(`The API never answered ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Joins the organization through an invite link with `role`, as `person` (an account of their own,
 * made by accepting it): their session cookie.
 */
export const joinByLink = async (url: string, org: string, role: string, person: { readonly displayName: string; readonly email: string; readonly password: string }): Promise<string> => {
  const link = await api<{ id: string }>(url, "POST", `/orgs/${org}/link-invites`, { role })
  const response = await fetch(`${url}/auth/invites/${org}.${link.id}/accept`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify(person)
  })
  if (response.status !== 200) throw new Error(`accepting the invite answered ${response.status}: ${await response.text()}`)
  return (response.headers.get("set-cookie") ?? "").split(";")[0]!
}
