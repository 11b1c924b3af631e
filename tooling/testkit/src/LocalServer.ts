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

/**
 * Ports below Linux's ephemeral range (32768-60999), where `listen(0)` and outgoing connections
 * take theirs: a port found free there could be taken by another suite's `listen(0)` or a
 * client socket in the moment before the spawned server bound it, and the spawned server's
 * health check would then reach another suite's server.
 */
const spawnedPorts = { from: 20_000, to: 32_000 }
const handedOut = new Set<number>()

const listenable = (port: number): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const server = http.createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/**
 * A TCP port on 127.0.0.1 that nothing listens on now, for a server a test or bench spawns: a
 * random one below the ephemeral range, never the same twice in one process.
 */
export const freePort = async (): Promise<number> => {
  for (let tries = 0; tries < 200; tries++) {
    const port = spawnedPorts.from + Math.floor(Math.random() * (spawnedPorts.to - spawnedPorts.from))
    if (handedOut.has(port)) continue
    handedOut.add(port)
    if (await listenable(port)) return port
  }
  throw new Error(`No free port between ${spawnedPorts.from} and ${spawnedPorts.to}`)
}
