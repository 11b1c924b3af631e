/**
 * GitBook's `custom` merge rules: a JavaScript expression over the change request, its reviews, the
 * space and the actor, evaluated in QuickJS compiled to WebAssembly, in a thread of its own
 * (CustomRuleWorker.ts) that is terminated when it overruns. An expression that throws, loops,
 * recurses or exhausts its memory fails the rule with the reason; nothing it does reaches the
 * server (no host object crosses into the sandbox) or holds it up past the thread's budget.
 */
import { Context, Effect, Layer, Semaphore } from "effect"
import { Worker } from "node:worker_threads"

/** A custom rule's outcome: it passed, or why not (false, not a boolean, an error, a limit). */
export type CustomOutcome = { readonly passed: true } | { readonly passed: false; readonly reason: string }

/** The bounds of one evaluation. */
export interface CustomRuleLimits {
  /** The sandbox's memory, in bytes. */
  readonly memoryBytes: number
  /** The sandbox interrupts the expression after this long. */
  readonly deadlineMillis: number
  /** The thread is terminated when it has not answered this long after it was given the expression (what the deadline does not interrupt: a long native call, a collection near the memory limit). */
  readonly threadMillis: number
  /** The thread is terminated when it has not loaded within this long (a busy machine's start). */
  readonly startMillis: number
  /** Evaluations running at once; more wait their turn (merges spammed at once start no more threads). */
  readonly concurrent: number
}

export const defaultLimits: CustomRuleLimits = { memoryBytes: 4 * 1024 * 1024, deadlineMillis: 200, threadMillis: 2000, startMillis: 15_000, concurrent: 2 }

export interface CustomRulesShape {
  /** Evaluates `expression` with `context`'s keys as its globals (plain JSON data). */
  readonly evaluate: (expression: string, context: Readonly<Record<string, unknown>>) => Effect.Effect<CustomOutcome>
}

// Under tsx or vitest this module is TypeScript beside the worker's entry; in the production build
// it is part of dist/server.mjs (or worker.mjs, quire.mjs), beside dist/custom-rule-worker.mjs.
const workerUrl = (): URL =>
  import.meta.url.endsWith(".ts") ? new URL("./CustomRuleWorker.ts", import.meta.url) : new URL("./custom-rule-worker.mjs", import.meta.url)

type Answer = { readonly ready: true } | { readonly value: boolean } | { readonly type: string } | { readonly error: string }

const failed = (reason: string): CustomOutcome => ({ passed: false, reason })

const outcomeOf = (answer: Answer): CustomOutcome => {
  if ("value" in answer) return answer.value ? { passed: true } : failed("the expression is false")
  if ("type" in answer) return failed(`the expression must be true or false; it gave ${answer.type === "undefined" ? "undefined" : `${/^[aeiou]/.test(answer.type) ? "an" : "a"} ${answer.type}`}`)
  if ("error" in answer) {
    if (answer.error === "InternalError: interrupted") return failed(`the expression took longer than its limit`)
    if (answer.error === "InternalError: out of memory") return failed("the expression ran out of memory")
    if (answer.error === "InternalError: stack overflow") return failed("the expression recursed too deep")
    return failed(`the expression failed: ${answer.error}`)
  }
  return failed("the sandbox gave no answer")
}

const evaluateIn = (limits: CustomRuleLimits, entry: URL) => (expression: string, context: Readonly<Record<string, unknown>>) =>
  Effect.callback<CustomOutcome>((resume) => {
    // The thread's own heap is bounded too, beside the sandbox's limit inside it.
    const worker = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 } })
    let done = false
    const finish = (outcome: CustomOutcome) => {
      if (done) return
      done = true
      clearTimeout(timer)
      void worker.terminate()
      resume(Effect.succeed(outcome))
    }
    let timer = setTimeout(() => finish(failed("the sandbox did not start")), limits.startMillis)
    worker.on("message", (answer: Answer) => {
      if (!("ready" in answer)) return finish(outcomeOf(answer))
      clearTimeout(timer)
      timer = setTimeout(() => finish(failed("the expression took longer than its limit")), limits.threadMillis)
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker's port, not a window
      worker.postMessage({ expression, context: JSON.stringify(context), memoryBytes: limits.memoryBytes, deadlineMillis: limits.deadlineMillis })
    })
    worker.on("error", (error) => finish(failed(/memory/i.test(error.message) ? "the expression ran out of memory" : `the sandbox failed: ${error.message}`)))
    worker.on("exit", () => finish(failed("the sandbox stopped without an answer")))
    return Effect.sync(() => {
      done = true
      clearTimeout(timer)
      void worker.terminate()
    })
  })

export class CustomRules extends Context.Service<CustomRules, CustomRulesShape>()("@quire/reviews/CustomRules") {
  /** Each evaluation in a new thread, within `limits`, `limits.concurrent` at a time; `entry` is a test's own entry point. */
  static readonly layerWith = (limits: CustomRuleLimits = defaultLimits, entry?: URL) =>
    Layer.sync(CustomRules, () => {
      const evaluate = evaluateIn(limits, entry ?? workerUrl())
      // One server's threads: a layer of its own, so two servers in one process share nothing.
      const threads = Semaphore.makeUnsafe(limits.concurrent)
      return CustomRules.of({ evaluate: (expression, context) => threads.withPermit(evaluate(expression, context)) })
    })

  static readonly layer = CustomRules.layerWith()
}
