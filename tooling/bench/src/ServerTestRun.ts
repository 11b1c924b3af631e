/**
 * A server test file run as a bench's measurement (`--ask-retrieval`, `--agent-tasks`): the file
 * writes its figures as JSON where the bench's environment says; the bench reads them. The default
 * reporter only, so the server suite's JSON report (which `pnpm test` adds up) stays the suite's.
 */
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const serverDir = resolve(import.meta.dirname, "../../../apps/server")

/**
 * Runs `file` of the server suite with `env` added; when it failed, the lines of its output (and
 * error output) that say why, first, then its output's end; nothing when it passed.
 */
export const runServerTest = (file: string, env: Record<string, string>) =>
  Effect.callback<string | undefined>((resume) => {
    // Its conformance verdicts apart: the run's global setup clears their directory, which would
    // remove those of a server suite running beside it (apps/server/test/conformance/Capture.ts).
    const verdicts = mkdtempSync(join(tmpdir(), "quire-bench-conformance-"))
    execFile(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", "server", file, "--reporter=default"], {
      cwd: serverDir,
      env: { ...process.env, QUIRE_CONFORMANCE_DIR: verdicts, ...env },
      maxBuffer: 1 << 26
    }, (error, stdout, stderr) => {
      rmSync(verdicts, { recursive: true, force: true })
      if (error === null) return resume(Effect.succeed(undefined))
      const all = `${stdout}\n${stderr}`
      // eslint-disable-next-line no-control-regex
      const plain = all.replace(/\u001b\[[0-9;]*m/g, "")
      const why = plain.split("\n").filter((line) => /Error|FAIL|×|expected|Cannot|No test files/.test(line)).slice(0, 10)
      resume(Effect.succeed([...why, "…", plain.slice(-1500)].join("\n")))
    })
  })
