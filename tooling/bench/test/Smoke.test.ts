/**
 * Every `pnpm bench` flag still runs: `pnpm bench --smoke` runs each at a tiny size through its
 * real code path (servers, requests, figures printed), --compare included, and fails naming the
 * flags that errored. It is in bench's `test` script, so in `pnpm test`, beside the other suites:
 * the production build it runs is the one every test of dist/ shares (`@quire/testkit/ProductionBuild`,
 * built once, one process at a time). Alone: `pnpm --filter @quire/bench test:smoke`.
 */
import { strict as assert } from "node:assert"
import { spawn } from "node:child_process"
import { test } from "node:test"
import { fileURLToPath } from "node:url"
import { Effect, Exit } from "effect"
import * as Smoke from "../src/Smoke.ts"

const bench = fileURLToPath(new URL("..", import.meta.url))

const smoke = () =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "--smoke"], { cwd: bench, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("exit", (code) => resolve({ code, stdout, stderr }))
  })

const flags = [
  "http", "http-flags", "search", "merge", "scale", "pages-deep", "startup", "large-page", "markdown-attack", "sites", "sites-insights",
  "sites-large", "documents", "git", "ask-retrieval", "unit", "fidelity", "web", "web-against", "live", "compare"
]

test("a flag that errors, or prints no figure, fails the smoke by name; the others still run", async () => {
  const ran: Array<string> = []
  const entry = (flag: string, run: Effect.Effect<string, unknown>): Smoke.Entry => ({
    flag,
    argv: () => [`--${flag}`],
    run: () => Effect.tap(run, () => Effect.sync(() => ran.push(flag)))
  })
  const entries = [
    entry("broken", Effect.fail(new Error("the server did not start"))),
    entry("silent", Effect.succeed("no figures here")),
    entry("fine", Effect.succeed("requests a second: 12"))
  ]
  const exit = await Effect.runPromiseExit(Smoke.runEntries(entries, { gitbookRepository: "" }, () => Effect.void, 1))
  assert.ok(Exit.isFailure(exit), "the smoke succeeded with a failing flag")
  const message = String(exit.cause)
  assert.match(message, /--broken, --silent errored/)
  assert.doesNotMatch(message, /--fine/)
  assert.deepEqual(ran, ["silent", "fine"])
})

// Half an hour: about a minute alone on a fast machine, it took 801 s beside a full `pnpm test` on a slow one.
test("pnpm bench --smoke runs every flag at a tiny size and prints its figures", { timeout: 1_800_000 }, async () => {
  const { code, stdout, stderr } = await smoke()
  const summary = stdout.slice(stdout.lastIndexOf("bench --smoke:"))
  assert.strictEqual(code, 0, `${summary}\n${stderr.slice(-6000)}`)
  for (const flag of flags) assert.match(summary, new RegExp(`--${flag} +ok `), `--${flag} is not in the summary:\n${summary}`)
  // The comparison prints both builds' figures and their ratio.
  assert.match(stdout, /GET \/v1\/orgs\/\{id\}, PostgreSQL, 2 connections +req\/s +[\d.]+ +[\d.]+ +[\d.]+ /)
  assert.match(stdout, /change request insert of a 0\.02 MB page, embedded +ms/)
})
