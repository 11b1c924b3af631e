/** The import screen's words for a run: what it is doing, how it ended, how far it is. */
import type { ContentImportRun } from "@quire/api"
import { expect, it } from "vitest"
import { isActive, percent, runHeadline, sourceWords } from "../../src/features/imports/model.ts"

const run = (patch: Partial<ContentImportRun>): ContentImportRun => ({
  object: "import-run",
  id: "r1",
  status: "pending",
  source: { type: "file", files: ["k1"] },
  target: { space: "s1" },
  createdBy: "u1",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  urls: { location: "http://quire.test/v1/org/o/imports/r1" },
  pages: [],
  progress: { step: "queued", done: 0, total: 0, pages: 0, files: 0 },
  ...patch
})

it("says what a run is doing and how it ended", () => {
  expect(runHeadline(run({}))).toBe("Queued")
  expect(runHeadline(run({ status: "in-progress", progress: { step: "storing files", done: 2, total: 4, pages: 4, files: 2 } }))).toBe("Storing the images")
  expect(percent(run({ status: "in-progress", progress: { step: "storing files", done: 2, total: 4, pages: 4, files: 2 } }))).toBe(50)
  const pages = [{ id: "p1", type: "page" as const, status: "complete" as const }, { id: "p2", type: "page" as const, status: "complete" as const }]
  expect(runHeadline(run({ status: "completed", pages, progress: { step: "done", done: 4, total: 4, pages: 2, files: 1 } }))).toBe("Imported 2 pages and 1 image")
  expect(runHeadline(run({ status: "completed", pages: pages.slice(0, 1) }))).toBe("Imported 1 page")
  expect(runHeadline(run({ status: "failed", reason: "x" }))).toBe("Failed")
  expect(isActive(run({ status: "in-progress" }))).toBe(true)
  expect(isActive(run({ status: "cancelled" }))).toBe(false)
  expect(sourceWords(run({ source: { type: "website", url: "https://example.com/" } }))).toBe("https://example.com/")
  expect(sourceWords(run({ source: { type: "file", files: ["a", "b"] } }))).toBe("2 uploaded files")
})
