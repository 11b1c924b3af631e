/**
 * Custom merge rules in the sandbox: expressions over the rule's context pass or fail, and hostile
 * ones (loops, allocations, recursion, the host's globals) fail with a reason, within bounds.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { CustomRules } from "../src/CustomRules.ts"

const context = {
  changeRequest: { id: "cr", subject: "Quickstart", createdBy: { id: "ann" }, revision: "head" },
  reviews: [{ id: "r1", reviewer: { id: "bob" }, status: "approved", outdated: false }, { id: "r2", reviewer: { id: "cy" }, status: "changes-requested", outdated: true }],
  actor: { id: "ann" }
}

/** Evaluates `expression` and answers its outcome with how long it took. */
const timed = (expression: string) =>
  Effect.gen(function*() {
    const rules = yield* CustomRules
    const start = performance.now()
    const outcome = yield* rules.evaluate(expression, context)
    return { outcome, millis: performance.now() - start }
  })

const reason = (outcome: { readonly passed: boolean; readonly reason?: string }) => (outcome.passed ? "" : outcome.reason ?? "")

describe("CustomRules", () => {
  it.layer(CustomRules.layer, { timeout: 120_000 })((it) => {
    it.effect("evaluates GitBook's JavaScript expressions over the change request, its reviews and the actor", () =>
      Effect.gen(function*() {
        const approvals = "reviews.filter((r) => r.status === 'approved' && !r.outdated).length >= 1"
        assert.deepStrictEqual((yield* timed(approvals)).outcome, { passed: true })
        assert.deepStrictEqual((yield* timed("actor.id !== changeRequest.createdBy.id")).outcome, { passed: false, reason: "the expression is false" })
        assert.deepStrictEqual((yield* timed("changeRequest.subject.startsWith('Quick') && reviews.length === 2")).outcome, { passed: true })
        // Only a boolean decides: a number, a string or nothing is not taken for one.
        assert.include(reason((yield* timed("reviews.length")).outcome), "must be true or false; it gave a number")
        assert.include(reason((yield* timed("undefined")).outcome), "it gave undefined")
        assert.include(reason((yield* timed("const x = ")).outcome), "SyntaxError")
      }))

    it.effect("an expression that throws, loops, recurses or exhausts its memory fails with the reason, within a bound", () =>
      Effect.gen(function*() {
        const hostile: ReadonlyArray<readonly [string, string]> = [
          ["throw new Error('no merging today')", "Error: no merging today"],
          ["while (true) {}", "took longer than its limit"],
          ["for (;;) { reviews.push({ ...reviews[0] }) }", ""],
          ["'x'.repeat(1e9).length > 0", "ran out of memory"],
          ["let a = []; while (true) a.push(new Array(1e5).fill(1))", ""],
          ["function f() { return f() } f()", "recursed too deep"]
        ]
        for (const [expression, expected] of hostile) {
          // The server's own event loop keeps turning meanwhile: the sandbox is another thread.
          let longest = 0
          let last = performance.now()
          const ticker = setInterval(() => {
            const now = performance.now()
            longest = Math.max(longest, now - last)
            last = now
          }, 10)
          const { millis, outcome } = yield* timed(expression).pipe(Effect.ensuring(Effect.sync(() => clearInterval(ticker))))
          assert.isFalse(outcome.passed, expression)
          assert.include(reason(outcome), expected, expression)
          // The thread's budget (2 s after it loaded) bounds every one of them.
          assert.isBelow(millis, 10_000, expression)
          assert.isBelow(longest, 1000, `${expression}: the event loop stalled ${Math.round(longest)} ms`)
        }
      }))

    it.effect("the host's globals are not there: no process, require, import, fetch or timers", () =>
      Effect.gen(function*() {
        for (const expression of ["process.exit(1)", "require('fs')", "fetch('http://127.0.0.1/')"]) {
          assert.include(reason((yield* timed(expression)).outcome), "ReferenceError", expression)
        }
        const absent = "[typeof process, typeof require, typeof fetch, typeof setTimeout, typeof Buffer, typeof WebAssembly].every((t) => t === 'undefined')"
        assert.deepStrictEqual((yield* timed(absent)).outcome, { passed: true })
        assert.include(reason((yield* timed("import('node:fs').then(() => true)")).outcome), "it gave an object")
        // The process is still here, and the next rule evaluates as usual.
        assert.deepStrictEqual((yield* timed("true")).outcome, { passed: true })
      }))
  })
})

describe("CustomRules, many at once", () => {
  it.layer(CustomRules.layerWith({ memoryBytes: 4 * 1024 * 1024, deadlineMillis: 200, threadMillis: 2000, startMillis: 15_000, concurrent: 2 }), { timeout: 120_000 })((it) => {
    it.effect("hostile rules evaluated at once all fail, and the next one passes", () =>
      Effect.gen(function*() {
        const rules = yield* CustomRules
        const outcomes = yield* Effect.forEach(Array.from({ length: 6 }, () => "while (true) {}"), (expression) => rules.evaluate(expression, context), { concurrency: "unbounded" })
        assert.isTrue(outcomes.every((outcome) => !outcome.passed))
        assert.deepStrictEqual(yield* rules.evaluate("actor.id === 'ann'", context), { passed: true })
      }))
  })
})
