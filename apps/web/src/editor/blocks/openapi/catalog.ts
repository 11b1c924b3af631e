/** What an OpenAPI block offers to pick: the organization's specs and a spec's operations. No DOM here, so the tests run in Node. */

export interface CatalogSpec {
  readonly slug: string
  /** Whether the spec has a processed version, whose operations can be listed. */
  readonly processed: boolean
}

export interface CatalogOperation {
  readonly method: string
  readonly path: string
  readonly summary: string | undefined
}

/** The organization's OpenAPI specs and their operations, as the editor's screen reads them through the API. */
export interface OpenapiCatalog {
  readonly specs: () => Promise<ReadonlyArray<CatalogSpec>>
  /** The operations of the spec's latest version. */
  readonly operations: (slug: string) => Promise<ReadonlyArray<CatalogOperation>>
}

/**
 * The operations whose method, path or summary hold every word of `query` (case ignored), in the spec's order:
 * "get pets" finds `GET /pets`, "add" finds "Add a pet".
 */
export const filterOperations = (operations: ReadonlyArray<CatalogOperation>, query: string): ReadonlyArray<CatalogOperation> => {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== "")
  return operations.filter((op) => {
    const text = `${op.method} ${op.path} ${op.summary ?? ""}`.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}
