/**
 * A server test file run as a bench's measurement (`--ask-retrieval`, `--agent-tasks`): the file
 * writes its figures as JSON where the bench's environment says; the bench reads them. The default
 * reporter only, so the server suite's JSON report (which `pnpm test` adds up) stays the suite's.
 */
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { resolve } from "node:path"

const serverDir = resolve(import.meta.dirname, "../../../apps/server")

/**
 * Runs `file` of the server suite with `env` added; when it failed, the lines of its output (and
 * error output) that say why, first, then its output's end; nothing when it passed.
 */
export const runServerTest = (file: string, env: Record<string, string>) =>
  Effect.callback<string | undefined>((resume) => {
    execFile(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", "server", file, "--reporter=default"], {
      cwd: serverDir,
      env: { ...process.env, ...env },
      maxBuffer: 1 << 26
    }, (error, stdout, stderr) => {
      if (error === null) return resume(Effect.succeed(undefined))
      const all = `${stdout}\n${stderr}`
      // eslint-disable-next-line no-control-regex
      const plain = all.replace(/\u001b\[[0-9;]*m/g, "")
      const why = plain.split("\n").filter((line) => /Error|FAIL|×|expected|Cannot|No test files/.test(line)).slice(0, 10)
      resume(Effect.succeed([...why, "…", plain.slice(-1500)].join("\n")))
    })
  })
