/**
 * Every 2xx JSON answer the server suite's test servers gave, for an operation GitBook has, against
 * GitBook's own schema for that operation and status (Capture.ts records each verdict as the answer
 * leaves the server). Runs after the server suite (vitest.config.ts: its own project, a later group).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { type Captured, captureDirectory } from "./Capture.ts"

const verdicts = (): ReadonlyArray<Captured> =>
  existsSync(captureDirectory)
    ? readdirSync(captureDirectory).flatMap((name) =>
      readFileSync(join(captureDirectory, name), "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Captured)
    )
    : []

/** A failure's kind: the operation, the status and what was wrong, once however many answers had it. */
const kindOf = (v: Captured) =>
  v.unknownStatus !== undefined
    ? `${v.operationId} ${v.status}: GitBook answers ${v.unknownStatus.join(", ")}`
    : `${v.operationId} ${v.status}: ${[...new Set(v.errors.map((e) => e.replace(/\/\d+(?=\/|$| )/g, "/n")))].slice(0, 6).join("; ")}`

describe("answers against GitBook's schema", () => {
  it("every 2xx answer of the server suite is one GitBook's schema allows for its operation", () => {
    const all = verdicts()
    assert.isAbove(all.length, 0, "no answers were recorded: run the whole server suite (`pnpm --filter @quire/server test`), whose test servers record them")
    const failed = all.filter((v) => v.errors.length > 0 || v.unknownStatus !== undefined)
    const kinds = new Map<string, Captured>()
    for (const v of failed) if (!kinds.has(kindOf(v))) kinds.set(kindOf(v), v)
    const operations = new Set(all.map((v) => v.operationId))
    const kindsChecked = new Set(all.map((v) => `${v.operationId} ${v.status}`))
    console.log(`conformance: ${all.length} answers of ${operations.size} GitBook operations (${kindsChecked.size} operation and status pairs) checked; ${failed.length} failed, of ${kinds.size} kinds`)
    const report = [...kinds.entries()].map(([kind, v]) => `- ${kind}\n  ${v.method} ${v.path}\n  ${v.body ?? ""}`).join("\n")
    assert.strictEqual(failed.length, 0, `answers GitBook's schema does not allow:\n${report}`)
  })
})
