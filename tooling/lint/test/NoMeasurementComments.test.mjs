import { RuleTester } from "oxlint/plugins-dev"
import { describe, it } from "vitest"
import plugin from "../plugins/quire.mjs"

RuleTester.describe = describe
RuleTester.it = it

const rule = plugin.rules["no-measurement-comments"]
const inPackage = "/repo/packages/content/src/ParsePool.ts"
const inApp = "/repo/apps/server/src/Handlers.ts"
const tester = new RuleTester({ languageOptions: { sourceType: "module" } })

tester.run("quire/no-measurement-comments", rule, {
  valid: [
    // What and why, with the values of settings and bounds.
    { code: `/** Flushes the counts every 100 ms, so a budget is shared within one interval. */\nexport const flush = 100`, filename: inPackage },
    { code: `// At most 1 MB a message, and 3 seconds before a worker is replaced.\nexport const limit = 1`, filename: inApp },
    { code: `/**\n * Pages of many definitions are parsed by the workers: each costs micromark far more than a\n * line of prose (docs/content.md has the figures).\n */\nexport const threshold = 64`, filename: inPackage },
    // An HTML entity is no issue number.
    { code: `/** Escapes \`'\` as \`&#39;\`, valid in HTML and XML. */\nexport const escape = 1`, filename: inPackage },
    // Allowed with a reason.
    { code: `// quire-lint-allow measurement: the protocol's own timing, quoted from its specification\n// A peer that took 30 s to answer is dropped.\nexport const drop = 1`, filename: inPackage },
    // Tests and tooling may quote what they measure.
    { code: `// The commit took 300 ms before this change.\nexport const before = 1`, filename: "/repo/packages/content/test/Commit.test.ts" },
    { code: `// issue 35: the bench's baseline.\nexport const baseline = 1`, filename: "/repo/tooling/bench/src/Baseline.ts" }
  ],
  invalid: [
    {
      code: `/** Every request hashes its token (issue 35). */\nexport const hash = 1`,
      filename: inPackage,
      errors: [{ message: "A comment names an issue: say what the code does and why; the issue's story goes to docs/ or the commit message." }]
    },
    {
      code: `// Moved here for the reviewers (#41).\nexport const moved = 1`,
      filename: inApp,
      errors: 1
    },
    {
      code: `/**\n * The HTTP layer's one stringify of a large document held the event loop for 40 to\n * 100 ms. So it is written in batches.\n */\nexport const batches = 500`,
      filename: inApp,
      errors: 1
    },
    {
      code: `// A write per request cut the throughput to 927 req/s in measurements.\nexport const batched = true`,
      filename: inPackage,
      errors: 1
    },
    {
      code: `// A cold worker took 3x the CPU for its first page.\nexport const warm = true`,
      filename: inPackage,
      errors: 1
    }
  ]
})
