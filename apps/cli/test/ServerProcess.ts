/**
 * The built server (dist/server.mjs, the shared production build) in a child process, for the `quire db` tests that move a real
 * instance: started on a free port and stopped when the scope closes (or at `stop`).
 */
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
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
