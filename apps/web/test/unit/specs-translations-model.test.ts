/** The OpenAPI specs and translations screens' pure parts: states in words, operations, slugs, instructions. */
import { describe, expect, it } from "vitest"
import { operationBlock, operationsOf, slugFromName, stateOf } from "../../src/features/specs/model.ts"
import { instructionsDocument, instructionsText, statsOf, statusOf } from "../../src/features/translations/model.ts"

describe("specs", () => {
  it("says a spec's state, a failure as failed with its reason", () => {
    expect(stateOf({ processingState: "pending" })).toEqual({ running: true, failed: false, label: "Waiting to be processed" })
    expect(stateOf({ processingState: "progress" }).running).toBe(true)
    expect(stateOf({ processingState: "complete" })).toEqual({ running: false, failed: false, label: "Processed" })
    expect(stateOf({ processingState: "complete", lastProcessErrorCode: "FETCH_TIMEOUT" })).toEqual({ running: false, failed: true, label: "Failed: The source URL did not answer in time" })
  })

  it("lists a document's operations in order, leaving out what is malformed", () => {
    const document = { paths: { "/pets": { get: { summary: "List" }, post: {}, parameters: [] }, "/bad": "nope", "/cats/{id}": { delete: { summary: "" } } } }
    expect(operationsOf(document)).toEqual([
      { method: "get", path: "/pets", summary: "List" },
      { method: "post", path: "/pets", summary: undefined },
      { method: "delete", path: "/cats/{id}", summary: undefined }
    ])
    expect(operationsOf(undefined)).toEqual([])
    expect(operationsOf({ paths: [] })).toEqual([])
  })

  it("writes the page block that shows an operation", () => {
    expect(operationBlock("petstore", { method: "get", path: "/pets" })).toBe(`{% openapi-operation spec="petstore" path="/pets" method="get" %}\n{% endopenapi-operation %}`)
  })

  it("suggests a slug from a file's name within GitBook's pattern", () => {
    expect(slugFromName("Pet Store.v2.yaml")).toBe("pet-store-v2")
    expect(slugFromName("openapi.json")).toBe("openapi")
    expect(slugFromName("--A__b--.YML")).toBe("a-b")
  })
})

describe("translations", () => {
  it("writes instructions as one paragraph per block of lines, and reads them back", () => {
    const document = instructionsDocument("Formal tone.\n\n  Keep names.  \n\n\n")
    expect(document.nodes).toHaveLength(2)
    expect(instructionsText(document)).toBe("Formal tone.\n\nKeep names.")
    expect(instructionsDocument("  ").nodes).toEqual([])
    expect(instructionsText({ object: "document", data: {}, nodes: [] })).toBe("")
  })

  it("says a run's state and its stats in words", () => {
    expect(statusOf({ status: "running" })).toEqual({ label: "Running", running: true })
    expect(statusOf({ status: "completed", failure: "No translation provider" })).toEqual({ label: "Failed", running: false })
    expect(statusOf({ status: "completed" })).toEqual({ label: "Up to date", running: false })
    const none = { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 }
    expect(statsOf(none)).toEqual(["No run yet"])
    expect(statsOf({ ...none, runs: 2, latestPages: 1, latestWords: 1200, latestRunDuration: 3.4, totalPages: 3, totalWords: 2400, totalDuration: 125 }))
      .toEqual(["2 runs", "last: 1 page, 1,200 words in 3 seconds", "in all: 3 pages, 2,400 words in 2 minutes"])
  })
})
