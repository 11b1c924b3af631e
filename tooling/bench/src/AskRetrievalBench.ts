/**
 * `pnpm bench --ask-retrieval`: how often Ask passes the model the page that answers a question,
 * and the sentence that answers it, on the real GitBook repositories whose mirrors are on this
 * machine (GitBook's public docs, Beefree SDK's, Airstack's). Runs the server suite's measurement
 * (apps/server/test/AskRetrieval.test.ts, PostgreSQL, a fake model) and reports each repository's
 * figures and the questions it missed, on the questions the ranking was tuned on and, apart, on
 * questions held out from tuning; when no mirror is on this machine, says so.
 */
import { Effect } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runServerTest } from "./ServerTestRun.ts"

const percent = (rate: number) => `${Math.round(rate * 100)}%`

export const run = (progress: (line: string) => Effect.Effect<void>, questions?: number) =>
  Effect.gen(function*() {
    const dir = mkdtempSync(join(tmpdir(), "quire-ask-retrieval-"))
    const out = join(dir, "report.json")
    yield* progress(`ask-retrieval: writing each GitBook repository into a space and asking ${questions ?? "its"} questions`)
    const failed = yield* runServerTest("test/AskRetrieval.test.ts", {
      QUIRE_ASK_RETRIEVAL_REPORT: out,
      ...(questions === undefined ? {} : { QUIRE_ASK_RETRIEVAL_QUESTIONS: String(questions) })
    })
    if (!existsSync(out)) {
      rmSync(dir, { recursive: true, force: true })
      // A run that failed before its figure is an error, not a report (the smoke counts it failed).
      if (failed !== undefined) return yield* Effect.fail(new Error(`Ask retrieval failed:\n${failed}`))
      return "Ask retrieval: skipped, no mirror of the measured GitBook repositories is on this machine"
    }
    const reports = JSON.parse(readFileSync(out, "utf8")) as Array<{
      repository: string
      set?: "tuned" | "held-out"
      questions: number
      found: number
      rate: number
      factsFound: number
      factRate: number
      misses: Array<{ question: string; expected: string; fact: string; passed: Array<string>; factFound: boolean }>
    }>
    rmSync(dir, { recursive: true, force: true })
    return [
      ...reports.flatMap((report) => [
        `Ask retrieval (${report.repository}${report.set === "held-out" ? ", held-out questions" : ""}): the answering page among the sources for ${report.found} of ${report.questions} questions (${percent(report.rate)}), its fact in the passages for ${report.factsFound} (${percent(report.factRate)})`,
        ...report.misses.map((miss) =>
          `  missed ${miss.passed.includes(miss.expected) ? "the fact" : miss.factFound ? "the page" : "page and fact"}: "${miss.question}" (expected "${miss.expected}", "${miss.fact}")`
        )
      ]),
      ...(failed === undefined ? [] : ["Ask retrieval: below a floor of AskRetrieval.test.ts"])
    ].join("\n")
  })
