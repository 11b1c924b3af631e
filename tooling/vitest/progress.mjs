#!/usr/bin/env node
// Runs the command it is given (`pnpm test`'s turbo run) and, while it runs, prints one line per
// package as that package's tests finish: its tests passed and failed, and how long they took.
// turbo's --output-logs=errors-only shows a task's output only when the task fails, so the line
// cannot come from the task itself: it is read from the JSON report each vitest run writes last
// (tooling/vitest/config.ts), which is new once its mtime is past the start of this command.
// The command's own output (a failed task's errors) passes through untouched; its exit status is ours.
import { spawn } from "node:child_process"
import { existsSync, readFileSync, statSync } from "node:fs"
import { testedPackages } from "./packages.mjs"

const [command, ...args] = process.argv.slice(2)
if (command === undefined) {
  console.error("usage: progress.mjs <command> [args...]")
  process.exit(2)
}

const started = Date.now()

/** The JSON report of every package that has tests, by its folder (`apps/server`). */
const reports = testedPackages().map(({ folder, report }) => ({ folder, file: report, printed: 0 }))
const width = Math.max(...reports.map((report) => report.folder.length))

const print = (report, mtime) => {
  let result
  try {
    result = JSON.parse(readFileSync(report.file, "utf8"))
  } catch {
    return // Still being written: the next look reads it whole.
  }
  report.printed = mtime
  const seconds = ((mtime - result.startTime) / 1000).toFixed(1)
  const brokenFiles = result.numFailedTestSuites > 0 ? `, ${result.numFailedTestSuites} failed suites` : ""
  const failed = result.numFailedTests > 0 || result.numFailedTestSuites > 0
  console.log(
    `${failed ? "✗" : "✓"} ${report.folder.padEnd(width)}  ${result.numPassedTests} passed, ${result.numFailedTests} failed${brokenFiles}  ${seconds} s`
  )
}

const look = () => {
  for (const report of reports) {
    const mtime = existsSync(report.file) ? statSync(report.file).mtimeMs : 0
    if (mtime >= started && mtime !== report.printed) print(report, mtime)
  }
}

const timer = setInterval(look, 500)
const child = spawn(command, args, { stdio: "inherit" })
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal))
child.on("exit", (code, signal) => {
  clearInterval(timer)
  look()
  console.log(`${command} ${args[0] ?? ""} finished in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  process.exit(code ?? (signal === null ? 1 : 128))
})
