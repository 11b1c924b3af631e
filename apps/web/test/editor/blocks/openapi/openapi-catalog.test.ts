/** Finding an operation in an OpenAPI block's picker. */
import { expect, it } from "vitest"
import { filterOperations, operationsNote, specOptions } from "../../../../src/editor/blocks/openapi/catalog.ts"

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

it("lists the organization's specs and a block's own spec from elsewhere, named as such", () => {
  const specs = [{ slug: "petstore", processed: true }, { slug: "billing", processed: false }]
  expect(specOptions(undefined, "", true)).toEqual([{ value: "", label: "Loading specs…" }])
  expect(specOptions(specs, "petstore", false).map((o) => o.label)).toEqual(["Choose a spec…", "petstore", "billing (not processed yet)"])
  expect(specOptions(specs, "old", false).at(-1)).toEqual({ value: "old", label: "old (not in this organization)" })
})

it("says in words why no operation can be picked, and when the block's operation is not in its spec", () => {
  const base = { available: true, specs: [{ slug: "petstore", processed: true }, { slug: "billing", processed: false }], spec: "petstore", path: "", method: "", query: "" }
  const loaded = { slug: "petstore", list: operations }
  expect(operationsNote({ ...base, specs: [], spec: "", operations: undefined })).toMatch(/has no OpenAPI specs yet/)
  expect(operationsNote({ ...base, spec: "", operations: undefined })).toBe("Choose a spec to list its operations.")
  expect(operationsNote({ ...base, spec: "billing", operations: undefined })).toMatch(/has no processed version yet/)
  expect(operationsNote({ ...base, operations: { slug: "petstore", error: "Could not load the operations of “petstore”: gone" } })).toMatch(/^Could not load/)
  expect(operationsNote({ ...base, operations: loaded, query: "zebra" })).toBe("No operation of “petstore” matches “zebra”.")
  expect(operationsNote({ ...base, operations: loaded, path: "/owners", method: "get" })).toBe("GET /owners is not an operation of “petstore”: choose one below.")
  expect(operationsNote({ ...base, operations: loaded, path: "/pets", method: "post" })).toBe("")
})
