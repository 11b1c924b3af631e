/** `bin/quire.mjs`, the launcher behind `npx quire`, as a real process. */
import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"

const launcher = fileURLToPath(new URL("../bin/quire.mjs", import.meta.url))

const spawn = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ readonly status: number; readonly stdout: string; readonly stderr: string }>((resolve) => {
    const options = { env: { PATH: process.env.PATH ?? "", ...env } }
    execFile(process.execPath, [launcher, ...args], options, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    })
  })

describe("bin/quire.mjs", () => {
  it("prints help and exits 0", async () => {
    const run = await spawn(["--help"], {})
    assert.strictEqual(run.status, 0, run.stderr)
    assert.include(run.stdout, "SUBCOMMANDS")
    assert.include(run.stdout, "orgs")
  }, 60_000)

  it("exits non-zero with the message on stderr when a command fails", async () => {
    const run = await spawn(["orgs", "list"], {})
    assert.strictEqual(run.status, 1)
    assert.include(run.stderr, "QUIRE_TOKEN")
    assert.strictEqual(run.stdout, "")
  }, 60_000)
})
