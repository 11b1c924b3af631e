/**
 * One log line per request, when its answer is sent: method, path (its query left out: it may
 * carry a token), status and milliseconds, in the server's log format. Made at Node's `finish`
 * event and written to the output once per turn of the event loop, rather than through Effect's logger, which cost most of the
 * throughput when the router logged each request. `/health` and `/metrics` are left out (probes
 * and scrapes poll them). Each line carries the request's id (`assignId`), as do the lines logged
 * while the request runs (RequestContext.ts).
 */
import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * What the Node server tells of each request (NodeServer.ts): its arrival, before anything answers
 * it, and its answer's last byte (Node's `finish`), with the milliseconds between the two. One
 * `finish` listener serves every observer.
 */
export interface RequestObserver {
  readonly arrived?: ((request: IncomingMessage, response: ServerResponse) => void) | undefined
  readonly finished?: ((request: IncomingMessage, response: ServerResponse, ms: number) => void) | undefined
}

const quiet = new Set(["/health", "/v1/health", "/metrics"])

/** The request header, and answer header, of a request's id. */
export const requestIdHeader = "x-request-id"

const acceptedId = /^[\w.:@-]{1,128}$/

/**
 * Gives `request` its id: the `X-Request-Id` a proxy in front set, when it is a plain token of at
 * most 128 characters, else a new UUID. It is set on the request (for the application's log
 * lines and span) and on the answer, so a client can quote it.
 */
export const assignId = (request: IncomingMessage, response: ServerResponse): string => {
  const given = request.headers[requestIdHeader]
  const id = typeof given === "string" && acceptedId.test(given) ? given : randomUUID()
  request.headers[requestIdHeader] = id
  response.setHeader(requestIdHeader, id)
  return id
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")
const clock = (at: Date) => `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`

/** The line of a finished request, in `format` (`pretty`: the console logger's look; `json`: one object). */
export const line = (
  format: "pretty" | "json",
  entry: { method: string; path: string; status: number; ms: number; at: Date; requestId?: string | undefined }
): string => {
  const ms = Math.round(entry.ms * 10) / 10
  const level = entry.status >= 500 ? "ERROR" : "INFO"
  const id = entry.requestId === undefined ? {} : { requestId: entry.requestId }
  return format === "json"
    ? `${JSON.stringify({
      message: `${entry.method} ${entry.path} ${entry.status}`,
      logLevel: level,
      timestamp: entry.at.toISOString(),
      annotations: { method: entry.method, path: entry.path, status: entry.status, ms, ...id }
    })}\n`
    : `[${clock(entry.at)}] ${level} (http): ${entry.method} ${entry.path} ${entry.status} ${ms} ms` +
      `${entry.requestId === undefined ? "" : ` requestId=${entry.requestId}`}\n`
}

/**
 * Standard output, written once per turn of the event loop: under load, one write of the lines of
 * every request answered in that turn rather than a system call per request. Lines still pending
 * when the process exits are written then.
 */
export const batchedStdout = (): ((text: string) => void) => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const text = pending.join("")
    pending = []
    process.stdout.write(text)
  }
  process.on("exit", flush)
  return (text) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push(text)
  }
}

/** An observer writing each request's line with `write` (standard output, batched, by default). */
export const make = (format: "pretty" | "json", write: (text: string) => void = batchedStdout()): RequestObserver => ({
  finished: (request, response, ms) => {
    const path = (request.url ?? "/").split("?", 1)[0]!
    if (quiet.has(path)) return
    const id = request.headers[requestIdHeader]
    const requestId = typeof id === "string" ? id : undefined
    write(line(format, { method: request.method ?? "GET", path, status: response.statusCode, ms, at: new Date(), requestId }))
  }
})
