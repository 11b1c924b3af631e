/**
 * `quire db backup` of a running embedded server (issue 34, findings 4 and 12): the server's
 * snapshot holds the cluster's files only (neither the instance secret nor the file bytes that
 * share its data directory), and a backup whose store lacks a file the rows name fails, naming
 * the file and where it looked, and leaves no file behind. A backup encrypted with a passphrase
 * restores only with it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { ClusterDump } from "@quire/db"
import { quire } from "./Quire.ts"
import { migratedEmbeddedDirectory, newEmbeddedDirectory, startServer } from "./ServerProcess.ts"

const token = "quire_db_backup_test_token_0123456789"

/** The server on the embedded database in `dataDir`, without QUIRE_SECRET (so it keeps `dataDir/secret`). */
const start = (dataDir: string) => startServer({ QUIRE_ADMIN_TOKEN: token, QUIRE_DATA_DIR: dataDir }, ["QUIRE_SECRET"])

const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "quire-backup-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("quire db backup", () => {
  it.live("the snapshot holds no instance secret; a backup that cannot read every file fails and writes nothing", () =>
    Effect.gen(function*() {
      const dir = yield* temporaryDirectory
      const dataDir = yield* migratedEmbeddedDirectory(join(dir, "data"))
      const server = yield* start(dataDir)
      const env = { QUIRE_URL: server.url, QUIRE_TOKEN: token }
      const run = Effect.fnUntraced(function*(...args: Array<string>) {
        const result = yield* quire([...args, "--json"], env)
        assert.strictEqual(result.status, 0, `quire ${args.join(" ")}: ${result.stderr}`)
        return JSON.parse(result.stdout) as Record<string, unknown>
      })
      const org = yield* run("orgs", "create", "Backups")
      const space = yield* run("spaces", "create", String(org.id), "Handbook")
      writeFileSync(join(dir, "diagram.png"), Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"))
      yield* run("files", "add", String(space.id), join(dir, "diagram.png"))

      // The server's own answer: the cluster's files, not the secret kept beside them.
      const secret = readFileSync(join(dataDir, "secret"), "utf8").trim()
      assert.isAtLeast(secret.length, 32)
      const response = yield* Effect.promise(() =>
        fetch(`${server.url}/admin/backup`, { method: "POST", headers: { authorization: `Bearer ${token}` } })
      )
      assert.strictEqual(response.status, 200)
      const tarball = new Uint8Array(yield* Effect.promise(() => response.arrayBuffer()))
      assert.deepStrictEqual(yield* Effect.promise(() => ClusterDump.foreignEntries(tarball)), [])
      assert.notInclude(gunzipSync(tarball).toString("latin1"), secret)

      // Without the server's QUIRE_DATA_DIR the CLI's store is another directory, which lacks the file.
      const elsewhere = join(dir, "elsewhere")
      const out = join(dir, "nightly.dump")
      const failed = yield* quire(["db", "backup", "--out", out], { ...env, QUIRE_DATA_DIR: elsewhere })
      assert.strictEqual(failed.status, 1, failed.stdout)
      assert.match(failed.stderr, /1 file the database names is not in the store \(.*elsewhere\/blobs, from QUIRE_DATA_DIR\): [0-9a-f]{64}/)
      assert.include(failed.stderr, "Nothing was written")
      assert.isFalse(existsSync(out))
      assert.deepStrictEqual(readdirSync(dir).filter((name) => name.startsWith("nightly")), [])

      // --allow-missing-files writes a dump without the file, saying so.
      const partial = join(dir, "partial.dump")
      const allowed = yield* quire(["db", "backup", "--out", partial, "--allow-missing-files"], { ...env, QUIRE_DATA_DIR: elsewhere })
      assert.strictEqual(allowed.status, 0, allowed.stderr)
      assert.match(allowed.stderr, /Warning \(--allow-missing-files\): 1 files/)
      assert.isTrue(existsSync(partial))

      // With the server's QUIRE_DATA_DIR the backup holds the file (the unencrypted success is
      // DbDumpRestore.test.ts's). Encrypted with a passphrase: a restore without it, or with
      // another, is refused; with it, it loads, the file with it.
      const passphraseFile = join(dir, "passphrase")
      writeFileSync(passphraseFile, "correct horse battery staple\n")
      const sealed = join(dir, "sealed.dump")
      const encrypted = yield* quire(["db", "backup", "--out", sealed, "--passphrase-file", passphraseFile], { ...env, QUIRE_DATA_DIR: dataDir })
      assert.strictEqual(encrypted.status, 0, encrypted.stderr)
      assert.match(encrypted.stdout, /and 1 files .*\(encrypted with the passphrase\)$/)
      assert.isTrue(readFileSync(sealed).subarray(0, 20).toString("latin1").startsWith("QUIRE-DUMP-ENCRYPTED"))
      const target = { QUIRE_DATA_DIR: yield* newEmbeddedDirectory(join(dir, "restored")) }
      const without = yield* quire(["db", "restore", sealed], target)
      assert.strictEqual(without.status, 1)
      assert.include(without.stderr, "is encrypted: give its passphrase")
      const wrong = yield* quire(["db", "restore", sealed], { ...target, QUIRE_DUMP_PASSPHRASE: "wrong horse" })
      assert.strictEqual(wrong.status, 1)
      assert.include(wrong.stderr, "Wrong passphrase")
      const right = yield* quire(["db", "restore", sealed], { ...target, QUIRE_DUMP_PASSPHRASE: "correct horse battery staple" })
      assert.strictEqual(right.status, 0, right.stderr)
      assert.match(right.stdout, /and 1 files/)
      assert.include(right.stderr, "a dump holds no instance secret")
    }), { timeout: 600_000 })
})
