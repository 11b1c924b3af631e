/**
 * `quire db dump` with a passphrase (issue 34): the file is AES-256-GCM under a scrypt-derived key.
 * A restore without the passphrase or with a wrong one is refused with a message saying so, an
 * altered file is refused before the database is touched, and the right passphrase restores it.
 * On PostgreSQL and PGlite.
 */
import { assert, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"
import { createHash } from "node:crypto"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import * as DumpCipher from "../src/DumpCipher.ts"
import * as InstanceDump from "../src/InstanceDump.ts"
import * as Testing from "../src/Testing.ts"

const blobs: InstanceDump.Blobs = {
  get: () => Effect.succeed(Option.none()),
  put: (bytes) => Effect.succeed(createHash("sha256").update(bytes).digest("hex"))
}

const tempDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "quire-encrypted-dump-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

/** The message of the DumpError a failed dump or restore died with. */
const failure = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit) => {
    assert.isTrue(Exit.isFailure(exit), "expected a failure")
    const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
    return defect instanceof Error ? defect.message : String(defect)
  })

const restoreOptions = { migrationTables: [], migrate: Effect.void, blobs, force: true }

for (const database of Testing.backends) {
  layer(database.layer, { timeout: "60 seconds" })(`${database.name}: a dump encrypted with a passphrase`, (it) => {
    it.effect("opens only with its passphrase, refuses an altered file, and restores with the right one", () =>
      Effect.scoped(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const dir = yield* tempDir
        yield* sql`CREATE TABLE dump_secrets (id int PRIMARY KEY, value text NOT NULL)`
        yield* sql`INSERT INTO dump_secrets VALUES (1, 'plain-session-id-that-must-not-show'), (2, 'ünïcode')`
        const path = join(dir, "instance.dump")
        yield* InstanceDump.write(path, { source: "test", migrationTables: [], blobs, passphrase: "correct horse battery staple" })

        const bytes = yield* Effect.promise(() => readFile(path))
        assert.isTrue(yield* Effect.promise(() => DumpCipher.isEncrypted(path)))
        assert.notInclude(bytes.toString("latin1"), "plain-session-id")
        assert.throws(() => gunzipSync(bytes))

        assert.include(yield* failure(InstanceDump.restore(path, restoreOptions)), "is encrypted: give its passphrase")
        assert.include(yield* failure(InstanceDump.restore(path, { ...restoreOptions, passphrase: "wrong horse" })), "Wrong passphrase")

        // One byte of the body changed: refused, and the table is as it was.
        const altered = join(dir, "altered.dump")
        const copy = Buffer.from(bytes)
        const at = copy.indexOf(0x0a) + 40
        copy[at] = (copy[at] ?? 0) ^ 0x01
        yield* Effect.promise(() => writeFile(altered, copy))
        yield* sql`UPDATE dump_secrets SET value = 'changed since' WHERE id = 2`
        const message = yield* failure(InstanceDump.restore(altered, { ...restoreOptions, passphrase: "correct horse battery staple" }))
        assert.match(message, /altered or cut short|not a readable dump|damaged/)
        const after = yield* sql<{ readonly value: string }>`SELECT value FROM dump_secrets WHERE id = 2`
        assert.strictEqual(after[0]?.value, "changed since")

        // Cut short: the tag is gone.
        const cut = join(dir, "cut.dump")
        yield* Effect.promise(() => writeFile(cut, bytes.subarray(0, bytes.length - 20)))
        assert.match(yield* failure(InstanceDump.restore(cut, { ...restoreOptions, passphrase: "correct horse battery staple" })), /altered or cut short|cut short|not a readable dump/)

        const restored = yield* InstanceDump.restore(path, { ...restoreOptions, passphrase: "correct horse battery staple" })
        assert.strictEqual(restored.trailer.rows, 2)
        const rows = yield* sql<{ readonly id: number; readonly value: string }>`SELECT id, value FROM dump_secrets ORDER BY id`
        assert.deepStrictEqual(rows.map((row) => row.value), ["plain-session-id-that-must-not-show", "ünïcode"])

        // A dump without a passphrase is read as before, whether or not one is given.
        const plain = join(dir, "plain.dump")
        yield* InstanceDump.write(plain, { source: "test", migrationTables: [], blobs })
        assert.isFalse(yield* Effect.promise(() => DumpCipher.isEncrypted(plain)))
        assert.strictEqual((yield* InstanceDump.restore(plain, restoreOptions)).trailer.rows, 2)
      })))
  })
}
