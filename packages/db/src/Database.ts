/**
 * The Postgres client layer. `layerUrl` talks to a real server through a pool; `layerEmbedded`
 * runs PGlite in-process and serves it, through a stream in this process, to the same
 * `@effect/sql-pg` client, so both backends share one driver, one dialect and one set of type mappings.
 */
import type { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Config, Context, type Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import * as ClusterDump from "./ClusterDump.ts"
import * as EmbeddedOwner from "./EmbeddedOwner.ts"
import { pgliteStream } from "./PgliteStream.ts"

/** The client of a real PostgreSQL (LISTEN/NOTIFY), for packages that talk to other processes through it. */
export { PgClient } from "@effect/sql-pg"

/**
 * Which backend the process talks to and its connection URL. The embedded database has one
 * connection, this layer's client's, in this process, so its URL is informational there.
 */
export class DatabaseInfo extends Context.Service<DatabaseInfo, {
  readonly kind: "embedded" | "postgres"
  readonly url: string
  /** Connections the client may open (1 embedded). */
  readonly maxConnections?: number | undefined
  /**
   * The `application_name` of this client's connections, which `pg_stat_activity` shows (the
   * metrics count this process's connections by it); one per client, so replicas count apart.
   */
  readonly applicationName?: string | undefined
  /**
   * The embedded cluster's files as a gzipped tarball, taken between two statements under PGlite's
   * query lock (`PGlite.dumpDataDir`): what a crash at that instant would leave, which PostgreSQL's
   * recovery opens consistent. Only the embedded database has one (`quire db backup`).
   */
  readonly snapshot?: (() => Promise<Uint8Array>) | undefined
}>()("@quire/db/DatabaseInfo") {}

/**
 * PGlite on first use: a process on a PostgreSQL server never holds its code. The built bundles
 * keep it in a chunk of its own.
 */
const pglite = () => import("@electric-sql/pglite").then((module) => module.PGlite)

/** What the embedded database's URL says: no process but this one reaches it, so it names no port. */
export const embeddedUrl = "postgres://postgres@embedded/postgres"

/** The embedded database (PGlite) could not be started. */
export class EmbeddedDatabaseError extends Schema.TaggedError<EmbeddedDatabaseError>()("EmbeddedDatabaseError", {
  message: Schema.String,
  cause: Schema.Defect()
}) {}

/**
 * The largest message the client reads from the server (`@effect/sql-pg`'s parser, whose default
 * this is): one result row is one message, and a longer one fails the parser, which cannot be
 * reused, so the connection is lost (the embedded server has only that one, so every later query
 * failed). Whatever a package stores in one row must stay well under it: see "Bounded rows" in
 * docs/content.md.
 */
export const clientMaxMessageBytes = 16 * 1024 * 1024

/** Everything the database layers provide. */
export type Services = PgClient.PgClient | SqlClient.SqlClient | DatabaseInfo

/**
 * How long a new connection may take to open and authenticate, unless the URL says
 * (`?connect_timeout=<seconds>`, 0 for no limit). `@effect/sql-pg`'s own default is shorter than a
 * busy server may take to start a backend, which failed a migration and so the start (docs/testing.md,
 * "Limits for a loaded machine"); PostgreSQL's own clients wait without limit.
 */
export const connectTimeout: Duration.Input = "30 seconds"

/** A pooled client for a real PostgreSQL server at `url` (default pool size 10). */
export const layerUrl = (
  url: string,
  options?: {
    readonly maxConnections?: number | undefined
    /** The largest message the client reads; {@link clientMaxMessageBytes} unless a test lowers it. */
    readonly maxMessageBytes?: number | undefined
  }
): Layer.Layer<Services, SqlError> =>
  Layer.unwrap(Effect.sync(() => {
    const maxConnections = options?.maxConnections ?? 10
    const maxMessageSize = options?.maxMessageBytes ?? clientMaxMessageBytes
    const applicationName = `quire ${process.pid} ${randomBytes(3).toString("hex")}`
    return Layer.merge(
      PgClient.layer({
        url: Redacted.make(url),
        maxConnections,
        maxMessageSize,
        applicationName,
        ...(/[?&]connect_timeout=/.test(url) ? {} : { connectTimeout })
      }),
      Layer.succeed(DatabaseInfo, DatabaseInfo.of({ kind: "postgres", url, maxConnections, applicationName }))
    )
  }))

const tryEmbedded = <A>(message: string, evaluate: () => PromiseLike<A>) =>
  Effect.tryPromise({
    try: evaluate,
    catch: (cause) => new EmbeddedDatabaseError({ message, cause })
  })

/**
 * The database of a new installation, migrated, that tooling/build/build.mjs dumps beside the
 * bundles (dist/); running from sources there is none, and PGlite runs initdb.
 */
const builtInitialCluster = fileURLToPath(new URL("./pglite-initial.tar.gz", import.meta.url))

/**
 * PGlite persisted in `dataDir` (created if missing; `undefined` keeps it in memory), served in
 * this process to a single-connection client (`layerServing`): concurrent fibers queue for it.
 * A `dataDir` that holds no cluster yet is created from `initialCluster` (a gzipped
 * `PGlite.dumpDataDir` of a new cluster; by default the build's, when there is one) rather than
 * by initdb; an existing cluster is only ever opened.
 * Closing the layer closes the client and PGlite (which flushes the data directory). PGlite
 * cannot cancel queries, and LISTEN/NOTIFY and advisory locks do not work. One process at a time
 * opens a data directory (`EmbeddedOwner`): another is refused with an error naming the first.
 */
/**
 * PostgreSQL's settings in the embedded database, chosen for a small machine: PostgreSQL's
 * defaults are a server's, and PGlite, one process serving one session, touches all of that
 * memory (docs/operations.md, "Measurements behind the design").
 * `QUIRE_EMBEDDED_POSTGRES_CONF` (`name=value` pairs separated by commas) adds to or overrides them.
 */
export const embeddedSettings: ReadonlyArray<string> = [
  "shared_buffers=16MB",
  "work_mem=4MB",
  "maintenance_work_mem=16MB",
  "temp_buffers=2MB"
]

export const layerEmbedded = (options: {
  readonly dataDir?: string | undefined
  readonly initialCluster?: string | undefined
  /** PostgreSQL settings (`name=value`) after {@link embeddedSettings}. */
  readonly settings?: ReadonlyArray<string> | undefined
  /** The largest message the client reads; {@link clientMaxMessageBytes} unless a test lowers it. */
  readonly maxMessageBytes?: number | undefined
}): Layer.Layer<Services, SqlError | EmbeddedDatabaseError> =>
  Layer.unwrap(Effect.gen(function*() {
    const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir)
    if (dataDir !== undefined) {
      yield* tryEmbedded(`Cannot create the data directory ${dataDir}`, () => mkdir(dataDir, { recursive: true }))
      // One process at a time: released after PGlite closes (finalizers run in reverse).
      yield* EmbeddedOwner.own(dataDir).pipe(Effect.mapError((cause) => new EmbeddedDatabaseError({ message: cause.message, cause })))
      if (!ClusterDump.holdsCluster(dataDir)) {
        const initial = options.initialCluster ?? (existsSync(builtInitialCluster) ? builtInitialCluster : undefined)
        if (initial === undefined) {
          yield* Effect.logInfo(`Creating a new embedded database in ${dataDir} (initdb)`)
        } else {
          yield* tryEmbedded(
            `Cannot create the embedded database in ${dataDir} from ${initial}`,
            () => ClusterDump.restore(initial, dataDir)
          )
          yield* Effect.logInfo(`Created a new embedded database in ${dataDir} from ${initial}`)
        }
      }
    }
    const db = yield* Effect.acquireRelease(
      tryEmbedded(
        `Cannot open the embedded database${dataDir === undefined ? "" : ` in ${dataDir}`}`,
        async () => (await pglite()).create({ ...(dataDir === undefined ? {} : { dataDir }), postgresqlconf: [...embeddedSettings, ...(options.settings ?? [])] })
      ),
      (db) => Effect.promise(() => db.close())
    )
    // The data directory also holds the instance secret and the file bytes: the snapshot is the
    // cluster's files only, read as a plain tarball and compressed once, after they are picked.
    const snapshot = () => db.dumpDataDir("none").then(async (file) => ClusterDump.clusterOnly(new Uint8Array(await file.arrayBuffer())))
    return layerServing(db, snapshot, { maxMessageBytes: options.maxMessageBytes })
  }))

/**
 * The open PGlite `db` served to a single-connection client in this process (`PgliteStream.ts`),
 * as `layerEmbedded` serves it (test suites serve one loaded from a dump). Closing the layer
 * closes the client; `db` stays open.
 */
export const layerServing = (
  db: PGlite,
  snapshot?: DatabaseInfo["Service"]["snapshot"],
  options?: {
    /** The largest message the client reads; {@link clientMaxMessageBytes} unless a test lowers it. */
    readonly maxMessageBytes?: number | undefined
  }
): Layer.Layer<Services, SqlError | EmbeddedDatabaseError> =>
  Layer.suspend(() => {
    const maxMessageSize = options?.maxMessageBytes ?? clientMaxMessageBytes
    // PGlite is a single session: the client opens only one connection, which no other process can reach.
    return Layer.merge(
      PgClient.layerFrom(PgClient.makeClient({ url: Redacted.make(embeddedUrl), maxMessageSize, stream: () => pgliteStream(db) })),
      Layer.succeed(DatabaseInfo, DatabaseInfo.of({ kind: "embedded", url: embeddedUrl, maxConnections: 1, snapshot }))
    )
  })

/**
 * A cluster snapshot (`DatabaseInfo.snapshot`'s gzipped tarball) opened in memory and served as
 * `layerEmbedded` serves a data directory: `quire db backup` reads the backup's rows from it.
 * PGlite runs recovery on the snapshot's WAL when it opens; closing the layer drops it.
 */
export const layerSnapshot = (tarball: Uint8Array): Layer.Layer<Services, SqlError | EmbeddedDatabaseError> =>
  Layer.unwrap(Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      tryEmbedded("Cannot open the backup's database", async () => (await pglite()).create({ loadDataDir: new Blob([tarball as Uint8Array<ArrayBuffer>]) })),
      (db) => Effect.promise(() => db.close())
    )
    return layerServing(db)
  }))

/**
 * Reads `DATABASE_URL` (with `QUIRE_DB_POOL_SIZE`, default 10) to use a real server; without it,
 * runs the embedded database in `QUIRE_DATA_DIR` (default `.quire/data`).
 */
export const layer: Layer.Layer<Services, Config.ConfigError | SqlError | EmbeddedDatabaseError> = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.Redacted("DATABASE_URL").pipe(Config.option)
    const nonEmpty = Option.filter(url, (url) => Redacted.value(url).trim() !== "")
    if (Option.isSome(nonEmpty)) {
      const maxConnections = yield* Config.Int("QUIRE_DB_POOL_SIZE").pipe(Config.withDefault(10))
      return layerUrl(Redacted.value(nonEmpty.value), { maxConnections })
    }
    // A relative directory is taken from where the command was typed: pnpm runs scripts inside
    // the package's folder but records the caller's directory in INIT_CWD.
    const configured = yield* Config.String("QUIRE_DATA_DIR").pipe(Config.withDefault(".quire/data"))
    const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), configured)
    const settings = yield* Config.String("QUIRE_EMBEDDED_POSTGRES_CONF").pipe(Config.withDefault(""))
    return layerEmbedded({ dataDir, settings: settings.split(",").map((setting) => setting.trim()).filter((setting) => setting !== "") })
  })
)
