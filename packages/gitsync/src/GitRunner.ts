/**
 * Runs git commands from a small helper process instead of from the server itself.
 *
 * Node starts a child process with fork(), whose cost grows with the parent's resident memory,
 * during which the event loop stands still. The embedded server holds PGlite's database in its
 * own memory, so forking git from it made the forks most of an export's busy time
 * (docs/operations.md, "Measurements behind the design"). The helper (plain node with only this
 * script, started once and kept) forks the git commands instead, at a small process's cost; the
 * server sends it each command and receives the outcome over IPC. The helper exits when its
 * parent does or the layer's scope closes (the IPC channel closes) and kills the process groups of
 * the commands it runs. One helper per layer, so two servers in one process share none of its state.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { Context, Effect, Layer } from "effect"

/** The outcome of one command: exit code (-1 when it could not run or was killed), output, whether its time limit killed it. */
export interface Run {
  readonly code: number
  readonly stdout: Buffer
  readonly stderr: string
  readonly timedOut: boolean
}

export interface RunOptions {
  readonly cwd: string
  readonly env: Readonly<Record<string, string>>
  readonly input?: Buffer | string
  readonly timeoutMs: number
}

interface Request extends RunOptions {
  readonly id: number
  readonly program: string
  readonly args: ReadonlyArray<string>
}

interface Reply {
  readonly id: number
  readonly code: number
  readonly stdout: Uint8Array
  readonly stderr: string
  readonly timedOut: boolean
}

/** The helper's program (CommonJS for `node -e`): each message a command, each reply its outcome. */
const helperSource = String.raw`
const { spawn } = require("node:child_process")
const kills = new Map()
process.on("message", (message) => {
  if (message.kill !== undefined) {
    kills.get(message.kill)?.()
    return
  }
  const { id, program, args, cwd, env, input, timeoutMs } = message
  const stdout = []
  const stderr = []
  let timedOut = false
  let done = false
  let child
  let timer
  const reply = (code, error) => {
    if (done) return
    done = true
    clearTimeout(timer)
    kills.delete(id)
    const out = error === undefined ? Buffer.concat(stdout) : Buffer.alloc(0)
    const err = error === undefined ? Buffer.concat(stderr).toString("utf8") : "cannot run git: " + error.message
    if (process.connected) process.send({ id, code, stdout: out, stderr: err, timedOut })
  }
  try {
    child = spawn(program, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true })
  } catch (error) {
    reply(-1, error)
    return
  }
  const kill = () => {
    if (done || child.pid === undefined) return
    try { process.kill(-child.pid, "SIGKILL") } catch { child.kill("SIGKILL") }
  }
  kills.set(id, kill)
  timer = setTimeout(() => { timedOut = true; kill() }, timeoutMs)
  child.stdout.on("data", (chunk) => stdout.push(chunk))
  child.stderr.on("data", (chunk) => stderr.push(chunk))
  child.stdin.on("error", () => {})
  child.on("error", (error) => reply(-1, error))
  child.on("close", (code) => reply(code ?? -1))
  child.stdin.end(input ?? "")
})
process.on("disconnect", () => {
  for (const kill of kills.values()) kill()
  process.exit(0)
})
`

/** Runs commands through one helper process, owned by the layer's scope. */
export interface GitRunnerShape {
  /** Runs one command to its end (or its time limit); its whole process group is killed on interruption. */
  readonly run: (program: string, args: ReadonlyArray<string>, options: RunOptions) => Effect.Effect<Run>
  /** The helper's process id, starting it if needed (for tests). */
  readonly helperPid: Effect.Effect<number | undefined>
}

const exited: Run = { code: -1, stdout: Buffer.alloc(0), stderr: "the git runner process exited", timedOut: false }

const makeHelper = () => {
  let helper: ChildProcess | undefined
  let stopped = false
  let nextId = 0
  const pending = new Map<number, (run: Run) => void>()

  const settleAll = (child: ChildProcess) => {
    if (helper !== child) return
    helper = undefined
    const waiting = [...pending.values()]
    pending.clear()
    for (const resume of waiting) resume(exited)
  }

  /** The running helper, started on first use (again if it died). */
  const helperProcess = (): ChildProcess => {
    if (helper !== undefined && helper.connected) return helper
    const child = spawn(process.execPath, ["-e", helperSource], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      serialization: "advanced",
      env: {}
    })
    child.on("message", (reply: Reply) => {
      const resume = pending.get(reply.id)
      pending.delete(reply.id)
      if (pending.size === 0) child.channel?.unref()
      resume?.({
        code: reply.code,
        stdout: Buffer.from(reply.stdout.buffer, reply.stdout.byteOffset, reply.stdout.byteLength),
        stderr: reply.stderr,
        timedOut: reply.timedOut
      })
    })
    child.on("error", () => settleAll(child))
    child.on("exit", () => settleAll(child))
    child.on("disconnect", () => settleAll(child))
    // The helper must not keep the server alive: only commands in flight hold the channel.
    child.unref()
    child.channel?.unref()
    helper = child
    return child
  }

  const run = (program: string, args: ReadonlyArray<string>, options: RunOptions): Effect.Effect<Run> =>
    Effect.callback<Run>((resume) => {
      if (stopped) {
        resume(Effect.succeed(exited))
        return
      }
      const id = nextId++
      const child = helperProcess()
      pending.set(id, (run) => resume(Effect.succeed(run)))
      child.channel?.ref()
      const request: Request = {
        id,
        program,
        args,
        cwd: options.cwd,
        env: options.env,
        timeoutMs: options.timeoutMs,
        ...(options.input === undefined ? {} : { input: options.input })
      }
      child.send(request, (error) => {
        if (error === null || !pending.has(id)) return
        pending.delete(id)
        resume(Effect.succeed({ code: -1, stdout: Buffer.alloc(0), stderr: `cannot run git: ${error.message}`, timedOut: false }))
      })
      return Effect.sync(() => {
        if (!pending.delete(id)) return
        if (pending.size === 0) child.channel?.unref()
        if (child.connected) child.send({ kill: id })
      })
    })

  /** Closing the channel makes the helper kill the commands it still runs and exit. */
  const stop = () => {
    stopped = true
    const child = helper
    if (child === undefined) return
    settleAll(child)
    if (child.connected) child.disconnect()
  }

  const runner: GitRunnerShape = {
    run,
    helperPid: Effect.sync(() => stopped ? undefined : helperProcess().pid)
  }
  return { runner, stop }
}

/** The helper of one server (its layer): started on first use, stopped when the layer's scope closes. */
export class GitRunner extends Context.Service<GitRunner, GitRunnerShape>()("@quire/gitsync/GitRunner") {
  static readonly layer: Layer.Layer<GitRunner> = Layer.effect(
    GitRunner,
    Effect.map(Effect.acquireRelease(Effect.sync(makeHelper), (helper) => Effect.sync(helper.stop)), (helper) => helper.runner)
  )
}
