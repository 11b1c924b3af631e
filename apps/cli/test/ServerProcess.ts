/**
 * The built server (dist/server.mjs, the shared production build) in a child process, for the `quire db` tests that move a real
 * instance: started on a free port and stopped when the scope closes (or at `stop`).
 */
import { Effect } from "effect"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ClusterDump } from "@quire/db"
import { Services } from "@quire/platform"
import { Backends } from "@quire/testkit"
import * as ProductionBuild from "@quire/testkit/ProductionBuild"

const root = fileURLToPath(new URL("../../../", import.meta.url))

export interface Running {
  readonly url: string
  readonly stop: Effect.Effect<void>
}

/**
 * The server with the test process's environment, less DATABASE_URL and the `without` names,
 * and `env` over it; waits up to 120 s for /health.
 */
export const startServer = (env: Record<string, string>, without: ReadonlyArray<string> = []) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<Running> => {
      const dropped = Object.fromEntries(without.map((name) => [name, undefined]))
      const server = await ProductionBuild.startServer(root, { ...dropped, ...env })
      return { url: server.url, stop: Effect.promise(() => server.stop()).pipe(Effect.asVoid) }
    }),
    (running) => running.stop
  )

/**
 * `dataDir` holding the database of a new installation (the build's dist/pglite-initial.tar.gz), as
 * the built `quire` creates a missing embedded database. The tests run `quire` from its sources,
 * where there is no such file beside the database package and PGlite would run initdb (seconds).
 */
export const newEmbeddedDirectory = (dataDir: string) =>
  Effect.promise(() => ClusterDump.restore(join(root, "dist/pglite-initial.tar.gz"), dataDir)).pipe(Effect.as(dataDir))

/**
 * `dataDir` holding the database of an installation that has applied every migration (a PGlite
 * cluster migrated once and kept, `Backends.embeddedClusterFile`), for a server a test only needs
 * running: its first start would otherwise apply every migration on the embedded database.
 */
export const migratedEmbeddedDirectory = (dataDir: string) =>
  Effect.flatMap(Backends.embeddedClusterFile(Services.migrations), (file) => Effect.promise(() => ClusterDump.restore(file, dataDir))).pipe(
    Effect.as(dataDir)
  )
