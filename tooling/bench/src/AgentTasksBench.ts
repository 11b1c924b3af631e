/**
 * `pnpm bench --agent-tasks`: the agent's task success on a scripted set of edits (ten things
 * writers ask of the agent in a change request, apps/server/test/AgentTaskSuccess.test.ts), each
 * checked on what the change request holds afterwards. With `QUIRE_AGENT_TASKS_AI_URL` (and
 * `_MODEL`, `_KEY`) the tasks go to that model, an OpenAI-compatible endpoint, and the figure is
 * its own; without, to the test kit's scripted model, which measures the harness and the write path.
 */
import { Effect } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runServerTest } from "./ServerTestRun.ts"

export const run = (progress: (line: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const dir = mkdtempSync(join(tmpdir(), "quire-agent-tasks-"))
    const out = join(dir, "report.json")
    const real = (process.env["QUIRE_AGENT_TASKS_AI_URL"] ?? "") !== ""
    yield* progress(`agent-tasks: ten edits asked of the agent, ${real ? `of the model at ${process.env["QUIRE_AGENT_TASKS_AI_URL"]}` : "of the test kit's scripted model"}`)
    const attempt = runServerTest("test/AgentTaskSuccess.test.ts", { QUIRE_AGENT_TASKS_REPORT: out })
    // A Vitest process that ended before its test ran (seen once in CI, with nothing on its output)
    // is started once more, and said; a test that ran and failed is reported as it is.
    const first = yield* attempt
    const failed = first !== undefined && !existsSync(out) ? yield* attempt : first
    if (first !== undefined && !existsSync(out)) yield* progress(`agent-tasks: the first run ended before its test: ${first.slice(0, 400)}`)
    if (!existsSync(out)) {
      rmSync(dir, { recursive: true, force: true })
      return yield* Effect.fail(new Error(`The agent's tasks failed:\n${failed ?? ""}`))
    }
    const report = JSON.parse(readFileSync(out, "utf8")) as { model: string; tasks: number; succeeded: number; failed: Array<{ instruction: string; reply: string }> }
    rmSync(dir, { recursive: true, force: true })
    return [
      `Agent tasks (${real ? `model ${report.model}` : "scripted model"}): ${report.succeeded} of ${report.tasks} edits done (${Math.round((report.succeeded / report.tasks) * 100)}%)`,
      ...report.failed.map((f) => `  not done: "${f.instruction}" (the agent said: ${f.reply.slice(0, 160)})`)
    ].join("\n")
  })
