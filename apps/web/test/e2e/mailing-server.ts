/**
 * A server of the file's own that mails through a real SMTP server the file starts (smtp-server,
 * `@quire/testkit/SmtpInbox`), both started before the file's tests and stopped after them.
 */
import { afterAll, beforeAll } from "vitest"
import * as SmtpInbox from "@quire/testkit/SmtpInbox"
import { type RunningServer, startServer } from "./servers.ts"

export interface MailingServer {
  /** The server's URL. */
  readonly url: () => string
  /** The inbox the server mails to. */
  readonly inbox: () => SmtpInbox.SmtpInbox
}

/** Registers the file's hooks; `ready` runs once the server is up (setting up its administrator, say). */
export const mailingServer = (ready: (url: string) => Promise<unknown> = async () => undefined): MailingServer => {
  let smtp: SmtpInbox.SmtpInbox | undefined
  let server: RunningServer | undefined
  beforeAll(async () => {
    smtp = await SmtpInbox.start()
    server = await startServer({ QUIRE_SMTP_URL: smtp.url, QUIRE_SMTP_FROM: "Quire <quire@quire.test>" })
    await ready(server.url)
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })
  return { url: () => server!.url, inbox: () => smtp! }
}
