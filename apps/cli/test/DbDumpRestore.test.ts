/**
 * `quire db dump`, `restore` and `backup` moving a real instance. A server on the embedded database
 * is filled through the API (an organization, spaces, pages, change requests open and merged,
 * comments, files); a backup is taken while it runs; once stopped it is dumped and restored into a
 * new PostgreSQL database with its files on disk, and the backup into a new embedded directory with
 * its files in an S3 bucket (s3rver). A server started on each answers every listing as the first
 * did, and every file's bytes. A non-empty target is refused unless `--force`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomBytes } from "node:crypto"
import { SqlClient } from "effect/sql"
import { Database } from "@quire/db"
import * as S3Testing from "@quire/content/S3Testing"
import { quire } from "./Quire.ts"
import { migratedEmbeddedDirectory, newEmbeddedDirectory, type Running, startServer } from "./ServerProcess.ts"

const token = "quire_db_dump_test_token_0123456789"
const secret = "db-dump-test-secret-0123456789abcdef0123456789abcdef"
const adminUrl = process.env.QUIRE_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** The server with `env` (a data directory, a database, a store), until the scope closes or `stop`. */
const start = (env: Record<string, string>) => startServer({ QUIRE_ADMIN_TOKEN: token, QUIRE_SECRET: secret, ...env })

const get = (server: Running, path: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${server.url}/v1${path}`, { headers: { authorization: `Bearer ${token}` } })
    assert.strictEqual(response.status, 200, `GET ${path}`)
    return (await response.json()) as Record<string, unknown>
  })

const items = (body: Record<string, unknown>) => body.items as Array<Record<string, unknown>>

/**
 * Every listing of the instance, as the admin sees it, with the server's origin and the signed
 * (expiring) download links taken out; and the bytes of every file, by id.
 */
const snapshot = (server: Running) =>
  Effect.gen(function*() {
    const listings: Record<string, unknown> = {}
    const files: Record<string, string> = {}
    const read = Effect.fnUntraced(function*(path: string) {
      const body = yield* get(server, path)
      listings[path] = JSON.parse(JSON.stringify(body).replaceAll(server.url, "ORIGIN"), (key, value) => key === "downloadURL" ? "LINK" : value)
      return body
    })
    yield* read("/user")
    for (const org of items(yield* read("/orgs"))) {
      const o = `/orgs/${org.id}`
      yield* read(o)
      yield* read(`${o}/members`)
      yield* read(`${o}/change-requests`)
      for (const space of items(yield* read(`${o}/spaces`))) {
        const s = `/spaces/${space.id}`
        for (const path of [s, `${s}/content`, `${s}/content/pages`, `${s}/comments`, `${s}/revisions`, `${s}/links`]) yield* read(path)
        for (const file of items(yield* read(`${s}/content/files`))) {
          const bytes = yield* Effect.promise(() => fetch(String(file.downloadURL)).then((response) => response.arrayBuffer()))
          files[String(file.id)] = Buffer.from(bytes).toString("base64")
        }
        for (const cr of items(yield* read(`${s}/change-requests`))) {
          const c = `${s}/change-requests/${cr.id}`
          for (const path of [c, `${c}/comments`, `${c}/reviews`, `${c}/changes`]) yield* read(path)
        }
      }
    }
    return { listings, files }
  })

/** Fills the instance through the CLI: an organization, two spaces, pages, files, comments, change requests merged and open. */
const populate = Effect.fnUntraced(function*(server: Running, dir: string) {
  const env = { QUIRE_URL: server.url, QUIRE_TOKEN: token }
  const run = Effect.fnUntraced(function*(...args: Array<string>) {
    const result = yield* quire(args, env)
    assert.strictEqual(result.status, 0, `quire ${args.join(" ")}: ${result.stderr}`)
    return result.stdout
  })
  const json = (...args: Array<string>) => Effect.map(run(...args, "--json"), (out) => JSON.parse(out) as Record<string, unknown>)
  const org = yield* json("orgs", "create", "Acme Docs")
  const docs = join(dir, "docs")
  mkdirSync(join(docs, "guides"), { recursive: true })
  mkdirSync(join(docs, "images"), { recursive: true })
  writeFileSync(join(docs, "images", "diagram.png"), randomBytes(2048))
  writeFileSync(join(docs, "README.md"), "# Welcome\n\nStart with [the install guide](guides/install.md).\n")
  writeFileSync(join(docs, "guides", "install.md"), "# Install\n\nRun `quire`: ünïcode kept.\n\n![diagram](../images/diagram.png)\n")
  writeFileSync(join(dir, "install.md"), "# Install\n\n> [!NOTE]\n> A second example.\n")
  writeFileSync(join(dir, "notes.txt"), "plain bytes\n")
  for (const title of ["Handbook", "Reference"]) {
    const space = yield* json("spaces", "create", String(org.id), title)
    const spaceId = String(space.id)
    const merged = yield* json("cr", "open", spaceId, "--subject", `${title} install`)
    yield* run("cr", "apply", spaceId, String(merged.number), docs)
    yield* run("files", "add", spaceId, join(dir, "notes.txt"), "--cr", String(merged.number))
    yield* run("comments", "post", spaceId, "Is step 2 still true?", "--cr", String(merged.number), "--page", "guides/install")
    yield* run("cr", "merge", spaceId, String(merged.number))
    const open = yield* json("cr", "open", spaceId, "--subject", `${title} second example`)
    yield* run("pages", "put", spaceId, "guides/install", join(dir, "install.md"), "--cr", String(open.number))
    yield* run("comments", "post", spaceId, "Needs a second example", "--cr", String(open.number))
  }
})

/** A new temporary directory, removed when the scope closes. */
const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-dump-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** A new PostgreSQL database on the test server, dropped when the scope closes: its URL. */
const database = Effect.acquireRelease(
  Effect.gen(function*() {
    const name = `quire_dump_${randomBytes(6).toString("hex")}`
    yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return { name, url: url.toString() }
  }),
  ({ name }) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).pipe(Effect.ignore)
)

describe("quire db dump, restore and backup", () => {
  it.live("move a populated embedded instance to PostgreSQL and to S3, listings and file bytes unchanged", () =>
    Effect.gen(function*() {
      const dir = yield* temporaryDirectory
      const source = { QUIRE_DATA_DIR: yield* migratedEmbeddedDirectory(join(dir, "source")) }
      const first = yield* start(source)
      yield* populate(first, dir)
      const before = yield* snapshot(first)
      assert.strictEqual(Object.keys(before.files).length, 4)

      // The backup, while the server runs; the dump, once it has stopped.
      const backupFile = join(dir, "backup.quire")
      const backup = yield* quire(["db", "backup", "--out", backupFile], { ...source, QUIRE_URL: first.url, QUIRE_TOKEN: token })
      assert.strictEqual(backup.status, 0, backup.stderr)
      assert.match(backup.stdout, /^Dumped \d+ rows of \d+ tables and 2 files/)
      const refused = yield* quire(["db", "backup", "--out", backupFile], { ...source, QUIRE_URL: first.url, QUIRE_TOKEN: "quire_pat_wrong" })
      assert.strictEqual(refused.status, 1)
      assert.include(refused.stderr, "instance administrator's API token")
      yield* first.stop

      const dumpFile = join(dir, "dump.quire")
      const dump = yield* quire(["db", "dump", "--out", dumpFile], source)
      assert.strictEqual(dump.status, 0, dump.stderr)

      // The dump into PostgreSQL, files on disk.
      const pg = yield* database
      const onPostgres = { DATABASE_URL: pg.url, QUIRE_DATA_DIR: join(dir, "postgres") }
      const restored = yield* quire(["db", "restore", dumpFile], onPostgres)
      assert.strictEqual(restored.status, 0, restored.stderr)
      assert.match(restored.stdout, /into the postgres database$/)
      const second = yield* start(onPostgres)
      const afterDump = yield* snapshot(second)
      assert.deepStrictEqual(afterDump.listings, before.listings)
      assert.deepStrictEqual(afterDump.files, before.files)
      yield* second.stop

      const again = yield* quire(["db", "restore", dumpFile], onPostgres)
      assert.strictEqual(again.status, 1)
      assert.match(again.stderr, /not empty .*--force/)
      const forced = yield* quire(["db", "restore", dumpFile, "--force"], onPostgres)
      assert.strictEqual(forced.status, 0, forced.stderr)
      assert.match(forced.stdout, /replacing its \d+ rows$/)
      // The audit log came with the dump (the backup taken while the source ran); the restore is in it once,
      // --force having replaced the first restore's rows; and nothing else deletes from it.
      const logged = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ readonly action: string; readonly actor_type: string }>`
          SELECT action, actor_type FROM audit_events WHERE action LIKE 'backup.%' ORDER BY occurred_at, id`
        const deleted = yield* Effect.exit(sql`DELETE FROM audit_events`)
        return { rows, deleted }
      }).pipe(Effect.provide(Database.layerUrl(pg.url, { maxConnections: 1 })), Effect.scoped)
      assert.deepStrictEqual(logged.rows.map((row) => [row.action, row.actor_type]), [["backup.created", "user"], ["backup.restored", "system"]])
      assert.isTrue(Exit.isFailure(logged.deleted))

      // The backup into a new embedded directory, files in an S3 bucket.
      const endpoint = yield* S3Testing.start
      const onS3 = {
        QUIRE_DATA_DIR: yield* newEmbeddedDirectory(join(dir, "embedded")),
        QUIRE_S3_BUCKET: S3Testing.bucket,
        QUIRE_S3_ENDPOINT: endpoint,
        QUIRE_S3_ACCESS_KEY_ID: S3Testing.credentials.accessKeyId,
        QUIRE_S3_SECRET_ACCESS_KEY: S3Testing.credentials.secretAccessKey
      }
      const fromBackup = yield* quire(["db", "restore", backupFile], onS3)
      assert.strictEqual(fromBackup.status, 0, fromBackup.stderr)
      assert.match(fromBackup.stdout, /into the embedded database$/)
      assert.strictEqual((yield* S3Testing.keys(endpoint)).length, 2)
      const third = yield* start(onS3)
      const afterBackup = yield* snapshot(third)
      assert.deepStrictEqual(afterBackup.listings, before.listings)
      assert.deepStrictEqual(afterBackup.files, before.files)
    }).pipe(Effect.scoped, Effect.provide(Database.layerUrl(adminUrl, { maxConnections: 2 }))), 600_000)

  it.live("a dump of the embedded database a server has open is refused, naming the server, and writes nothing; once it stops, the dump runs", () =>
    Effect.gen(function*() {
      const dir = yield* temporaryDirectory
      const source = { QUIRE_DATA_DIR: yield* migratedEmbeddedDirectory(join(dir, "source")) }
      const server = yield* start(source)
      const dumpFile = join(dir, "dump.quire")
      const refused = yield* quire(["db", "dump", "--out", dumpFile], source)
      assert.strictEqual(refused.status, 1, refused.stdout)
      assert.include(refused.stderr, `The embedded database in ${source.QUIRE_DATA_DIR} is open in process `)
      assert.match(refused.stderr, /is open in process \d+ on \S+ \(.*server\.mjs.*, since \d{4}-/)
      assert.include(refused.stderr, "use `quire db backup`")
      assert.isFalse(existsSync(dumpFile) || existsSync(`${dumpFile}.partial`))
      // The server is untouched.
      const health = yield* Effect.promise(() => fetch(`${server.url}/health`).then((response) => response.status))
      assert.strictEqual(health, 200)
      yield* server.stop
      const dumped = yield* quire(["db", "dump", "--out", dumpFile], source)
      assert.strictEqual(dumped.status, 0, dumped.stderr)
      assert.isTrue(existsSync(dumpFile))
    }).pipe(Effect.scoped), 300_000)

  it.live("a file that is no dump is refused, naming it", () =>
    Effect.gen(function*() {
      const dir = yield* temporaryDirectory
      const file = join(dir, "notes.txt")
      writeFileSync(file, "hello\n")
      const run = yield* quire(["db", "restore", file], { QUIRE_DATA_DIR: join(dir, "data") })
      assert.strictEqual(run.status, 1)
      assert.include(run.stderr, `${file} is not a readable dump`)
    }).pipe(Effect.scoped))
})
