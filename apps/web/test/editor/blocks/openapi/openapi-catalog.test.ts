/** Finding an operation in an OpenAPI block's picker. */
import { expect, it } from "vitest"
import { filterOperations } from "../../../../src/editor/blocks/openapi/catalog.ts"

const operations = [
  { method: "get", path: "/pets", summary: "List the pets" },
  { method: "post", path: "/pets", summary: "Add a pet" },
  { method: "get", path: "/pets/{id}", summary: undefined }
]

it("finds operations by every word of the query in their method, path or summary, in the spec's order", () => {
  expect(filterOperations(operations, "")).toEqual(operations)
  expect(filterOperations(operations, "GET pets").map((op) => op.path)).toEqual(["/pets", "/pets/{id}"])
  expect(filterOperations(operations, "add").map((op) => op.method)).toEqual(["post"])
  expect(filterOperations(operations, "{id}")).toHaveLength(1)
  expect(filterOperations(operations, "delete")).toEqual([])
})
