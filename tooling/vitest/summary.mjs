#!/usr/bin/env node
// Adds up the JSON reports of every package's last vitest run and prints one closing line,
// `Tests: N passed, N failed`, so that the total of `pnpm test` is visible in one place.
import { existsSync, readFileSync } from "node:fs"
import { testedPackages } from "./packages.mjs"

let passed = 0
let failed = 0
let skipped = 0
const packages = []
for (const { folder, report } of testedPackages()) {
  if (!existsSync(report)) continue
  const result = JSON.parse(readFileSync(report, "utf8"))
  passed += result.numPassedTests
  failed += result.numFailedTests
  skipped += result.numPendingTests + result.numTodoTests
  packages.push(`${folder}: ${result.numPassedTests}`)
}
console.log(`Passed tests by package: ${packages.join(", ")}`)
console.log(`Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
