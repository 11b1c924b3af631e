/**
 * One log line per request, when its answer is sent: method, path (its query left out: it may
 * carry a token), status and milliseconds, in the server's log format. Written straight to the
 * output at Node's `finish` event rather than through Effect's logger, which cost most of the
 * throughput when the router logged each request. `/health` is left out (probes poll it).
 */
import type { IncomingMessage, ServerResponse } from "node:http"

export type RequestObserver = (request: IncomingMessage, response: ServerResponse) => void

const quiet = new Set(["/health", "/v1/health"])

const pad = (n: number, width = 2) => String(n).padStart(width, "0")
const clock = (at: Date) => `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`

/** The line of a finished request, in `format` (`pretty`: the console logger's look; `json`: one object). */
export const line = (format: "pretty" | "json", entry: { method: string; path: string; status: number; ms: number; at: Date }): string => {
  const ms = Math.round(entry.ms * 10) / 10
  const level = entry.status >= 500 ? "ERROR" : "INFO"
  return format === "json"
    ? `${JSON.stringify({
      message: `${entry.method} ${entry.path} ${entry.status}`,
      logLevel: level,
      timestamp: entry.at.toISOString(),
      annotations: { method: entry.method, path: entry.path, status: entry.status, ms }
    })}\n`
    : `[${clock(entry.at)}] ${level} (http): ${entry.method} ${entry.path} ${entry.status} ${ms} ms\n`
}

/** An observer writing each request's line with `write` (standard output by default). */
export const make = (format: "pretty" | "json", write: (text: string) => void = (text) => void process.stdout.write(text)): RequestObserver =>
  (request, response) => {
    const path = (request.url ?? "/").split("?", 1)[0]!
    if (quiet.has(path)) return
    const started = performance.now()
    response.once("finish", () =>
      write(line(format, { method: request.method ?? "GET", path, status: response.statusCode, ms: performance.now() - started, at: new Date() })))
  }
