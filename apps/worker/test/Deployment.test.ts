/**
 * The deployment, as docs/operations.md describes it: two servers and two workers, each its own
 * process, on one PostgreSQL database and one S3-compatible store (s3rver), with the same
 * QUIRE_SECRET and administrator token. The scenario crosses the servers (what one writes the
 * other serves, at once: tokens, published sites, permissions; a worker's import reaches the
 * servers' published pages), every kind of job runs exactly
 * once on one of the workers, and a server and a worker killed with SIGKILL mid-run lose no
 * acknowledged write and no job.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Queue } from "effect"
import { SqlClient } from "effect/sql"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Database } from "@quire/db"
import { Services, SiteBroadcast } from "@quire/platform"
import * as S3Testing from "@quire/content/S3Testing"
import { Backends, LocalServer } from "@quire/testkit"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const adminToken = "quire_deployment_admin_token_0123456789"
const secret = "deployment-test-secret-0123456789abcdef0123456789"

/** The database, migrated as the servers would migrate it (a copy of a template: quicker). */
const database = Backends.databasesMigrated(Services.migrations).find((db) => db.name === "postgres")!.layer

/**
 * The production build's server or worker (dist/, the build every test of dist/ shares, made in the
 * global setup) as users start it: tooling/build/start.sh, which execs Node with the bundle.
 */
const built = (app: "server" | "worker") => ["sh", join(root, "tooling/build/start.sh"), app]

interface Proc {
  readonly name: string
  readonly child: ChildProcess
  readonly log: () => string
  readonly exited: Promise<unknown>
}

/**
 * `command` in `cwd` with `env` over the test's environment; stopped (SIGTERM, then SIGKILL) with
 * the scope.
 */
const start = (name: string, cwd: string, command: ReadonlyArray<string>, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync((): Proc => {
      const [file, ...args] = command
      const child = spawn(file!, args, {
        cwd: join(root, cwd),
        env: { ...process.env, QUIRE_REQUEST_LOG: "off", ...env },
        stdio: ["pipe", "pipe", "pipe"]
      })
      let log = ""
      child.stdout!.on("data", (chunk) => (log += String(chunk)))
      child.stderr!.on("data", (chunk) => (log += String(chunk)))
      const exited = new Promise((resolve) => child.once("exit", resolve))
      return { name, child, log: () => log, exited }
    }),
    (proc) =>
      Effect.promise(async () => {
        if (proc.child.exitCode !== null || proc.child.signalCode !== null) return
        proc.child.kill("SIGTERM")
        const timer = setTimeout(() => proc.child.kill("SIGKILL"), 10_000)
        await proc.exited
        clearTimeout(timer)
      })
  )

/** Polls `check` until it answers something other than undefined, for up to `seconds`. */
const until = <A>(what: string, check: () => Promise<A | undefined>, seconds = 60, context: () => string = () => "") =>
  Effect.promise(async () => {
    const deadline = Date.now() + seconds * 1000
    let last: unknown
    while (Date.now() < deadline) {
      try {
        const value = await check()
        if (value !== undefined) return value
      } catch (error) {
        last = error
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`Timed out after ${seconds} s waiting for ${what}${last === undefined ? "" : `: ${String(last)}`}\n${context()}`)
  })

interface Reply {
  readonly status: number
  readonly body: any
}

/** A JSON request to `base` as the holder of `token`. */
const call = async (base: string, token: string, method: string, path: string, body?: unknown): Promise<Reply> => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text }
}

/** A JSON request that must succeed: its body. */
const ok = async (base: string, token: string, method: string, path: string, body?: unknown): Promise<any> => {
  const reply = await call(base, token, method, path, body)
  if (reply.status >= 300) throw new Error(`${method} ${base}${path}: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body
}

/** A GET of a published or file URL's path on `base`: status, text and bytes. */
const get = async (base: string, urlOrPath: string) => {
  const path = urlOrPath.startsWith("http") ? urlOrPath.replace(/^https?:\/\/[^/]+/, "") : urlOrPath
  const response = await fetch(`${base}${path}`)
  const bytes = Buffer.from(await response.arrayBuffer())
  return { status: response.status, bytes, text: bytes.toString("utf8") }
}

/** `git <args>` in `cwd` as a fixed author. */
const git = (cwd: string, ...args: ReadonlyArray<string>) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" }
  }).trim()

/** A bare repository whose `main` holds `files` in one commit, removed with the scope. */
const bareRepository = (files: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = mkdtempSync(join(tmpdir(), "quire-deployment-git-"))
      const bare = join(dir, "docs.git")
      const work = join(dir, "work")
      execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", bare])
      mkdirSync(work)
      git(work, "init", "--quiet", "--initial-branch=main")
      for (const [path, text] of Object.entries(files)) writeFileSync(join(work, path), text)
      git(work, "add", ".")
      git(work, "commit", "--quiet", "-m", "Seed")
      git(work, "push", "--quiet", bare, "main")
      return { dir, bare }
    }),
    ({ dir }) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

/**
 * What the workers fetch: OpenAPI documents at /spec/<name> (each request counted; held unanswered
 * while `hold` is on) and an OpenAI-compatible provider at /v1/chat/completions (upper-cases).
 */
const fakeUpstream = Effect.acquireRelease(
  Effect.promise(async () => {
    const fetched = new Map<string, number>()
    const held: Array<() => void> = []
    const state = { hold: false, translations: 0 }
    const server = http.createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString()))
      request.on("end", () => {
        const url = request.url ?? ""
        if (url.startsWith("/spec/")) {
          fetched.set(url, (fetched.get(url) ?? 0) + 1)
          const answer = () => {
            response.writeHead(200, { "content-type": "application/json" })
            response.end(JSON.stringify({ openapi: "3.0.0", info: { title: url, version: "1" }, paths: {} }))
          }
          if (state.hold) held.push(answer)
          else answer()
          return
        }
        state.translations++
        const segments = JSON.parse((JSON.parse(body) as { messages: Array<{ content: string }> }).messages[1]!.content) as Array<string>
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: JSON.stringify(segments.map((s) => s.toUpperCase())) } }] }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const release = () => {
      state.hold = false
      for (const answer of held.splice(0)) {
        try {
          answer()
        } catch {
          // The worker that asked was killed.
        }
      }
    }
    return { server, origin, fetched, held, state, release }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
)

/** Two servers and two workers on `databaseUrl` and a fresh s3rver, with the upstream at `upstream`. */
const deployment = (databaseUrl: string, upstream: string) =>
  Effect.gen(function*() {
    // s3rver in the test's process: it only answers the processes' requests.
    const s3Endpoint = yield* S3Testing.start
    const dataDir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-deployment-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const shared = {
      DATABASE_URL: databaseUrl,
      QUIRE_SECRET: secret,
      QUIRE_ADMIN_TOKEN: adminToken,
      QUIRE_S3_BUCKET: S3Testing.bucket,
      QUIRE_S3_ENDPOINT: s3Endpoint,
      QUIRE_S3_ACCESS_KEY_ID: S3Testing.credentials.accessKeyId,
      QUIRE_S3_SECRET_ACCESS_KEY: S3Testing.credentials.secretAccessKey,
      QUIRE_FETCH_ALLOW: "127.0.0.1",
      QUIRE_GIT_ALLOW_FILE: "1",
      QUIRE_GIT_DEBOUNCE_MS: "300",
      QUIRE_TRANSLATE_URL: `${upstream}/v1`,
      QUIRE_TRANSLATE_MODEL: "fake-model",
      QUIRE_TRANSLATE_KEY: "test-key",
      QUIRE_TRANSLATE_DEBOUNCE_MS: "100",
      // A dead worker's jobs are taken back after 10 s rather than 5 minutes. Not less: a live
      // worker renews its locks every quarter of it, and at 2 s a worker starved of CPU by the
      // rest of `pnpm test` lost the spec's lock mid-run, so the other worker fetched it again.
      QUIRE_JOB_LOCK_TIMEOUT_SECONDS: "10"
    }
    const server = Effect.fnUntraced(function*(name: string) {
      const port = yield* Effect.promise(() => LocalServer.freePort())
      const dir = join(dataDir, name)
      const proc = yield* start(name, ".", built("server"), { ...shared, PORT: String(port), HOST: "127.0.0.1", QUIRE_DATA_DIR: dir })
      return { ...proc, url: `http://127.0.0.1:${port}` }
    })
    const worker = (name: string) => start(name, ".", built("worker"), { ...shared, WORKER_CONCURRENCY: "4" })
    const healthy = (s: { readonly name: string; readonly url: string; readonly log: () => string }) =>
      until(`${s.name} healthy`, async () => ((await fetch(`${s.url}/health`)).ok ? true : undefined), 240, s.log)
    // The second server starts once the first is up: two first starts at once would both create the
    // instance administrator (a unique violation that stops one of them; see docs/operations.md).
    const [a, w1, w2] = yield* Effect.all([server("server-a"), worker("worker-1"), worker("worker-2")])
    yield* healthy(a)
    const b = yield* server("server-b")
    yield* healthy(b)
    for (const w of [w1, w2]) yield* until(`${w.name} started`, async () => (w.log().includes("Worker started") ? true : undefined), 240, w.log)
    return { a, b, w1, w2, all: [a, b, w1, w2] }
  })

layer(Layer.fresh(database), { timeout: 600_000, excludeTestServices: true })("the deployment: two servers, two workers", (it) => {
  it.effect("serves the scenario across both servers, runs each job once and survives a server and a worker killed", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const info = yield* Database.DatabaseInfo
      const upstream = yield* fakeUpstream
      const repo = yield* bareRepository({ "README.md": "# Seed\n" })
      const source = yield* bareRepository({ "README.md": "# Imported\n\nImported by a worker.\n" })
      const { a, b, w1, w2 } = yield* deployment(info.url, upstream.origin)
      const A = (method: string, path: string, body?: unknown) => ok(a.url, adminToken, method, path, body)
      const B = (method: string, path: string, body?: unknown) => ok(b.url, adminToken, method, path, body)

      // An organization and a space made on A; a change request written on B and merged on A.
      const org = yield* Effect.promise(() => A("POST", "/v1/orgs", { title: "Deployed" }))
      const space = yield* Effect.promise(() => A("POST", `/v1/orgs/${org.id}/spaces`, { title: "Docs" }))
      const writeOn = (via: typeof A, markdown: string) =>
        Effect.promise(async () => {
          const cr = await via("POST", `/v1/spaces/${space.id}/change-requests`, { subject: markdown })
          const pages = (await via("GET", `/v1/spaces/${space.id}/content/pages`)).pages as Array<{ id: string }>
          const changes = pages.length === 0
            ? [{ operation: "insert_page", title: "Guide", slug: "guide", document: { markdown } }]
            : [{ operation: "update_page", page: pages[0]!.id, document: { markdown } }]
          await via("POST", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { changes })
          return cr.id as string
        })
      const first = yield* writeOn(B, "Hello from server B.")
      yield* Effect.promise(() => A("POST", `/v1/spaces/${space.id}/change-requests/${first}/merge`))
      const onB = yield* Effect.promise(() => B("GET", `/v1/spaces/${space.id}/content/pages`))
      assert.deepStrictEqual(onB.pages.map((page: { title: string }) => page.title), ["Guide"])

      // A file uploaded on B is downloaded from A: the same bytes, from the shared store.
      const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7 + (i >> 9)) % 256))
      const upload = yield* Effect.promise(() => B("POST", `/v1/spaces/${space.id}/change-requests`, { subject: "File" }))
      const uploaded = yield* Effect.promise(() =>
        B("POST", `/v1/spaces/${space.id}/change-requests/${upload.id}/content`, {
          changes: [{ operation: "insert_files", files: [{ name: "data.bin", contentType: "application/octet-stream", base64: bytes.toString("base64") }] }]
        }))
      const fileUrl = uploaded.files.find((file: { name: string }) => file.name === "data.bin").downloadURL as string
      const downloaded = yield* Effect.promise(() => get(a.url, fileUrl))
      assert.strictEqual(downloaded.status, 200)
      assert.isTrue(downloaded.bytes.equals(bytes), "server A serves the bytes uploaded through server B")

      // A site published on A is read on B; a change written on B shows on A's (cached) page.
      const site = yield* Effect.promise(() => A("POST", `/v1/orgs/${org.id}/sites`, { title: "Handbook", visibility: "public", spaces: [space.id] }))
      yield* Effect.promise(() => A("POST", `/v1/orgs/${org.id}/sites/${site.id}/publish`))
      const sitePath = `/~sites/${site.id}/`
      const readOnB = yield* Effect.promise(() => get(b.url, sitePath))
      assert.strictEqual(readOnB.status, 200)
      assert.include(readOnB.text, "Hello from server B.")
      assert.include((yield* Effect.promise(() => get(a.url, sitePath))).text, "Hello from server B.")
      const second = yield* writeOn(B, "Changed through server B.")
      yield* Effect.promise(() => B("POST", `/v1/spaces/${space.id}/change-requests/${second}/merge`))
      const changedAt = Date.now()
      yield* until("A's published page to change", async () => ((await get(a.url, sitePath)).text.includes("Changed through server B.") ? true : undefined), 20)
      const siteLatency = Date.now() - changedAt

      // A member's role changed on A is enforced by B on the next request: permissions are not cached.
      const bob = yield* Effect.promise(() => A("POST", "/v1/users", { email: "bob@example.com", displayName: "Bob" }))
      const bobToken = yield* Effect.promise(() => A("POST", `/v1/users/${bob.id}/tokens`, { label: "deployment" }))
      yield* Effect.promise(() => A("POST", `/v1/orgs/${org.id}/invites`, { emails: ["bob@example.com"], role: "read" }))
      // An instance administrator's invitation of an existing user makes them a member at once.
      const member = yield* Effect.promise(() => B("GET", `/v1/orgs/${org.id}/members/${bob.id}`))
      assert.strictEqual(member.role, "read")
      const asBob = (base: string) => call(base, bobToken.token, "POST", `/v1/spaces/${space.id}/change-requests`, { subject: "Bob's" })
      assert.strictEqual((yield* Effect.promise(() => asBob(b.url))).status, 403, "a reader may not open a change request")
      yield* Effect.promise(() => A("PATCH", `/v1/orgs/${org.id}/members/${bob.id}`, { role: "edit" }))
      assert.strictEqual((yield* Effect.promise(() => asBob(b.url))).status, 201, "B sees the new role at once")

      // A token revoked on A is refused by B, which had it cached, sooner than its cache's second.
      assert.strictEqual((yield* Effect.promise(() => call(b.url, bobToken.token, "GET", "/v1/user"))).status, 200)
      yield* Effect.promise(() => A("DELETE", `/v1/users/${bob.id}/tokens/${bobToken.id}`))
      const revokedAt = Date.now()
      yield* until("B to refuse the revoked token", async () => ((await call(b.url, bobToken.token, "GET", "/v1/user")).status === 401 ? true : undefined), 4)
      const revokeLatency = Date.now() - revokedAt

      // Jobs: a Git export, a spec, a translation (each asked on one server, run by one worker), a PDF.
      yield* Effect.promise(() => B("POST", `/v1/spaces/${space.id}/git/export`, { url: `file://${repo.bare}`, ref: "refs/heads/main", commitMessage: "Deployment export" }))
      const spec = yield* Effect.promise(() => A("POST", `/v1/orgs/${org.id}/openapi`, { slug: "petstore", source: { url: `${upstream.origin}/spec/petstore` } }))
      const translation = yield* Effect.promise(() => B("POST", `/v1/orgs/${org.id}/translations`, { language: "fr", source: { space: space.id, language: "en" } }))
      const pdf = yield* Effect.promise(() => A("GET", `/v1/spaces/${space.id}/pdf`))
      const pdfBytes = yield* Effect.promise(() => get(b.url, pdf.url))
      assert.strictEqual(pdfBytes.status, 200)
      assert.strictEqual(pdfBytes.bytes.subarray(0, 5).toString("latin1"), "%PDF-")

      yield* until("the export's commit", async () => (git(repo.bare, "rev-list", "--count", "main") === "2" ? true : undefined))
      const versions = yield* until("the spec's version", async () => {
        const list = await A("GET", `/v1/orgs/${org.id}/openapi/${spec.slug}/versions`)
        return list.items.length > 0 ? list.items : undefined
      })
      const translated = yield* until("the translation's run", async () => {
        const t = await B("GET", `/v1/orgs/${org.id}/translations/${translation.id}`)
        return t.status === "completed" || t.status === "failed" ? t : undefined
      })

      // A purge: the space deleted on A past its 7 days in the trash, its hourly schedule due now.
      const doomed = yield* Effect.promise(() => A("POST", `/v1/orgs/${org.id}/spaces`, { title: "Doomed" }))
      yield* Effect.promise(() => A("DELETE", `/v1/spaces/${doomed.id}`))
      yield* sql`UPDATE content_spaces SET deleted_at = now() - interval '8 days' WHERE id = ${doomed.id}`.pipe(Effect.orDie)
      const due = yield* sql`
        UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = 'quire:tick:content.purgeDeletedSpaces' RETURNING id`.pipe(Effect.orDie)
      assert.lengthOf(due, 1, "one pending tick drives the hourly purge, whichever worker runs it")
      const gone = () => Effect.runPromise(sql`SELECT id FROM content_spaces WHERE id = ${doomed.id}`.pipe(Effect.orDie))
      yield* until("the purge", async () => ((await gone()).length === 0 ? true : undefined))

      // Everything queued has run: nothing waits, nothing failed, and each ran once.
      const idle = () =>
        Effect.runPromise(sql<{ n: number }>`
          SELECT count(*)::int AS n FROM graphile_worker._private_jobs
          WHERE key IS NULL OR key NOT LIKE 'quire:tick:%'`.pipe(Effect.orDie))
      yield* until("the queue to drain", async () => ((await idle())[0]!.n === 0 ? true : undefined))
      assert.strictEqual(git(repo.bare, "rev-list", "--count", "main"), "2", "the export pushed one commit")
      assert.strictEqual(git(repo.bare, "log", "-1", "--format=%s", "main"), "Deployment export")
      assert.lengthOf(versions, 1, "the spec was processed once")
      assert.strictEqual(upstream.fetched.get("/spec/petstore"), 1, "its source was fetched once")
      assert.strictEqual(translated.status, "completed", JSON.stringify(translated))
      assert.strictEqual(translated.stats.runs, 1, "the translation ran once")
      const purgeLines = [w1, w2].flatMap((w) => w.log().split("\n").filter((line) => line.includes("Purged 1 deleted spaces")))
      assert.lengthOf(purgeLines, 1, "one worker purged, once")

      // A worker's Git import moves the published space's main: the worker announces it (the servers
      // change nothing of sites meanwhile, so what is heard is the worker's) and A's page shows it.
      const pg = yield* Database.PgClient.PgClient
      const heard: Array<string> = []
      const notifications = yield* pg.listen(SiteBroadcast.sitesChannel).pipe(Effect.orDie)
      yield* Effect.forkScoped(Effect.forever(Effect.map(Queue.take(notifications), (n) => heard.push(n.payload))))
      yield* Effect.promise(() => B("POST", `/v1/spaces/${space.id}/git/import`, { url: `file://${source.bare}`, ref: "refs/heads/main" }))
      yield* until("A's published page to show the import", async () => ((await get(a.url, sitePath)).text.includes("Imported by a worker.") ? true : undefined))
      yield* until("the worker's announcement", async () => (heard.length > 0 ? true : undefined), 10)

      // Kill -9 server B and worker 2 while writes go through both servers and six spec runs are
      // in flight: at most four run on a worker at once, so worker 2 holds at least two of them.
      upstream.state.hold = true
      const held = ["a1", "a2", "a3", "b1", "b2", "b3"]
      for (const name of held) {
        const via = name.startsWith("a") ? A : B
        yield* Effect.promise(() => via("POST", `/v1/orgs/${org.id}/openapi`, { slug: `held-${name}`, source: { url: `${upstream.origin}/spec/${name}` } }))
      }
      yield* until("six spec runs in flight", async () => (upstream.held.length >= 6 ? true : undefined))
      const acknowledged: Array<{ readonly via: string; readonly id: string }> = []
      const writer = (base: string, via: string, stop: { done: boolean }) =>
        (async () => {
          for (let i = 0; !stop.done; i++) {
            const reply = await call(base, adminToken, "POST", `/v1/orgs/${org.id}/spaces`, { title: `${via} ${i}` }).catch(() => undefined)
            if (reply === undefined) return
            if (reply.status < 300) acknowledged.push({ via, id: reply.body.id })
          }
        })()
      const stopA = { done: false }
      const stopB = { done: false }
      const writers = [writer(a.url, "a", stopA), writer(b.url, "b", stopB)]
      const count = (via: string) => acknowledged.filter((w) => w.via === via).length
      yield* until("writes acknowledged by both servers", async () => (count("a") >= 3 && count("b") >= 3 ? true : undefined))
      b.child.kill("SIGKILL")
      w2.child.kill("SIGKILL")
      yield* Effect.promise(() => Promise.all([b.exited, w2.exited]))
      upstream.release()
      const afterKill = count("a")
      yield* until("more writes through server A", async () => (count("a") >= afterKill + 3 ? true : undefined))
      stopA.done = true
      stopB.done = true
      yield* Effect.promise(() => Promise.all(writers))

      for (const write of acknowledged) {
        const found = yield* Effect.promise(() => call(a.url, adminToken, "GET", `/v1/spaces/${write.id}`))
        assert.strictEqual(found.status, 200, `the space acknowledged by server ${write.via} is there`)
      }
      for (const name of held) {
        const done = yield* until(`spec held-${name} processed after the kill`, async () => {
          const list = await A("GET", `/v1/orgs/${org.id}/openapi/held-${name}/versions`)
          return list.items.length > 0 ? list.items : undefined
        })
        assert.lengthOf(done, 1, `held-${name} has one version`)
      }
      yield* until("the queue to drain after the kill", async () => ((await idle())[0]!.n === 0 ? true : undefined))
      const failed = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE last_error IS NOT NULL`.pipe(Effect.orDie)
      assert.strictEqual(failed[0]!.n, 0, "no job failed or was given up")
      const taken = [...upstream.fetched.entries()].filter(([path]) => path.startsWith("/spec/") && path !== "/spec/petstore")
      assert.isAtLeast(taken.filter(([, n]) => n === 2).length, 2, "worker 2's runs were taken back and run again by worker 1")

      yield* Effect.logInfo("Deployment measurements", {
        writes: acknowledged.length,
        publishedSiteChangeSeenInMs: siteLatency,
        revokedTokenRefusedInMs: revokeLatency
      })
    }).pipe(Effect.scoped), { timeout: 600_000 })
})
