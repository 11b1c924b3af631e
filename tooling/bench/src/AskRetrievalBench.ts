/**
 * `pnpm bench --ask-retrieval`: how often Ask passes the model the page that answers a question,
 * on GitBook's public docs. Runs the server suite's measurement (apps/server/test/AskRetrieval.test.ts,
 * PostgreSQL, a fake model) and reports its figure and the questions it missed; when the mirror
 * of GitbookIO/public-docs is not on this machine, says so.
 */
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

const serverDir = resolve(import.meta.dirname, "../../../apps/server")

export const run = (progress: (line: string) => Effect.Effect<void>, questions?: number) =>
  Effect.gen(function*() {
    const dir = mkdtempSync(join(tmpdir(), "quire-ask-retrieval-"))
    const out = join(dir, "report.json")
    yield* progress(`ask-retrieval: writing GitBook's public docs into a space and asking ${questions ?? "its"} questions`)
    const failed = yield* Effect.callback<string | undefined>((resume) => {
      // The default reporter only: the server suite's JSON report (which `pnpm test` adds up) stays the suite's.
      execFile(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "test/AskRetrieval.test.ts", "--reporter=default"], {
        cwd: serverDir,
        env: { ...process.env, QUIRE_ASK_RETRIEVAL_REPORT: out, ...(questions === undefined ? {} : { QUIRE_ASK_RETRIEVAL_QUESTIONS: String(questions) }) },
        maxBuffer: 1 << 26
      }, (error, stdout) => resume(Effect.succeed(error === null ? undefined : stdout.slice(-2000))))
    })
    if (!existsSync(out)) {
      rmSync(dir, { recursive: true, force: true })
      // A run that failed before its figure is an error, not a report (the smoke counts it failed).
      if (failed !== undefined) return yield* Effect.fail(new Error(`Ask retrieval failed:\n${failed}`))
      return "Ask retrieval: skipped, the mirror of GitbookIO/public-docs is not on this machine"
    }
    const report = JSON.parse(readFileSync(out, "utf8")) as { questions: number; found: number; rate: number; misses: Array<{ question: string; expected: string }> }
    rmSync(dir, { recursive: true, force: true })
    return [
      `Ask retrieval (GitBook's public docs): the answering page among the sources for ${report.found} of ${report.questions} questions (${Math.round(report.rate * 100)}%)`,
      ...report.misses.map((miss) => `  missed: "${miss.question}" (expected "${miss.expected}")`)
    ].join("\n")
  })
