/**
 * The production build that tests and benches of the built server share: `node tooling/build/build.mjs`
 * (the Dockerfile's build line) into the checkout's dist/, made only when a source is newer than it.
 * Processes that need it at the same time (the server suite's workers, the bench's smoke in another
 * turbo task) take turns through a lock directory: the first builds, the others wait and reuse it,
 * so one `pnpm test` builds once.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { Processes } from "@quire/kernel"
import { freePort } from "./LocalServer.ts"

/** The build's command line, as the Dockerfile's `RUN` has it. */
export const command: ReadonlyArray<string> = ["node", "tooling/build/build.mjs"]

/** Sources that do not go into dist/: tests, docs and the benches themselves. */
const notBuilt = (file: string) =>
  /(^|\/)test\//.test(file) || file.startsWith("docs/") || file.startsWith("tooling/bench/") || file.endsWith(".md")

/** A file of `checkout` newer than its dist/server.mjs (or why there is no usable build); undefined when dist/ is up to date. */
export const staleBecause = (checkout: string): string | undefined => {
  const bundle = join(checkout, "dist/server.mjs")
  const made = ["dist/web/index.html", "dist/pglite-initial.tar.gz", "dist/api-reference.json"].map((file) => join(checkout, file))
  if (!existsSync(bundle) || !made.every((file) => existsSync(file))) {
    return "dist/ has no complete build"
  }
  const built = statSync(bundle).mtimeMs
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: checkout, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
    .split("\0")
  return files.find((file) => {
    if (file === "" || notBuilt(file)) return false
    try {
      return statSync(join(checkout, file)).mtimeMs > built
    } catch {
      return false
    }
  })
}

/** Holds `checkout`'s build lock while `use` runs; a lock whose holder has died is taken over. */
const withLock = async <A>(checkout: string, use: () => Promise<A>): Promise<A> => {
  const lock = join(checkout, "dist.lock")
  const owner = join(lock, "pid")
  for (;;) {
    try {
      mkdirSync(lock)
      writeFileSync(owner, String(process.pid))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const pid = Number(existsSync(owner) ? readFileSync(owner, "utf8") : "NaN")
      // A holder that died leaves its lock behind; one that has not written its pid yet is given time.
      if (Number.isInteger(pid) && pid > 0 && !Processes.alive(pid)) rmSync(lock, { recursive: true, force: true })
      else await sleep(250)
    }
  }
  try {
    return await use()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** `node <args>` in `checkout` with this Node; fails with the end of what it printed. */
const runNode = (checkout: string, args: ReadonlyArray<string>) =>
  new Promise<void>((resolve, reject) => {
    execFile(process.execPath, [...args], { cwd: checkout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error === null ? resolve() : reject(new Error(`node ${args.join(" ")} failed: ${error.message}\n${stdout.slice(-3000)}${stderr.slice(-3000)}`)))
  })

const build = (checkout: string) => runNode(checkout, [join(checkout, command[1]!)])

/**
 * `checkout`'s dist/, built first when a source is newer (or it is missing); one process at a time.
 * `built` says whether this call built it, and `reason` why (undefined when dist/ was up to date).
 */
export const ensure = (checkout: string): Promise<{ readonly dir: string; readonly built: boolean; readonly reason: string | undefined }> =>
  withLock(checkout, async () => {
    const reason = staleBecause(checkout)
    if (reason !== undefined) {
      const started = new Date()
      await build(checkout)
      // The build is as fresh as the sources it read when it began: a file saved while it ran is newer.
      utimesSync(join(checkout, "dist/server.mjs"), started, started)
    }
    return { dir: join(checkout, "dist"), built: reason !== undefined, reason }
  })

/**
 * A test's own entry point (`entry`, relative to `checkout`: a server the browser tests start, say)
 * bundled as the apps are, into `<checkout>/dist-test/<name>/<name>.mjs` beside links to everything of dist/
 * (`node tooling/build/bundle.mjs`), so it runs with `node` alone and finds what the built server finds.
 * Made after dist/ is current, when missing or older than dist/server.mjs or than `entry` itself
 * (what it imports besides the sources is not looked at), one process at a time. The argv that runs it.
 */
export const bundledEntry = async (checkout: string, name: string, entry: string): Promise<[string, string]> => {
  const { dir } = await ensure(checkout)
  const outdir = join(checkout, "dist-test", name)
  const bundle = join(outdir, `${name}.mjs`)
  return withLock(checkout, async () => {
    const newest = Math.max(statSync(join(dir, "server.mjs")).mtimeMs, statSync(join(checkout, entry)).mtimeMs)
    if (!existsSync(bundle) || statSync(bundle).mtimeMs < newest) {
      await runNode(checkout, [join(checkout, "tooling/build/bundle.mjs"), "--outdir", outdir, "--beside", dir, `${name}=${join(checkout, entry)}`])
    }
    return [process.execPath, bundle]
  })
}

/** The argv that runs `app`'s bundle (dist/server.mjs, dist/worker.mjs, dist/quire.mjs) with this Node, the build made first when stale. */
export const argv = async (checkout: string, app: "server" | "worker" | "quire"): Promise<[string, string]> =>
  [process.execPath, join((await ensure(checkout)).dir, `${app}.mjs`)]

/** The built server running in a child process. */
export interface BuiltServer {
  readonly url: string
  readonly port: number
  readonly child: ChildProcess
  /** What it printed so far. */
  readonly log: () => string
  /** Resolves when the process has exited. */
  readonly exited: Promise<unknown>
  /** Sends `signal` (SIGTERM: a graceful stop) unless it has exited, and waits for the exit. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<unknown>
}

/**
 * `checkout`'s dist/server.mjs (built first when stale) on 127.0.0.1 at `port` (a free one by
 * default), its public URL that address, with `env` over the test process's environment less
 * DATABASE_URL (the embedded database unless `env` names one; a name set to undefined is left
 * out); resolves once /health answers
 * (up to 120 s), else kills it and fails with what it printed.
 */
export const startServer = async (checkout: string, env: Readonly<Record<string, string | undefined>>, options: { readonly port?: number } = {}): Promise<BuiltServer> => {
  const { DATABASE_URL: _, ...inherited } = process.env
  const port = options.port ?? await freePort()
  const url = `http://127.0.0.1:${port}`
  const [node, bundle] = await argv(checkout, "server")
  const child = spawn(node, [bundle], {
    cwd: checkout,
    env: { ...inherited, PORT: String(port), HOST: "127.0.0.1", QUIRE_PUBLIC_URL: url, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  child.stdout.on("data", (chunk) => (log += String(chunk)))
  child.stderr.on("data", (chunk) => (log += String(chunk)))
  const exited = new Promise((resolve) => child.once("exit", resolve))
  const stop = (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    return exited
  }
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline && child.exitCode === null) {
    if (await fetch(`${url}/health`).then((response) => response.ok, () => false)) return { url, port, child, log: () => log, exited, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill("SIGKILL")
  throw new Error(`the built server did not start:\n${log}`)
}
