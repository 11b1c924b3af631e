/**
 * The built server (dist/server.mjs, the shared production build) in a child process, for the `quire db` tests that move a real
 * instance: started on a free port and stopped when the scope closes (or at `stop`).
 */
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { LocalServer } from "@quire/testkit"
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
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "DATABASE_URL" && !without.includes(name)))
      const port = await LocalServer.freePort()
      const url = `http://127.0.0.1:${port}`
      const [node, bundle] = await ProductionBuild.argv(root, "server")
      const child: ChildProcess = spawn(node, [bundle], {
        cwd: root,
        env: { ...inherited, PORT: String(port), HOST: "127.0.0.1", QUIRE_PUBLIC_URL: url, ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let log = ""
      child.stdout?.on("data", (chunk) => (log += String(chunk)))
      child.stderr?.on("data", (chunk) => (log += String(chunk)))
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      const stop = Effect.promise(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
        await exited
      })
      const deadline = Date.now() + 120_000
      while (Date.now() < deadline && child.exitCode === null) {
        if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) return { url, stop }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      child.kill("SIGKILL")
      throw new Error(`the server did not start:\n${log}`)
    }),
    (running) => running.stop
  )
