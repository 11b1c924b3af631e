/**
 * `pnpm bench --markdown-attack` still runs (a bench flag that no longer runs hides regressions):
 * the attack at a small size against a server process, every write refused naming a limit or
 * saved, every saved page read back. Run with `npx tsx --test test/MarkdownAttackBench.test.ts`.
 */
import { strict as assert } from "node:assert"
import { test } from "node:test"
import { Effect } from "effect"
import * as MarkdownAttackBench from "../src/MarkdownAttackBench.ts"

test("the markdown attack runs against a server process and reports /health against its goal", { timeout: 300_000 }, async () => {
  const figures = await Effect.runPromise(MarkdownAttackBench.run({ sizes: [16 * 1024], idleMillis: 200 }, () => Effect.void))
  assert.deepStrictEqual(figures.unexpected, [])
  assert.strictEqual(figures.refused + figures.saved, figures.writes)
  // The four cases and most constructs are past a limit; a few (code spans, strikethrough) are ordinary.
  assert.ok(figures.refused >= 4, figures.report)
  assert.ok(figures.saved >= 1, figures.report)
  assert.ok(figures.attack.count > 0, figures.report)
  assert.match(figures.report, /\/health attack {2}p99 [\d.]+ ms {2}max [\d.]+ ms .* goal p99 <= 50 ms {2}(PASS|MISS)/)
  // Loose: the figure is the bench's, and a CI machine running every suite at once stretches a
  // 400 ms hold past 2 s; before the markdown limits, one hostile page held /health 30 s.
  assert.ok(figures.attack.max < 10_000, figures.report)
})
