/**
 * `pnpm bench --unit`: the times that unit tests used to limit, each against its goal. The unit
 * tests keep checking what these functions answer for the same inputs (`@quire/testkit`'s
 * Workloads); a busy machine stretches a wall-clock limit, so the figure and its goal live here.
 * Each line: the median and slowest of `rounds` runs (after one warm-up run), in milliseconds.
 */
import { Effect, Result } from "effect"
import { compareRevisions, type PageNode } from "@quire/content"
import { readRepository, writeRepository } from "@quire/gitsync"
import { mergeText } from "@quire/reviews"
import { MarkdownRender, unreportedHighlighting } from "@quire/sites"
import { Workloads } from "@quire/testkit"

interface Measured {
  readonly name: string
  /** Where the unit test of the same input is. */
  readonly test: string
  readonly goalMs: number
  readonly times: ReadonlyArray<number>
}

const timesOf = (rounds: number, run: () => void): ReadonlyArray<number> => {
  run()
  return Array.from({ length: rounds }, () => {
    const started = performance.now()
    run()
    return performance.now() - started
  })
}

const median = (values: ReadonlyArray<number>) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Git Sync's layout: read a 1,000-page repository and write it back with one page edited. */
const layoutRoundTrip = () => {
  const encoder = new TextEncoder()
  const files = new Map(Object.entries(Workloads.gitBookRepository()).map(([path, text]) => [path, { oid: path, bytes: encoder.encode(text) }]))
  return () => {
    const read = readRepository(files, {})
    if (Result.isFailure(read)) throw new Error(read.failure.message)
    const pages = read.success.pages.map((g, i) =>
      i === 7 ? { ...g, children: g.children.map((c, j) => (j === 3 ? { ...c, markdown: `${c.markdown}More.\n` } : c)) } : g
    )
    const written = writeRepository({ ...read.success, pages }, files, {})
    if (Result.isFailure(written) || written.success.changes.size !== 1) throw new Error("the layout round trip changed other files")
  }
}

/** Content's revision comparison: one page moved among 20,000 siblings. */
const wideTreeCompare = () => {
  const at = "2026-01-01T00:00:00.000Z"
  const page = (id: string): PageNode => ({ id, type: "document", title: id, slug: id, document: `hash-${id}`, createdAt: at, updatedAt: at, pages: [] })
  const ids = Array.from({ length: 20_000 }, (_, i) => `p${i}`)
  const reordered = [...ids.slice(0, 100), ...ids.slice(101, 15_000), ids[100]!, ...ids.slice(15_000)]
  const before = { pages: ids.map(page), files: [], variables: {} }
  const after = { pages: reordered.map(page), files: [], variables: {} }
  return () => {
    if (compareRevisions(before, after).length !== 1) throw new Error("the comparison found more than the one move")
  }
}

export const run = (rounds: number, progress: (message: string) => Effect.Effect<void>) =>
  Effect.gen(function*() {
    const measured: Array<Measured> = []
    const measure = (name: string, test: string, goalMs: number, run: () => void) =>
      Effect.andThen(progress(`unit: ${name}`), Effect.sync(() => void measured.push({ name, test, goalMs, times: timesOf(rounds, run) })))

    yield* measure("Git Sync layout: read and write a 1,000-page repository", "gitsync Layout.test.ts", 1_000, layoutRoundTrip())
    yield* measure("revision comparison: one page moved among 20,000 siblings", "content RevisionChanges.test.ts", 2_000, wideTreeCompare())
    const base = Workloads.longPage()
    const ours = base.replace("Paragraph 10:", "Paragraph ten:")
    const theirs = base.replace("Paragraph 4990:", "Paragraph near the end:")
    yield* measure("mergeText: a 5,000-paragraph page edited near each end", "reviews ThreeWayMerge.test.ts", 10_000, () => void mergeText(base, ours, theirs))
    const repeated = Array.from({ length: 5_000 }, () => "Same line.").join("\n")
    yield* measure("mergeText: 5,000 repeated lines, one conflict", "reviews ThreeWayMerge.test.ts", 1_000, () =>
      void mergeText(repeated, `Ours.\n${repeated}`, `${repeated}\nTheirs.`))
    yield* progress("unit: site markdown render of the sample page")
    const render = yield* Effect.promise(() => MarkdownRender.benchmarkRender(unreportedHighlighting(), Math.max(15, rounds)))
    const renderLine = {
      name: `site markdown: render the sample page once warm (median of ${render.iterations})`,
      test: "sites Markdown.test.ts",
      goalMs: 100
    }

    const header = ["measurement", "median ms", "slowest ms", "goal ms", "result", "unit test of the input"]
    const rows = [
      ...measured.map((m) => {
        const mid = median(m.times)
        return [m.name, mid.toFixed(1), Math.max(...m.times).toFixed(1), String(m.goalMs), mid < m.goalMs ? "PASS" : "MISS", m.test]
      }),
      [renderLine.name, render.medianMs.toFixed(1), render.p95Ms.toFixed(1), String(renderLine.goalMs), render.medianMs < renderLine.goalMs ? "PASS" : "MISS", renderLine.test]
    ]
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
    const line = (cells: ReadonlyArray<string>) =>
      cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd()
    return [
      `Times the unit tests no longer limit (median and slowest of ${rounds} runs after a warm-up; the render's slowest column is its p95):`,
      "",
      line(header),
      widths.map((w) => "-".repeat(w)).join("  "),
      ...rows.map(line)
    ].join("\n")
  })
