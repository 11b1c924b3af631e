/**
 * Where the test suites' PostgreSQL databases keep their files: a tablespace in memory (tmpfs,
 * `/dev/shm`) when the server runs on this machine and the tests may make one, else the server's
 * own disk. The suites create and drop hundreds of databases a run, each a few hundred files; on a
 * disk filesystem that churn is paid in the kernel (allocating inodes among the ones just freed,
 * discarding freed blocks), and a throwaway database needs none of a disk's durability.
 *
 * `QUIRE_TEST_TABLESPACE=default` keeps every test database on the server's disk. A tablespace whose
 * directory is gone (the machine restarted and emptied its tmpfs) is dropped with the databases it
 * held, and made again; a tablespace that cannot be made (another user's server, a server in a
 * container, no superuser) leaves the databases where they were, as before.
 */
import { Config, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { chownSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs"

/** The tablespace's name on the server and its directory on this machine. */
export const memoryTablespace = { name: "quire_test_memory", directory: "/dev/shm/quire-test-tablespace" } as const

/** Held while the tablespace is made or repaired, so that concurrent suites do it once. */
const tablespaceLock = 0x7175_6974

const loopback = new Set(["", "127.0.0.1", "localhost", "[::1]"])

/** PostgreSQL keeps a tablespace's files under `PG_<version>_<catalog>` in its directory: none there, none to use. */
const directoryHoldsFiles = () => existsSync(memoryTablespace.directory) && readdirSync(memoryTablespace.directory).some((name) => name.startsWith("PG_"))

type Admin = SqlClient.SqlClient

const registered = (admin: Admin) =>
  admin<{ readonly oid: number }>`SELECT oid FROM pg_tablespace WHERE spcname = ${memoryTablespace.name}`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/** The databases a tablespace whose files are gone still names (templates among them), then the tablespace. */
const dropStale = Effect.fnUntraced(function*(admin: Admin) {
  const stale = yield* admin<{ readonly datname: string }>`SELECT d.datname FROM pg_database d
    JOIN pg_tablespace t ON t.oid = d.dattablespace WHERE t.spcname = ${memoryTablespace.name}`
  for (const { datname } of stale) {
    yield* admin`ALTER DATABASE ${admin(datname)} WITH IS_TEMPLATE false`
    yield* admin`DROP DATABASE IF EXISTS ${admin(datname)} WITH (FORCE)`
  }
  yield* admin`DROP TABLESPACE IF EXISTS ${admin(memoryTablespace.name)}`
})

/** An empty directory owned by the server's system user (the owner of its data directory), as CREATE TABLESPACE requires. */
const prepareDirectory = Effect.fnUntraced(function*(admin: Admin) {
  const [setting] = yield* admin<{ readonly data_directory: string }>`SHOW data_directory`
  const owner = statSync(setting!.data_directory)
  rmSync(memoryTablespace.directory, { recursive: true, force: true })
  mkdirSync(memoryTablespace.directory, { recursive: true, mode: 0o700 })
  if (process.getuid?.() !== owner.uid) chownSync(memoryTablespace.directory, owner.uid, owner.gid)
})

const make = Effect.fnUntraced(function*(admin: Admin) {
  yield* Effect.acquireRelease(
    admin`SELECT pg_advisory_lock(${tablespaceLock})`,
    () => Effect.ignore(admin`SELECT pg_advisory_unlock(${tablespaceLock})`)
  )
  const exists = yield* registered(admin)
  if (exists && directoryHoldsFiles()) return
  if (exists) yield* dropStale(admin)
  yield* prepareDirectory(admin)
  yield* admin`CREATE TABLESPACE ${admin(memoryTablespace.name)} LOCATION ${admin.literal(`'${memoryTablespace.directory}'`)}`
})

/**
 * The tablespace the test databases on the server at `adminUrl` go to: the one in memory, made
 * now if need be, or `undefined` (the server's default) when it is turned off, the server is not
 * on this machine, or it cannot be made.
 */
export const forServer = (admin: Admin, adminUrl: string): Effect.Effect<string | undefined> =>
  Effect.gen(function*() {
    const setting = yield* Config.String("QUIRE_TEST_TABLESPACE").pipe(Config.withDefault("memory"))
    if (setting === "default" || !loopback.has(new URL(adminUrl).hostname) || !existsSync("/dev/shm")) return undefined
    if ((yield* registered(admin)) && directoryHoldsFiles()) return memoryTablespace.name
    yield* Effect.scoped(make(admin))
    return memoryTablespace.name
  }).pipe(Effect.catchCause(() => Effect.succeed(undefined)))
