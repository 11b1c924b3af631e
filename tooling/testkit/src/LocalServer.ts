/**
 * Throwaway web servers on 127.0.0.1 for tests that fetch (website imports, files by URL, the
 * outbound guard): nothing leaves the machine. Closed with the test's scope.
 */
import { Effect, type Scope } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly port: number
  /** TCP connections accepted so far. */
  readonly connections: () => number
}

/** What a route answers. */
export interface Route {
  /** Default 200. */
  readonly status?: number
  /** The content type; default `text/html; charset=utf-8`, `null` sends none. */
  readonly type?: string | null
  readonly headers?: Record<string, string>
  readonly body?: string | Uint8Array
}

/** Fixed answers by request path (with its query string). */
export type Routes = Record<string, Route>

/** Serves `handler` on a random port of 127.0.0.1 until the scope closes. */
export const serve = (handler: http.RequestListener): Effect.Effect<LocalServer, never, Scope.Scope> =>
  Effect.map(
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
    ),
    ({ connections, origin, port }) => ({ origin, port, connections })
  )

/** Serves fixed routes; any other path is a 404. */
export const serveRoutes = (routes: Routes): Effect.Effect<LocalServer, never, Scope.Scope> =>
  serve((req, res) => {
    const route = routes[req.url ?? "/"]
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" })
      return res.end("not found")
    }
    const type = route.type === undefined ? "text/html; charset=utf-8" : route.type
    res.writeHead(route.status ?? 200, { ...(type === null ? {} : { "content-type": type }), ...route.headers })
    res.end(route.body ?? "")
  })

/** A GET of `url`: the status, the headers and the body's bytes. */
export const download = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url)
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
  })

/** A TCP port on 127.0.0.1 that nothing listens on now, for a server a test or bench spawns. */
export const freePort = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const server = http.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
    })
  })
