/**
 * The test setup every package shares: generous timeouts (fresh databases take seconds to start
 * on two cores) and a JSON report per package, which `summary.mjs` adds up after `pnpm test`.
 */
import { accessSync, constants, mkdirSync, statfsSync, statSync } from "node:fs"
import { availableParallelism } from "node:os"
import { defineConfig, mergeConfig, type Plugin, type ViteUserConfig } from "vitest/config"

/** What `/dev/shm` must have free to hold the suites' temporary files. */
const minimumFree = 2 * 1024 ** 3

/**
 * The suites' temporary files go to memory (tmpfs, `/dev/shm/quire-test-tmp`) where the machine has
 * one: every embedded server a test starts writes a cluster of a thousand files into a new data
 * directory and the test removes it after, and on a disk filesystem that churn is paid in the
 * kernel (ext4 searching for a free inode among those just freed, and writers of one directory
 * spinning on its lock). Set here, before the workers start, it reaches them and every process they
 * start (servers, CLIs, Chromium's profiles) through TMPDIR. Only with 2 GB free there;
 * `QUIRE_TEST_TMPDIR=default` keeps the system's; any other value names the directory.
 */
export const testTmpdir = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const chosen = env.QUIRE_TEST_TMPDIR
  if (chosen === "default") return undefined
  if (chosen !== undefined && chosen !== "") return chosen
  try {
    if (process.platform !== "linux" || !statSync("/dev/shm").isDirectory()) return undefined
    accessSync("/dev/shm", constants.W_OK)
    // A container's /dev/shm is often 64 MB; a run's temporary files peak at about 130 MB, beside
    // the test databases' tablespace and Chromium's shared memory (270 MB in all).
    const free = statfsSync("/dev/shm")
    return free.bavail * free.bsize >= minimumFree ? "/dev/shm/quire-test-tmp" : undefined
  } catch {
    return undefined
  }
}

const tmp = testTmpdir()
if (tmp !== undefined) {
  mkdirSync(tmp, { recursive: true })
  process.env.TMPDIR = tmp
}

/**
 * Resolves packages as the build bundles them (tooling/build: conditions node and module), not by
 * the `development` condition Vite and Vitest add: micromark's development build asserts and
 * logs through `debug` at every character, which made markdown-heavy tests several times slower.
 */
const productionConditions: Plugin = {
  name: "quire:production-conditions",
  enforce: "post",
  configEnvironment: (_name, options) => {
    const keep = (condition: string) => condition !== "development|production" && condition !== "development"
    const resolve = options.resolve
    if (resolve?.conditions !== undefined) resolve.conditions = resolve.conditions.filter(keep)
    if (resolve?.externalConditions !== undefined) resolve.externalConditions = resolve.externalConditions.filter(keep)
  }
}

export const shared = defineConfig({
  plugins: [productionConditions],
  test: {
    include: ["test/**/*.test.ts"],
    // One worker: `pnpm test` runs three packages at once and keeps both cores busy, and a second
    // worker loads the whole module graph again (identity's suite: 18 CPU-s with two, 12.6 with
    // one, in the same 10 s). The suites whose files wait longest on servers and browsers take
    // `parallelWorkers` (the server's, the browser app's, the end-to-end suite).
    maxWorkers: 1,
    // A suite's files share one module graph per worker instead of importing it again for each
    // file (a fifth of the server suite's time, as much in gitsync's). It holds because nothing in
    // src/ keeps module state (the review's rule), and test files hand settings to what they start
    // through a ConfigProvider layer, never `process.env`, which Effect's default provider reads
    // once per worker.
    isolate: false,
    // Three minutes: a full `pnpm test` on a slow two-core machine has run tests that take 10 s alone
    // for close to a minute (the server's /docs test, 57 s), and a limit hit there fails the run.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".vitest/report.json" }]]
  }
})

/**
 * Workers for a suite whose files spend most of their time waiting on the servers, databases and
 * browsers they start: Vitest's default leaves one core free, which on two cores runs one file at a time.
 */
export const parallelWorkers = Math.max(2, availableParallelism() - 1)

/** The shared setup with a package's own settings on top. */
export const withShared = (config: ViteUserConfig = {}) => mergeConfig(shared, config)
