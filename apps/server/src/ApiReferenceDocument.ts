/**
 * The document the API reference at `/docs` loads, made from the contract as Scalar's store would
 * make it in the browser. Making it takes seconds of CPU, so it is never made on a request's thread:
 * `pnpm build` writes it beside the bundles (tooling/build/build.mjs runs `ApiReferenceWorker`),
 * and a server without that file (sources under tsx or Vitest) makes it in a worker thread.
 * It carries no `servers`: the server that serves it adds its own public URL (`ApiDocs.withServer`).
 */
import { OpenApi } from "effect/http-api"
import { Api } from "@quire/api"

type Spec = Record<string, any>

/** Said once in the introduction instead of as a parameter of every write. */
const idempotencyNote =
  "\n\nEvery write (`POST`, `PUT`, `PATCH`) accepts an `Idempotency-Key` header (1 to 255 characters): the same request sent again with the same key within 24 hours gets the first answer back, status and body, instead of being run twice."

/** The document as the reference shows it: without the `Idempotency-Key` parameter on each write, described once instead. */
export const readersDocument = (spec: Spec): Spec => {
  const paths: Spec = {}
  for (const [path, item] of Object.entries<Spec>(spec["paths"] ?? {})) {
    const operations: Spec = {}
    for (const [method, operation] of Object.entries<Spec>(item)) {
      const parameters = Array.isArray(operation?.["parameters"])
        ? operation["parameters"].filter((parameter: Spec) =>
          parameter["$ref"] !== "#/components/parameters/IdempotencyKey" && !(parameter["in"] === "header" && parameter["name"] === "Idempotency-Key"))
        : undefined
      operations[method] = parameters === undefined ? operation : { ...operation, parameters }
    }
    paths[path] = operations
  }
  return { ...spec, info: { ...spec["info"], description: `${spec["info"]?.["description"] ?? ""}${idempotencyNote}` }, paths }
}

/** The name Scalar gives a lone document without `title` or `slug` in its settings: the navigation's ids start with it. */
export const scalarDocumentName = "api-1"

/** A copy made through Scalar's reference proxy (each `$ref` read with its target), as its store copies before the cast. */
const proxiedCopy = (value: unknown, seen = new WeakMap<object, unknown>()): unknown => {
  if (typeof value !== "object" || value === null) return value
  const known = seen.get(value)
  if (known !== undefined) return known
  const copy: Record<string, unknown> | Array<unknown> = Array.isArray(value) ? [] : {}
  seen.set(value, copy)
  for (const key of Object.keys(value)) (copy as Record<string, unknown>)[key] = proxiedCopy((value as Record<string, unknown>)[key], seen)
  return copy
}

/**
 * The reader's document as Scalar's store (`@scalar/workspace-store`, the version of the bundle)
 * makes it when the document has no `x-scalar-navigation`: the cast against its OpenAPI schema
 * merged in, and the navigation. With those and absolute servers, the document passes Scalar's
 * check and Scalar does none of that work in the browser (docs/web.md).
 */
export const scalarDocument = async (readers: Spec): Promise<Spec> => {
  const [{ createMagicProxy, getRaw }, { mergeObjects }, { createNavigation }, { coerceValue }, { OpenAPIDocumentSchema }] = await Promise.all([
    import("@scalar/json-magic/magic-proxy"),
    import("@scalar/workspace-store/helpers/merge-object"),
    import("@scalar/workspace-store/navigation"),
    import("@scalar/workspace-store/schemas/typebox-coerce"),
    import("@scalar/workspace-store/schemas/v3.1/strict/openapi-document")
  ])
  const document = createMagicProxy({ ...readers }, { showInternal: true }) as Spec
  mergeObjects(document, coerceValue(OpenAPIDocumentSchema, proxiedCopy(document)) as Spec)
  const navigation = createNavigation(scalarDocumentName, document as never, { "x-scalar-reference-config": { features: { showModels: true } } } as never)
  return { ...(getRaw(document) as Spec), "x-scalar-navigation": navigation }
}

/** The reference's document of this contract, as JSON text: what the build writes and a worker answers. */
export const make = async (): Promise<string> => JSON.stringify(await scalarDocument(readersDocument(OpenApi.fromApi(Api) as unknown as Spec)))
