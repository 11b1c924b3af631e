/**
 * Every 2xx JSON answer a test server gives under `/v1` is checked against GitBook's schema for its
 * operation as it leaves the server (GitBookSchema.ts), and the verdict appended to this worker's
 * file in `.vitest/conformance/`. The conformance project (Conformance.test.ts) runs after the
 * server suite and reads them all: one failing answer anywhere fails it, with the test's request.
 */
import { appendFileSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { threadId } from "node:worker_threads"
import { fileURLToPath } from "node:url"
import { Context, Effect, Layer } from "effect"
import { HttpServer, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { check, operationOf } from "./GitBookSchema.ts"

/**
 * Where the verdicts go: `.vitest/conformance/`, or `QUIRE_CONFORMANCE_DIR`. A bench that runs one
 * server test file (tooling/bench's ServerTestRun) names its own, since that run's global setup
 * clears the directory: in the suite's, it removed the verdicts of the server suite running beside it.
 */
export const captureDirectory = process.env["QUIRE_CONFORMANCE_DIR"] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".vitest", "conformance")

export interface Captured {
  readonly operationId: string
  readonly method: string
  readonly path: string
  readonly status: number
  readonly unknownStatus?: ReadonlyArray<string>
  readonly errors: ReadonlyArray<string>
  /** The start of a failing answer's body. */
  readonly body?: string
}

let file: string | undefined
/** Why this process could not record, once: its verdicts are missing from the check, its answers unchanged. */
let unwritable: string | undefined
const write = (line: Captured) => {
  try {
    file ??= join(captureDirectory, `${process.pid}-${threadId}.jsonl`)
    mkdirSync(captureDirectory, { recursive: true })
    appendFileSync(file, JSON.stringify(line) + "\n")
  } catch (error) {
    if (unwritable === undefined) {
      unwritable = String(error)
      process.stderr.write(`conformance: ${process.pid} cannot record verdicts: ${unwritable}\n`)
    }
  }
}

const decoder = new TextDecoder()

const quireRoutes: ReadonlyArray<RegExp> = [/^\/v1\/orgs\/[^/]+\/fonts\/files$/]

const record = (method: string, url: string, response: HttpServerResponse.HttpServerResponse) => {
  if (response.status < 200 || response.status > 299) return
  const body = response.body
  if (body._tag !== "Uint8Array" || !body.contentType.includes("json")) return
  const path = url.split("?")[0]!
  if (!path.startsWith("/v1/") && path !== "/v1") return
  // Quire's own routes under /v1 that a GitBook template would take: a font file's upload is not `updateCustomFont` of a font "files".
  if (quireRoutes.some((route) => route.test(path))) return
  const operation = operationOf(method, path.slice(3))
  if (operation === undefined) return
  const text = body.text ?? decoder.decode(body.body)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    write({ operationId: operation.operationId, method, path, status: response.status, errors: ["(body) is not JSON"], body: text.slice(0, 400) })
    return
  }
  const verdict = check(operation, response.status, parsed)
  const failed = verdict.errors.length > 0 || verdict.unknownStatus !== undefined
  write({ ...verdict, method, path, status: response.status, ...(failed ? { body: text.slice(0, 600) } : {}) })
}

const capturing = (server: HttpServer.HttpServer["Service"]) =>
  HttpServer.make({
    address: server.address,
    serve: (app, middleware) => {
      const served = middleware === undefined ? app : middleware(app as never) as typeof app
      return server.serve(Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
        Effect.tap(served, (response) =>
          Effect.sync(() => {
            // A check that throws is a failing verdict, never a changed answer.
            try {
              record(request.method, request.url, response)
            } catch (error) {
              write({ operationId: "(check)", method: request.method, path: request.url, status: response.status, errors: [`the check threw: ${String(error)}`] })
            }
          }))))
    }
  })

/** `server`'s services, its HttpServer one whose every answer is checked and recorded. */
export const around = <A, E, R>(server: Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.effectContext(Effect.map(Effect.context<A>(), (context) => {
    const services = context as unknown as Context.Context<HttpServer.HttpServer>
    return Context.add(services, HttpServer.HttpServer, capturing(Context.get(services, HttpServer.HttpServer))) as unknown as Context.Context<A>
  })).pipe(Layer.provide(server))
