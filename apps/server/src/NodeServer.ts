/** Node's HTTP server for the application, with published pages answered before it (FastPages). */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { FastPages, type FastPagesShape } from "./FastPages.ts"
import { fastPageRoute, HttpMetrics } from "./HttpMetrics.ts"
import { assignId, type RequestObserver } from "./RequestLog.ts"
import { Upgrades } from "./Upgrades.ts"

/** When a request arrived (`performance.now()`), kept on its response for the one `finish` listener. */
const arrivedAt = Symbol("arrivedAt")
type Observed = ServerResponse & { [arrivedAt]?: number }

/**
 * Node's HTTP server. A request `pages` answers never reaches the application's listener.
 * `observe` hears of each request as it arrives and when its answer is sent. Each connection is
 * closed once its response is sent after the server stopped listening: a keep-alive client then
 * does not hold the shutdown open until the timeout. An upgrade of a path mounted in `upgrades`
 * (`/collab`) goes to its handler, never to the application's.
 */
export const create = (
  pages: FastPagesShape,
  observe: RequestObserver = {},
  servedFast?: (request: IncomingMessage) => void,
  upgrades?: Upgrades["Service"]
): Server => {
  // An idle keep-alive connection stays open longer than clients keep theirs (Node's fetch: 4 s, load
  // balancers: 60 s), so the client closes it first: with Node's 5 s, a client reusing a connection
  // as the server closed it got ECONNRESET (seen in CI, a busy test process). Headers must still
  // arrive within a minute.
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 })
  const { arrived, finished } = observe
  // One listener function for every response (no closure per request): it observes the answer and
  // closes the connection when the server stopped listening.
  const onFinish = function(this: Observed) {
    const request = this.req
    if (finished !== undefined) finished(request, this, performance.now() - (this[arrivedAt] ?? 0))
    if (!server.listening) request.socket.end()
  }
  const emit = server.emit
  // The server listens before the application attaches its handler: requests of that moment
  // wait for it rather than for ever (a client polling for readiness would hang on them).
  let early: Array<readonly [IncomingMessage, ServerResponse]> = []
  server.emit = function(this: Server, event: string | symbol, ...args: Array<any>): boolean {
    if (event === "upgrade" && upgrades !== undefined && upgrades.handle(args[0], args[1], args[2])) return true
    if (event === "request") {
      const request = args[0] as IncomingMessage
      const response = args[1] as Observed
      // Once per request, published pages included (a request held for the listener comes back here: not twice).
      if (response[arrivedAt] === undefined) {
        response[arrivedAt] = performance.now()
        arrived?.(request, response)
        // A response finishes once: `on` rather than `once`, which wraps the listener for each request.
        response.on("finish", onFinish)
      }
      if (pages.serve(request, response)) {
        servedFast?.(request)
        return true
      }
      if (server.listenerCount("request") === 0) {
        early.push([request, response])
        return true
      }
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean
  } as Server["emit"]
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
    const upgrades = yield* Upgrades
    const logFinished = log?.finished
    const observe: RequestObserver = {
      arrived: (request, response) => {
        assignId(request, response)
        log?.arrived?.(request, response)
      },
      finished: logFinished === undefined ? metrics.finished : (request, response, ms) => {
        metrics.finished(request, response, ms)
        logFinished(request, response, ms)
      }
    }
    return NodeHttpServer.layer(() => create(pages, observe, (request) => metrics.route(request, fastPageRoute), upgrades), options)
  })).pipe(
    Layer.provideMerge(Layer.fresh(Layer.mergeAll(FastPages.layer, HttpMetrics.layer, Upgrades.layer)))
  )

/**
 * NodeHttpServer's test server (no FastPages in front), with the FastPages the application keeps
 * pages in, and Upgrades that nothing consults (its server is not `create`'s).
 */
export const layerTest = NodeHttpServer.layerTest.pipe(Layer.provideMerge(Layer.fresh(Layer.merge(FastPages.layer, Upgrades.layer))))
