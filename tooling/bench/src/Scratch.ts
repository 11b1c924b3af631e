/** Throwaway storage for one run: a database on the real PostgreSQL server, a PGlite directory. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Database } from "@quire/db"

const howToStart = "Start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` " +
  "or point QUIRE_BENCH_DATABASE_URL at a server where the user may CREATE DATABASE."

/** A fresh `quire_bench_<random>` on the server at `adminUrl`, dropped when the scope closes; its URL. */
export const postgresDatabase = (adminUrl: string) =>
  Effect.gen(function*() {
    const admin = yield* PgClient.makeClient({ url: Redacted.make(adminUrl), connectTimeout: Database.connectTimeout }).pipe(
      Effect.provide(Reactivity.layer),
      Effect.mapError((error) => new Error(`Cannot reach PostgreSQL at ${adminUrl}: ${error.message}. ${howToStart}`))
    )
    const name = `quire_bench_${randomBytes(6).toString("hex")}`
    yield* Effect.acquireRelease(
      admin`CREATE DATABASE ${admin(name)}`,
      () => admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(Effect.orDie)
    )
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return url.toString()
  })

/** A temporary directory for PGlite, removed when the scope closes. */
export const directory = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "quire-bench-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

/** The database of a new installation that the production build made (dist/), when there is one. */
const builtCluster = fileURLToPath(new URL("../../../dist/pglite-initial.tar.gz", import.meta.url))

/**
 * PGlite in `dataDir`, created as the built server creates a new one (from the build's initial
 * database, then the migrations newer than it) when dist/ holds a build, else by initdb: a new
 * embedded database in about a second instead of many.
 */
export const embedded = (dataDir: string) =>
  Database.layerEmbedded({ dataDir, initialCluster: existsSync(builtCluster) ? builtCluster : undefined })
