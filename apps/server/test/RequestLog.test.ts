/**
 * The request log: a line per request (published pages answered before the application included),
 * none for /health, no query strings; the request's id on its line and on the lines it logs.
 */
import { assert, describe, it } from "@effect/vitest"
import { once } from "node:events"
import type { AddressInfo } from "node:net"
import { Effect, Layer, Logger, References } from "effect"
import { FetchHttpClient, HttpClient, HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import type { FastPagesShape } from "../src/FastPages.ts"
import * as NodeServer from "../src/NodeServer.ts"
import * as RequestContext from "../src/RequestContext.ts"
import * as RequestLog from "../src/RequestLog.ts"

const serveWith = async (format: "pretty" | "json") => {
  const lines: Array<string> = []
  const pages = { serve: (request: { url?: string }, response: { end: (body: string) => void }) => request.url === "/fast" ? (response.end("page"), true) : false } as unknown as FastPagesShape
  const server = NodeServer.create(pages, RequestLog.make(format, (text) => lines.push(text)))
  server.on("request", (request, response) => {
    response.statusCode = request.url?.startsWith("/missing") === true ? 404 : 200
    response.end("ok")
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { lines, base, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe("request log", () => {
  it("logs method, path without its query, status and time; published pages too; never /health", async () => {
    const { lines, base, close } = await serveWith("pretty")
    try {
      await (await fetch(`${base}/v1/orgs?token=secret`)).text()
      await (await fetch(`${base}/missing/page`, { method: "DELETE" })).text()
      await (await fetch(`${base}/fast`)).text()
      await (await fetch(`${base}/health`)).text()
      await new Promise((resolve) => setTimeout(resolve, 20))
      assert.strictEqual(lines.length, 3, lines.join(""))
      assert.match(lines[0]!, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(http\): GET \/v1\/orgs 200 [\d.]+ ms\n$/)
      assert.notInclude(lines.join(""), "secret")
      assert.match(lines[1]!, /DELETE \/missing\/page 404/)
      assert.match(lines[2]!, /GET \/fast 200/)
    } finally {
      await close()
    }
  })

  it("writes one JSON object per line in the json format", async () => {
    const { lines, base, close } = await serveWith("json")
    try {
      await (await fetch(`${base}/v1/user`)).text()
      await new Promise((resolve) => setTimeout(resolve, 20))
      const entry = JSON.parse(lines[0]!)
      assert.strictEqual(entry.message, "GET /v1/user 200")
      assert.strictEqual(entry.logLevel, "INFO")
      assert.deepInclude(entry.annotations, { method: "GET", path: "/v1/user", status: 200 })
      assert.isNumber(entry.annotations.ms)
    } finally {
      await close()
    }
  })
})

describe("standard output of the request log", () => {
  it("writes the lines of one turn of the event loop together, in order, and nothing before", async () => {
    const writes: Array<string> = []
    const original = process.stdout.write
    process.stdout.write = ((text: string) => (writes.push(text), true)) as typeof process.stdout.write
    try {
      const write = RequestLog.batchedStdout()
      write("first\n")
      write("second\n")
      assert.deepStrictEqual(writes, [])
      await new Promise((resolve) => setImmediate(resolve))
      write("third\n")
      await new Promise((resolve) => setImmediate(resolve))
      assert.deepStrictEqual(writes, ["first\nsecond\n", "third\n"])
    } finally {
      process.stdout.write = original
    }
  })
})

describe("request ids", () => {
  it.effect("answer each request with an id, which the request log and every line the request logs carry", () => {
    const annotations: Array<unknown> = []
    const capture = Logger.layer([Logger.make((options) => {
      if (String(options.message) === "inside") annotations.push(options.fiber.getRef(References.CurrentLogAnnotations))
    })])
    const routes = HttpRouter.use((router) =>
      router.add("GET", "/v1/things", Effect.as(Effect.logInfo("inside"), HttpServerResponse.text("ok"))))
    const lines: Array<string> = []
    const server = HttpRouter.serve(routes, { disableLogger: true, middleware: RequestContext.annotate }).pipe(
      Layer.provideMerge(HttpServer.layerTestClient),
      Layer.provide(FetchHttpClient.layer),
      Layer.provideMerge(NodeServer.layer({ port: 0 }, RequestLog.make("json", (text) => lines.push(text)))),
      Layer.provide(capture)
    )
    return Effect.gen(function*() {
      const client = yield* HttpClient.HttpClient
      const first = yield* client.get("/v1/things")
      const id = first.headers["x-request-id"]
      assert.match(id ?? "", /^[0-9a-f-]{36}$/)
      const given = yield* client.get("/v1/things", { headers: { "x-request-id": "proxy-42" } })
      assert.strictEqual(given.headers["x-request-id"], "proxy-42")
      const refused = yield* client.get("/v1/things", { headers: { "x-request-id": "no spaces allowed" } })
      assert.notStrictEqual(refused.headers["x-request-id"], "no spaces allowed")
      assert.deepStrictEqual(annotations.map((a) => (a as { requestId?: string }).requestId), [id, "proxy-42", refused.headers["x-request-id"]])
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
      assert.deepStrictEqual(lines.map((line) => JSON.parse(line).annotations.requestId), [id, "proxy-42", refused.headers["x-request-id"]])
    }).pipe(Effect.provide(server))
  })
})
