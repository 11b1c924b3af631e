import { assert, it } from "@effect/vitest"
import { Processes } from "@quire/kernel"
import { Effect, Fiber, Layer } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { GitRunner } from "../src/GitRunner.ts"

const root = mkdtempSync(join(tmpdir(), "quire-gitrunner-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" }
const sh = (script: string, options: { readonly input?: string | Buffer; readonly timeoutMs?: number } = {}) =>
  GitRunner.use((runner) =>
    runner.run("sh", ["-c", script], {
      cwd: root,
      env,
      timeoutMs: options.timeoutMs ?? 10_000,
      ...(options.input === undefined ? {} : { input: options.input })
    }))

const helperPid = GitRunner.use((runner) => runner.helperPid)

it.layer(GitRunner.layer, { excludeTestServices: true })("GitRunner", (it) => {
  it.effect("commands are started by one helper process, not by this one (whose fork costs grow with its memory)", () =>
    Effect.gen(function*() {
      const first = yield* sh("echo $PPID")
      const second = yield* sh("echo $PPID")
      assert.strictEqual(first.code, 0)
      const parent = Number(first.stdout.toString("utf8").trim())
      assert.notStrictEqual(parent, process.pid)
      assert.strictEqual(parent, yield* helperPid)
      assert.strictEqual(second.stdout.toString("utf8").trim(), String(parent))
    }))

  it.effect("passes the input, the environment and the working directory; answers the exit code, stdout bytes and stderr", () =>
    Effect.gen(function*() {
      const bytes = Buffer.alloc(3_000_000, 0xff)
      const copied = yield* GitRunner.use((runner) =>
        runner.run("sh", ["-c", "cat; echo \"$QUIRE_X $(pwd)\" >&2; exit 3"], {
          cwd: root,
          env: { ...env, QUIRE_X: "set" },
          timeoutMs: 10_000,
          input: bytes
        })
      )
      assert.strictEqual(copied.code, 3)
      assert.isTrue(copied.stdout.equals(bytes))
      assert.strictEqual(copied.stderr.trim(), `set ${root}`)
      assert.isFalse(copied.timedOut)
    }))

  it.effect("a program that cannot start answers -1 with the reason", () =>
    Effect.gen(function*() {
      const run = yield* GitRunner.use((runner) => runner.run("quire-no-such-program", [], { cwd: root, env, timeoutMs: 10_000 }))
      assert.strictEqual(run.code, -1)
      assert.match(run.stderr, /cannot run git: .*ENOENT/)
    }))

  it.effect("the time limit kills the command's whole process group", () =>
    Effect.gen(function*() {
      const marker = join(root, "timeout-grandchild")
      const run = yield* sh(`(sleep 2; touch ${marker}) & wait`, { timeoutMs: 300 })
      assert.isTrue(run.timedOut)
      yield* Effect.sleep("2500 millis")
      assert.isFalse(existsSync(marker))
    }), 10_000)

  it.effect("interruption kills the command's process group", () =>
    Effect.gen(function*() {
      const marker = join(root, "interrupted")
      const fiber = yield* Effect.forkChild(sh(`sleep 1; touch ${marker}`))
      yield* Effect.sleep("200 millis")
      yield* Fiber.interrupt(fiber)
      yield* Effect.sleep("1500 millis")
      assert.isFalse(existsSync(marker))
      // The helper still runs commands afterwards.
      assert.strictEqual((yield* sh("echo ok")).stdout.toString("utf8"), "ok\n")
    }), 10_000)

  it.effect("each layer has its own helper, which stops when the layer's scope closes (two servers in one process share none)", () =>
    Effect.gen(function*() {
      const shared = yield* helperPid
      const { first, second } = yield* Effect.gen(function*() {
        // Layer.fresh: built apart from this suite's layers, as another server's would be.
        const first = yield* helperPid.pipe(Effect.provide(Layer.fresh(GitRunner.layer)))
        const second = yield* helperPid.pipe(Effect.provide(Layer.fresh(GitRunner.layer)))
        return { first, second }
      })
      assert.isDefined(first)
      assert.isDefined(second)
      assert.notStrictEqual(first, second)
      assert.notStrictEqual(first, shared)
      // The helpers exit once their channel closes; this layer's helper keeps running.
      for (let tries = 0; tries < 250 && (Processes.alive(first!) || Processes.alive(second!)); tries++) yield* Effect.sleep("20 millis")
      assert.isFalse(Processes.alive(first!))
      assert.isFalse(Processes.alive(second!))
      assert.isTrue(Processes.alive(shared!))
      assert.strictEqual((yield* sh("echo ok")).stdout.toString("utf8"), "ok\n")
    }), 10_000)
})
