/**
 * A real SMTP server for tests (smtp-server) on a free loopback port, and the messages it
 * received: whom from, to whom, and their raw text. A subpath export (`@quire/testkit/SmtpInbox`)
 * so that only the packages that send mail load smtp-server.
 */
import { Effect } from "effect"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

/** A message as the server received it: the envelope's sender and recipients, and the raw text. */
export interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

export interface SmtpInbox {
  readonly port: number
  /** `smtp://127.0.0.1:<port>`, for QUIRE_SMTP_URL. */
  readonly url: string
  /** The messages received so far, oldest first. */
  readonly received: ReadonlyArray<Received>
  /**
   * The newest message received that matches `predicate`, or the first one to come that does,
   * within `timeout` ms (10 s unless told); past it, fails with `describe()` in the message.
   */
  readonly waitFor: (predicate: (message: Received) => boolean, options?: { readonly timeout?: number; readonly describe?: () => string }) => Promise<Received>
  /** The link, matching `path`, of the newest message to `to` that has one, waiting as `waitFor` does. */
  readonly linkMailedTo: (to: string, path: RegExp, options?: { readonly timeout?: number; readonly describe?: () => string }) => Promise<URL>
  readonly close: () => Promise<void>
}

/** Starts a server on 127.0.0.1 (no authentication, no STARTTLS). */
export const start = async (): Promise<SmtpInbox> => {
  const received: Array<Received> = []
  const waiters = new Set<(message: Received) => void>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = ""
      stream.setEncoding("utf8")
      stream.on("data", (chunk: string) => (raw += chunk))
      stream.on("end", () => {
        const message = {
          from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw
        }
        received.push(message)
        for (const waiter of waiters) waiter(message)
        callback()
      })
    }
  })
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  const waitFor: SmtpInbox["waitFor"] = (predicate, options) => {
    const found = received.findLast(predicate)
    if (found !== undefined) return Promise.resolve(found)
    return new Promise<Received>((resolve, reject) => {
      const waiter = (message: Received) => {
        if (!predicate(message)) return
        clearTimeout(timer)
        waiters.delete(waiter)
        resolve(message)
      }
      const timer = setTimeout(() => {
        waiters.delete(waiter)
        const seen = received.map((message) => message.to.join(",")).join("; ")
        reject(new Error(`No matching mail within ${options?.timeout ?? 10_000} ms${options?.describe === undefined ? "" : `: ${options.describe()}`} (received to: ${seen})`))
      }, options?.timeout ?? 10_000)
      waiters.add(waiter)
    })
  }
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor,
    linkMailedTo: async (to, path, options) => {
      const message = await waitFor((message) => message.to.includes(to) && linkIn(message, path) !== undefined, {
        ...options,
        describe: () => `to ${to} with a link to ${path}${options?.describe === undefined ? "" : `\n${options.describe()}`}`
      })
      return linkIn(message, path)!
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** `start` for an Effect test: the server closes with the scope. */
export const scoped = Effect.acquireRelease(Effect.promise(start), (inbox) => Effect.promise(inbox.close))

/** A message's text, quoted-printable undone (its escaped bytes read as UTF-8, as nodemailer writes them). */
export const textOf = (raw: string): string =>
  raw.replace(/=\r?\n/g, "").replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replaceAll("=", ""), "hex").toString("utf8"))

/** The first link in a message's text whose URL matches `path`. */
export const linkIn = (message: Received, path: RegExp): URL | undefined => {
  const link = new RegExp(`https?://[^\\s]*${path.source}[^\\s]*`).exec(textOf(message.raw))
  return link === null ? undefined : new URL(link[0])
}
