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

const flags = ["http", "http-flags", "search", "merge", "scale", "pages-deep", "startup", "large-page", "markdown-attack", "sites", "sites-insights", "sites-large", "git", "unit", "fidelity", "web", "live", "compare"]

test("pnpm bench --smoke runs every flag at a tiny size and prints its figures", { timeout: 900_000 }, async () => {
  const { code, stdout, stderr } = await smoke()
  const summary = stdout.slice(stdout.lastIndexOf("bench --smoke:"))
  assert.strictEqual(code, 0, `${summary}\n${stderr.slice(-6000)}`)
  for (const flag of flags) assert.match(summary, new RegExp(`--${flag} +ok `), `--${flag} is not in the summary:\n${summary}`)
  // The comparison prints both builds' figures and their ratio.
  assert.match(stdout, /GET \/v1\/orgs\/\{id\}, PostgreSQL, 2 connections +req\/s +[\d.]+ +[\d.]+ +[\d.]+ /)
  assert.match(stdout, /change request insert of a 0\.02 MB page, embedded +ms/)
})
