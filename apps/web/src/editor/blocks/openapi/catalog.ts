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

/**
 * What the spec picker lists: a first choice ("Choose a spec…", or "Loading specs…" while `loading`), the
 * organization's specs, and the block's own `spec` when it is not one of them.
 */
export const specOptions = (specs: ReadonlyArray<CatalogSpec> | undefined, spec: string, loading: boolean): ReadonlyArray<{ readonly value: string; readonly label: string }> => [
  { value: "", label: loading ? "Loading specs…" : "Choose a spec…" },
  ...(specs ?? []).map((s) => ({ value: s.slug, label: s.processed ? s.slug : `${s.slug} (not processed yet)` })),
  ...(spec !== "" && !(specs ?? []).some((s) => s.slug === spec) ? [{ value: spec, label: specs === undefined ? spec : `${spec} (not in this organization)` }] : [])
]

/** What an OpenAPI block says, in words, about its operations in place of (or above) their list; "" when the list says it all. */
export const operationsNote = (at: {
  /** Whether the screen offers the organization's specs at all. */
  readonly available: boolean
  readonly specs: ReadonlyArray<CatalogSpec> | undefined
  readonly spec: string
  readonly path: string
  readonly method: string
  readonly operations: { readonly slug: string; readonly list?: ReadonlyArray<CatalogOperation>; readonly error?: string } | undefined
  readonly query: string
}): string => {
  const { spec, path, method, operations } = at
  if (!at.available) return spec === "" ? "No OpenAPI specs are available here." : ""
  if (at.specs !== undefined && at.specs.length === 0) return "This organization has no OpenAPI specs yet: add one in the organization's OpenAPI specs."
  if (spec === "") return "Choose a spec to list its operations."
  if (at.specs?.some((s) => s.slug === spec && !s.processed) === true) return `“${spec}” has no processed version yet: its operations show once it is processed.`
  if (operations?.error !== undefined) return operations.error
  if (operations?.list === undefined) return "Loading the operations…"
  if (operations.list.length === 0) return `“${spec}” has no operations.`
  if (filterOperations(operations.list, at.query).length === 0) return `No operation of “${spec}” matches “${at.query}”.`
  if (path !== "" && !operations.list.some((op) => op.path === path && op.method.toLowerCase() === method.toLowerCase())) return `${method.toUpperCase()} ${path} is not an operation of “${spec}”: choose one below.`
  return ""
}
