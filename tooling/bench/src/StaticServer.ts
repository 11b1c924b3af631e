/**
 * Child process: the physical limit for a cached published page. A plain node:http server that
 * answers every request with one response held in memory (the status, headers and body Quire
 * answered for the page, read from the JSON file `staticResponse`), and a 304 with the same
 * headers when `If-None-Match` names its ETag: no routing, no database, no rendering.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import * as Profiling from "./Profiling.ts"
import * as Target from "./Target.ts"

Profiling.listen()
const config = Target.read()
if (config.staticResponse === undefined) throw new Error("the static server needs `staticResponse`")
const stored = JSON.parse(readFileSync(config.staticResponse, "utf8")) as {
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}
const body = Buffer.from(stored.body, "utf8")
const headers = { ...stored.headers, "content-length": String(body.length) }
const notModifiedHeaders = { ...stored.headers }
const etag = stored.headers["etag"]

const server = createServer((request, response) => {
  if (etag !== undefined && request.headers["if-none-match"] === etag) {
    response.writeHead(304, notModifiedHeaders)
    response.end()
    return
  }
  response.writeHead(200, headers)
  response.end(body)
})
server.keepAliveTimeout = 65_000
server.listen(config.port, "127.0.0.1")
process.on("SIGINT", () => server.close(() => process.exit(0)))
