/**
 * What a `quire` process loads. A command that talks to a server loads the API client and nothing
 * of the database, the server's layers or the markdown parser (they are most of the code, so most
 * of a call's start-up); `db migrate` loads the database when it runs. Checked on the module
 * graph of a real process of the built CLI (dist/quire.mjs, what users run), not with a clock:
 * each chunk of the build it loads stands for the sources its source map names.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const recorder = fileURLToPath(new URL("./fixtures/record-loads.mjs", import.meta.url))

/** The modules `url` holds: a file of the build, the sources its source map names; any other file, itself. */
const modulesOf = (url: string): ReadonlyArray<string> => {
  const map = url.startsWith("file:") ? `${fileURLToPath(url)}.map` : undefined
  if (map === undefined || !existsSync(map)) return [url]
  const { sourceRoot, sources } = JSON.parse(readFileSync(map, "utf8")) as { readonly sourceRoot?: string; readonly sources: ReadonlyArray<string> }
  const base = new URL(sourceRoot ?? "", url)
  return sources.map((source) => new URL(source, base).href)
}

/** `quire ...args` of the build, in a process that reports every module it loaded. */
const modulesLoadedBy = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const [node, bundle] = await ProductionBuild.argv(root, "quire")
  return new Promise<{ readonly status: number; readonly loaded: ReadonlyArray<string>; readonly stderr: string }>((resolve) => {
    const directory = mkdtempSync(join(tmpdir(), "quire-loads-"))
    const record = join(directory, "loaded.json")
    const options = { env: { PATH: process.env.PATH ?? "", QUIRE_RECORD_LOADS: record, ...env } }
    execFile(node, ["--import", recorder, bundle, ...args], options, (error, _stdout, stderr) => {
      const loaded = (JSON.parse(readFileSync(record, "utf8")) as Array<string>).flatMap(modulesOf)
      rmSync(directory, { recursive: true, force: true })
      resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : -1, loaded, stderr })
    })
  })
}

/** Modules an API command must not load. */
const heavy = [
  /\/packages\/db\//,
  /\/packages\/platform\//,
  /\/packages\/content\/src\/markdown\//,
  /@electric-sql\/pglite/,
  /graphile-worker/,
  /\/pg@/,
  /\/unified@/,
  /\/shiki/,
  /\/redis@|@redis\+client/
]

const offending = (loaded: ReadonlyArray<string>) => loaded.filter((url) => heavy.some((pattern) => pattern.test(url)))

// Two processes of their own that share nothing: they run side by side.
describe.concurrent("quire start-up", () => {
  it("an API command loads the client, not the database, the server's layers or the markdown parser", async () => {
    const run = await modulesLoadedBy(["orgs", "list"], { QUIRE_URL: "http://127.0.0.1:1", QUIRE_TOKEN: "t" })
    // It ran: it tried the server, which is not there.
    assert.strictEqual(run.status, 1, run.stderr)
    assert.include(run.stderr, "Cannot reach the Quire server")
    assert.isTrue(run.loaded.some((url) => url.includes("/packages/api/src/")), "the API contract is loaded")
    assert.deepStrictEqual(offending(run.loaded), [])
  }, 60_000)

  it("db migrate loads the database when it runs", async () => {
    const run = await modulesLoadedBy(["db", "migrate"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none" })
    assert.strictEqual(run.status, 1, run.stderr)
    assert.isTrue(run.loaded.some((url) => url.includes("/packages/db/src/")), "the database package is loaded")
    assert.isTrue(run.loaded.some((url) => url.includes("/packages/platform/src/")), "the platform package is loaded")
  }, 180_000)
})
