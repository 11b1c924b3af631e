#!/usr/bin/env node
// Adds up the JSON reports of every package's last vitest run and prints one closing line,
// `Tests: N passed, N failed`, so that the total of `pnpm test` is visible in one place.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = new URL("../..", import.meta.url).pathname
let passed = 0
let failed = 0
let skipped = 0
const packages = []
for (const group of ["packages", "apps", "tooling"]) {
  for (const name of readdirSync(join(root, group))) {
    const report = join(root, group, name, ".vitest", "report.json")
    if (!existsSync(report)) continue
    // A package without a test script (any more) ran nothing: a report left from before is stale.
    const manifest = join(root, group, name, "package.json")
    if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).scripts?.test === undefined) continue
    const result = JSON.parse(readFileSync(report, "utf8"))
    passed += result.numPassedTests
    failed += result.numFailedTests
    skipped += result.numPendingTests + result.numTodoTests
    packages.push(`${group}/${name}: ${result.numPassedTests}`)
  }
}
console.log(`Passed tests by package: ${packages.join(", ")}`)
console.log(`Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
