/**
 * The OpenAPI specs screens' words and pure reading: a spec's processing state in plain words,
 * the operations of an entry document, and the page block that shows one of them.
 */
import type { OpenAPISpec } from "@quire/api"

export interface SpecState {
  /** Still running: the screen polls until it is not. */
  readonly running: boolean
  readonly failed: boolean
  readonly label: string
}

const failures: Record<NonNullable<OpenAPISpec["lastProcessErrorCode"]>, string> = {
  FETCH_TIMEOUT: "The source URL did not answer in time",
  FETCH_ERROR: "The source could not be fetched",
  PARSE_ERROR: "The document is not a valid OpenAPI specification"
}

/** GitBook's `pending → progress → complete` (a failure is `complete` with an error code) in words. */
export const stateOf = (spec: Pick<OpenAPISpec, "processingState" | "lastProcessErrorCode">): SpecState => {
  if (spec.processingState === "pending") return { running: true, failed: false, label: "Waiting to be processed" }
  if (spec.processingState === "progress") return { running: true, failed: false, label: "Processing" }
  if (spec.lastProcessErrorCode !== undefined) return { running: false, failed: true, label: `Failed: ${failures[spec.lastProcessErrorCode]}` }
  return { running: false, failed: false, label: "Processed" }
}

export interface Operation {
  readonly method: string
  readonly path: string
  readonly summary: string | undefined
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
const isObject = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

/** A version's entry document in its content (Scalar's filesystem: the file marked as the entry point, else the first). */
export const entryDocument = (content: { readonly filesystem: ReadonlyArray<{ readonly isEntrypoint: boolean; readonly specification: unknown }> }): unknown =>
  (content.filesystem.find((file) => file.isEntrypoint) ?? content.filesystem[0])?.specification

/** The operations of an entry document (`paths`), in its order; anything malformed is left out. */
export const operationsOf = (document: unknown): ReadonlyArray<Operation> => {
  const paths = isObject(document) ? document["paths"] : undefined
  if (!isObject(paths)) return []
  return Object.entries(paths).flatMap(([path, item]) =>
    isObject(item)
      ? methods.filter((method) => isObject(item[method])).map((method) => {
        const summary = (item[method] as Record<string, unknown>)["summary"]
        return { method, path, summary: typeof summary === "string" && summary !== "" ? summary : undefined }
      })
      : [])
}

/** The markdown of a page block showing one operation, as published sites draw it. */
export const operationBlock = (slug: string, operation: Pick<Operation, "method" | "path">) =>
  `{% openapi-operation spec="${slug}" path="${operation.path}" method="${operation.method}" %}\n{% endopenapi-operation %}`

/** The slug a file's name suggests (`Pet Store.v2.yaml` → `pet-store-v2`), within GitBook's pattern. */
export const slugFromName = (name: string) =>
  name.replace(/\.(ya?ml|json)$/i, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 100).replace(/-+$/, "")
