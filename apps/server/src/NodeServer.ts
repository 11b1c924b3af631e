/** Node's HTTP server for the application, with published pages answered before it (FastPages). */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { FastPages, type FastPagesShape } from "./FastPages.ts"
import { fastPageRoute, HttpMetrics } from "./HttpMetrics.ts"
import { assignId, type RequestObserver } from "./RequestLog.ts"

/**
 * Node's HTTP server. A request `pages` answers never reaches the application's listener.
 * Each connection is closed once its response is sent after the server stopped listening: a
 * keep-alive client then does not hold the shutdown open until the timeout.
 */
export const create = (pages: FastPagesShape, observe?: RequestObserver, servedFast?: (request: IncomingMessage) => void): Server => {
  // An idle keep-alive connection stays open longer than clients keep theirs (Node's fetch: 4 s, load
  // balancers: 60 s), so the client closes it first: with Node's 5 s, a client reusing a connection
  // as the server closed it got ECONNRESET (seen in CI, a busy test process). Headers must still
  // arrive within a minute.
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 })
  const closeAfter = (request: IncomingMessage, response: ServerResponse) =>
    response.once("finish", () => {
      if (!server.listening) request.socket.end()
    })
  const emit = server.emit
  // The server listens before the application attaches its handler: requests of that moment
  // wait for it rather than for ever (a client polling for readiness would hang on them).
  let early: Array<readonly [IncomingMessage, ServerResponse]> = []
  const seen = new WeakSet<object>()
  server.emit = function(this: Server, event: string | symbol, ...args: Array<any>): boolean {
    if (event === "request") {
      // Once per request, published pages included (a request held for the listener comes back here: not twice).
      if (observe !== undefined && !seen.has(args[0])) {
        seen.add(args[0])
        observe(args[0] as IncomingMessage, args[1] as ServerResponse)
      }
      if (pages.serve(args[0] as IncomingMessage, args[1] as ServerResponse)) {
        servedFast?.(args[0])
        closeAfter(args[0], args[1])
        return true
      }
      if (server.listenerCount("request") <= 1) {
        early.push([args[0], args[1]])
        return true
      }
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean
  } as Server["emit"]
  server.on("request", closeAfter)
  server.on("newListener", (event) => {
    if (event !== "request" || early.length === 0) return
    const waiting = early
    early = []
    setImmediate(() => {
      for (const [request, response] of waiting) server.emit("request", request, response)
    })
  })
  return server
}

/**
 * The HttpServer on Node's server of `create`, with the FastPages it answers from (provided too:
 * PublishedSiteRoutes keeps pages in them) and its HttpMetrics. Each server gets pages and
 * metrics of its own. Every request gets its id (`RequestLog.assignId`) and is counted; `log`
 * (the request log) sees it after that.
 */
export const layer = (options: Parameters<typeof NodeHttpServer.layer>[1], log?: RequestObserver) =>
  Layer.unwrap(Effect.gen(function*() {
    const pages = yield* FastPages
    const metrics = yield* HttpMetrics
    const observe: RequestObserver = (request, response) => {
      assignId(request, response)
      metrics.observe(request, response)
      log?.(request, response)
    }
    return NodeHttpServer.layer(() => create(pages, observe, (request) => metrics.route(request, fastPageRoute)), options)
  })).pipe(
    Layer.provideMerge(Layer.fresh(Layer.merge(FastPages.layer, HttpMetrics.layer)))
  )

/** NodeHttpServer's test server (no FastPages in front), with the FastPages the application keeps pages in. */
export const layerTest = NodeHttpServer.layerTest.pipe(Layer.provideMerge(Layer.fresh(FastPages.layer)))
