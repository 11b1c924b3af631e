/**
 * A Git server for tests: a loopback HTTP server that runs `git http-backend` as a CGI program over
 * the bare repositories of a folder, behind basic authentication (401 with `WWW-Authenticate`
 * without the right credentials), as a Git host would.
 */
import { Effect, type Scope } from "effect"
import { spawn } from "node:child_process"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface GitHttpServerOptions {
  /** The folder holding the bare repositories (`<root>/<name>.git`). */
  readonly root: string
  /** The credentials required; none: anyone may read and push. */
  readonly credentials?: { readonly username: string; readonly password: string }
}

export interface GitHttpServer {
  readonly port: number
  /** `http://127.0.0.1:<port>/<name>`, with `credentials` in it when given. */
  readonly url: (name: string, credentials?: { readonly username: string; readonly password: string }) => string
  /** How many requests were answered 401. */
  readonly refused: () => number
}

const serveCgi = (root: string, user: string, req: http.IncomingMessage, res: http.ServerResponse) => {
  const url = new URL(req.url ?? "/", "http://localhost")
  const child = spawn("git", ["http-backend"], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      REMOTE_USER: user,
      REMOTE_ADDR: "127.0.0.1",
      GATEWAY_INTERFACE: "CGI/1.1",
      ...(req.headers["content-length"] === undefined ? {} : { CONTENT_LENGTH: req.headers["content-length"] }),
      ...(req.headers["content-encoding"] === undefined ? {} : { HTTP_CONTENT_ENCODING: String(req.headers["content-encoding"]) }),
      ...(req.headers["git-protocol"] === undefined ? {} : { GIT_PROTOCOL: String(req.headers["git-protocol"]) })
    },
    stdio: ["pipe", "pipe", "pipe"]
  })
  req.pipe(child.stdin)
  child.stdin.on("error", () => {})
  child.stderr.resume()
  let head = Buffer.alloc(0)
  let headersSent = false
  child.stdout.on("data", (chunk: Buffer) => {
    if (headersSent) {
      res.write(chunk)
      return
    }
    head = Buffer.concat([head, chunk])
    const end = head.indexOf("\r\n\r\n")
    const endLf = head.indexOf("\n\n")
    const [cut, skip] = end >= 0 && (endLf < 0 || end < endLf) ? [end, 4] : [endLf, 2]
    if (cut < 0) return
    let status = 200
    for (const line of head.subarray(0, cut).toString("latin1").split(/\r?\n/)) {
      const colon = line.indexOf(":")
      if (colon < 0) continue
      const name = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (name.toLowerCase() === "status") status = Number.parseInt(value, 10)
      else res.setHeader(name, value)
    }
    res.writeHead(status)
    headersSent = true
    res.write(head.subarray(cut + skip))
  })
  child.on("close", () => {
    if (!headersSent) res.writeHead(500)
    res.end()
  })
}

/** Starts the server on an ephemeral loopback port for the scope. */
export const start = (options: GitHttpServerOptions): Effect.Effect<GitHttpServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ server: http.Server; refused: { count: number } }>((resolve) => {
        const refused = { count: 0 }
        const server = http.createServer((req, res) => {
          let user = "anonymous"
          if (options.credentials !== undefined) {
            const header = req.headers.authorization ?? ""
            const expected = `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString("base64")}`
            if (header !== expected) {
              refused.count++
              req.resume()
              res.writeHead(401, { "WWW-Authenticate": "Basic realm=\"git\"", "Content-Type": "text/plain" })
              res.end("Authentication required\n")
              return
            }
            user = options.credentials.username
          }
          serveCgi(options.root, user, req, res)
        })
        server.listen(0, "127.0.0.1", () => resolve({ server, refused }))
      })
    ),
    ({ server }) =>
      Effect.promise(() =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
      )
  ).pipe(Effect.map(({ server, refused }) => {
    const port = (server.address() as AddressInfo).port
    return {
      port,
      url: (name, credentials) =>
        credentials === undefined
          ? `http://127.0.0.1:${port}/${name}`
          : `http://${encodeURIComponent(credentials.username)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${name}`,
      refused: () => refused.count
    }
  }))
