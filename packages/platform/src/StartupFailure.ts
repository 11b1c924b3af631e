/**
 * A process that cannot start (no database, a port in use, a bad setting) says so in one line on
 * stderr and exits 1, without a stack trace: what an operator reads in `docker logs` or a terminal.
 */
import { Cause, Exit } from "effect"
import type { Runtime } from "effect"

interface ErrorLike {
  readonly message?: unknown
  readonly code?: unknown
  readonly cause?: unknown
  readonly reason?: unknown
}

/** The error and the errors it wraps (`cause`, `reason`), outermost first. */
const chainOf = (error: unknown): ReadonlyArray<ErrorLike> => {
  const chain: Array<ErrorLike> = []
  let current = error
  while (typeof current === "object" && current !== null && chain.length < 10 && !chain.includes(current as ErrorLike)) {
    chain.push(current as ErrorLike)
    const next = current as ErrorLike
    current = next.cause ?? next.reason
  }
  return chain
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim()

const messageOf = (error: ErrorLike): string => typeof error.message === "string" ? oneLine(error.message) : ""

/** `DATABASE_URL` without its password, to name the database an operator set. */
const shownUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "DATABASE_URL"
  }
}

/** What went wrong, in one line, from the cause of a failed start. */
export const describe = (cause: Cause.Cause<unknown>, databaseUrl: string | undefined = process.env["DATABASE_URL"]): string => {
  const reason = cause.reasons.find((r) => Cause.isFailReason(r) || Cause.isDieReason(r))
  if (reason === undefined) return "stopped before it started"
  const chain = chainOf(Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined)
  if (chain.length === 0) return "stopped before it started"

  const inUse = chain.find((error) => error.code === "EADDRINUSE")
  if (inUse !== undefined) {
    const address = /in use (\S+)/.exec(messageOf(inUse))?.[1] ?? "the address"
    return `${address} is already in use by another process; set PORT (or HOST) to a free one`
  }
  const denied = chain.find((error) => error.code === "EACCES" && messageOf(error).startsWith("listen"))
  if (denied !== undefined) return `${messageOf(denied)}: this user may not listen there; set PORT above 1023`

  const messages = chain.map(messageOf).filter((message) => message !== "")
  const connect = messages.find((message) => message.includes("Failed to connect"))
  if (connect !== undefined || chain.some((error) => error.code === "ECONNREFUSED" || error.code === "ENOTFOUND")) {
    const detail = connect === undefined
      ? messages[messages.length - 1] ?? "no answer"
      : /Failed to connect:?\s*(.*)$/.exec(connect)?.[1]?.trim() || (messages[messages.length - 1] ?? "no answer")
    const where = databaseUrl !== undefined && databaseUrl.trim() !== "" ? ` at ${shownUrl(databaseUrl)}` : ""
    return `cannot connect to the database${where}: ${detail === "PgConnection: Failed to connect" ? "no answer" : detail}`
  }
  return messages[0] ?? String(chain[0])
}

/**
 * A `runMain` teardown: an interruption (SIGTERM, SIGINT) exits 0; a failure prints
 * `<program>: cannot start: <what went wrong>` on stderr and exits 1.
 */
export const teardown = (program: string): Runtime.Teardown => (exit, onExit) => {
  if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return onExit(0)
  process.stderr.write(`${program}: cannot start: ${describe(exit.cause)}\n`)
  onExit(1)
}
