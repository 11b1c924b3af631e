/**
 * One processing run of a spec's source: fetch it through content's outbound guard, parse it
 * (JSON or YAML), fetch the files its external `$ref`s name (bounded in count and size), and
 * validate the whole as Swagger 2.0 / OpenAPI 3.0 / 3.1 with @scalar/openapi-parser.
 */
import { type Duration, Effect } from "effect"
import { createHash } from "node:crypto"
import { parse as parseYaml, stringify as stringifyYaml } from "yaml"
import { OutboundFetch, type OutboundFetchError } from "@quire/outbound"
import { measure } from "./DocumentBounds.ts"
import type { ProcessError, ProcessErrorCode, SpecFile, SpecSource } from "./domain/Spec.ts"

/**
 * @scalar/openapi-parser on the first spec processed: the validator and its JSON Schema machinery
 * are not held by a process that never processes a spec (Node keeps the module once loaded).
 */
const openapiParser = () => import("@scalar/openapi-parser")

/** Bounds of one run. */
export const limits = {
  /** Bytes of one file. */
  maxBytes: 10 * 1024 * 1024,
  /** Bytes of a version's files as stored (JSON, YAML aliases expanded): well under the database client's 16 MB message. */
  maxDocumentBytes: 8 * 1024 * 1024,
  /** Levels of nesting of a document. */
  maxDepth: 100,
  /** Files referenced by the entry document and by each other. */
  maxFiles: 50,
  timeout: "20 seconds"
} as const

/** The longest error message kept (a validator may quote the document). */
const maxMessageLength = 1000

/** Why a run produced no version. */
export interface ProcessFailure {
  readonly code: ProcessErrorCode
  readonly errors: ReadonlyArray<ProcessError>
}

/** True when running again cannot help: the document itself is unparsable, invalid, too large or too deep (fetch failures may pass). */
export const isDeterministic = (failure: ProcessFailure): boolean => failure.code === "PARSE_ERROR"

/** What a successful run produced. */
export interface Processed {
  readonly filesystem: ReadonlyArray<SpecFile>
  readonly hash: string
}

const clip = (message: string): string => (message.length > maxMessageLength ? `${message.slice(0, maxMessageLength)}…` : message)

const fail = (code: ProcessErrorCode, message: string, detail: string): Effect.Effect<never, ProcessFailure> =>
  Effect.fail({ code, errors: [{ message, code: detail }] })

const fetchFailure = (url: string) => (e: OutboundFetchError): ProcessFailure => ({
  code: e.reason === "timeout" ? "FETCH_TIMEOUT" : "FETCH_ERROR",
  errors: [{ message: `${url}: ${e.message}`, code: e.reason === "http" ? "HTTP_ERROR" : e.reason.toUpperCase().replace(/-/g, "_") }]
})

/** Parses JSON or YAML text into an object. */
export const parseText = (text: string): Effect.Effect<Record<string, unknown>, ProcessFailure> =>
  Effect.suspend(() => {
    let value: unknown
    try {
      // A byte order mark is not part of the document; duplicate keys keep the last, as JSON.parse
      // does (yaml's check of them is quadratic: 10,000 keys took seconds).
      const body = text.replace(/^\ufeff/, "")
      value = body.trimStart().startsWith("{") ? JSON.parse(body) : parseYaml(body, { maxAliasCount: 100, uniqueKeys: false })
    } catch (e) {
      return fail("PARSE_ERROR", clip(`The document does not parse as JSON or YAML: ${e instanceof Error ? e.message : String(e)}`), "UNPARSABLE")
    }
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? Effect.succeed(value as Record<string, unknown>)
      : fail("PARSE_ERROR", "The document is not a JSON or YAML object", "UNPARSABLE")
  })

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`

/**
 * The bytes a version holds with `document` added to the `used` bytes of its other files; fails,
 * naming the limit, when that passes the size bound or the document passes the depth bound.
 */
export const checkBounds = (document: unknown, used = 0): Effect.Effect<number, ProcessFailure> =>
  Effect.suspend(() => {
    const measured = measure(document, { maxBytes: limits.maxDocumentBytes - used, maxDepth: limits.maxDepth })
    if ("bytes" in measured) return Effect.succeed(used + measured.bytes)
    return measured.excess === "size"
      ? fail("PARSE_ERROR", `The specification expands to more than ${mib(limits.maxDocumentBytes)} of JSON (its limit), YAML aliases included`, "TOO_LARGE")
      : fail("PARSE_ERROR", `The specification nests deeper than ${limits.maxDepth} levels (its limit)`, "TOO_DEEP")
  })

/** Parses `text` and checks its bounds: what a text source is refused for at write time. */
export const checkText = (text: string): Effect.Effect<void, ProcessFailure> =>
  parseText(text).pipe(
    Effect.flatMap((document) => checkBounds(document)),
    // A document that does not parse is the run's to report; only the bounds refuse a write.
    Effect.catchIf((failure) => failure.errors[0]?.code === "UNPARSABLE", () => Effect.void),
    Effect.asVoid
  )

/** The external files `value` references: `$ref` values with a part before `#`. */
export const externalRefs = (value: unknown): ReadonlyArray<string> => {
  const found = new Set<string>()
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (typeof node !== "object" || node === null) return
    for (const [key, child] of Object.entries(node)) {
      if (key === "$ref" && typeof child === "string") {
        const file = child.split("#")[0]!
        if (file !== "") found.add(file)
      } else walk(child)
    }
  }
  walk(value)
  return Array.from(found)
}

/** A stable SHA-256 of a filesystem. */
export const hashOf = (filesystem: ReadonlyArray<SpecFile>): string =>
  createHash("sha256").update(JSON.stringify(filesystem)).digest("hex")

/** Runs the source through fetching, reference resolution and validation. */
export const run = (source: SpecSource, timeout: Duration.Input = limits.timeout): Effect.Effect<Processed, ProcessFailure, OutboundFetch> =>
  Effect.gen(function*() {
    const fetcher = yield* OutboundFetch
    const get = (url: string) =>
      fetcher.get(url, { maxBytes: limits.maxBytes, timeout }).pipe(
        Effect.mapError(fetchFailure(url)),
        Effect.map((resource) => ({ url: resource.url, text: new TextDecoder().decode(resource.body) }))
      )

    const entry = "url" in source ? yield* get(source.url) : { url: undefined, text: source.text }
    const document = yield* parseText(entry.text)
    let used = yield* checkBounds(document)
    const files: Array<SpecFile> = [{ filename: "openapi", isEntrypoint: true, references: externalRefs(document), specification: document }]

    // Referenced files, breadth first, each fetched once, relative to the file that names it. A
    // file is named by the reference as written, which is how the parser looks it up.
    if (entry.url !== undefined) {
      const queue = files[0]!.references.map((ref) => ({ ref, base: entry.url }))
      const seen = new Set<string>()
      while (queue.length > 0) {
        const { base, ref } = queue.shift()!
        if (seen.has(ref)) continue
        seen.add(ref)
        if (seen.size > limits.maxFiles) {
          return yield* fail("PARSE_ERROR", `The document references more than ${limits.maxFiles} files`, "TOO_MANY_REFERENCES")
        }
        let url: string
        try {
          url = new URL(ref, base).toString()
        } catch {
          return yield* fail("PARSE_ERROR", `Reference ${JSON.stringify(ref)} is not a URL`, "INVALID_REFERENCE")
        }
        const fetched = yield* get(url)
        const parsed = yield* parseText(fetched.text)
        used = yield* checkBounds(parsed, used)
        const references = externalRefs(parsed)
        files.push({ filename: ref, isEntrypoint: false, references, specification: parsed })
        queue.push(...references.map((next) => ({ ref: next, base: fetched.url })))
      }
    }

    const result = yield* Effect.tryPromise({
      try: async () =>
        (await openapiParser()).validate(files.map((f) => ({ dir: "./", filename: f.filename, isEntrypoint: f.isEntrypoint, references: [...f.references], specification: f.specification as Record<string, unknown> }))),
      catch: (e): ProcessFailure => ({ code: "PARSE_ERROR", errors: [{ message: `The validator failed: ${clip(e instanceof Error ? e.message : String(e))}`, code: "INVALID_DOCUMENT" }] })
    })
    if (!result.valid) {
      const errors = (result.errors ?? []).slice(0, 20).map((e): ProcessError => ({
        message: clip(`${e.message}${e.path === undefined || e.path === "" ? "" : ` (at ${Array.isArray(e.path) ? e.path.join("/") : e.path})`}`),
        code: "INVALID_DOCUMENT"
      }))
      return yield* Effect.fail<ProcessFailure>({
        code: "PARSE_ERROR",
        errors: errors.length > 0 ? errors : [{ message: "Not a valid Swagger 2.0 or OpenAPI 3.x document", code: "INVALID_DOCUMENT" }]
      })
    }
    return { filesystem: files, hash: hashOf(files) }
  })

/** A document as served: JSON or YAML text. */
export const render = (document: unknown, format: "json" | "yaml"): string =>
  format === "json" ? JSON.stringify(document, null, 2) : stringifyYaml(document)
