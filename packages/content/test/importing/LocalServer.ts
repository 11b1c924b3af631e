/** A throwaway HTTP server on 127.0.0.1 for the outbound fetch and import tests (no internet). */
import { Effect } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly port: number
  /** TCP connections accepted so far. */
  readonly connections: () => number
}

/** A simple route table: path to status, headers and body. */
export type Routes = Record<string, { readonly status?: number; readonly type?: string; readonly headers?: Record<string, string>; readonly body?: string }>

/** Serves `handler` on a random port of 127.0.0.1 for the scope of a test. */
export const serve = (handler: http.RequestListener) =>
  Effect.acquireRelease(
    Effect.callback<LocalServer & { readonly server: http.Server }>((resume) => {
      let connections = 0
      const server = http.createServer(handler)
      server.on("connection", () => connections++)
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ origin: `http://127.0.0.1:${port}`, port, connections: () => connections, server }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

/** Serves fixed routes; anything else is a 404. */
export const serveRoutes = (routes: Routes) =>
  serve((req, res) => {
    const route = routes[req.url ?? "/"]
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" })
      return res.end("not found")
    }
    res.writeHead(route.status ?? 200, { "content-type": route.type ?? "text/html; charset=utf-8", ...route.headers })
    res.end(route.body ?? "")
  })
