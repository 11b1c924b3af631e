/**
 * Mail that Quire sends (invitations, email verification, notices of a changed password or sign-in
 * email): a port with a layer that sends nothing (no SMTP: the app shows links to copy instead),
 * a memory layer that tests read, and SMTP through nodemailer (`QUIRE_SMTP_URL`, `QUIRE_SMTP_FROM`).
 */
import { Config, Context, Effect, Layer, Option, Redacted, Ref } from "effect"
import nodemailer from "nodemailer"

/** One message to one address: plain text, and the same as simple HTML when the sender has it. */
export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html?: string | undefined
}

export interface MailerShape {
  /** Whether mail is delivered: without it, links are shown for someone to pass on. */
  readonly delivers: boolean
  /**
   * Sends `mail`; answers whether it was handed to the server. A failure is logged, never raised:
   * what asked for it (an invitation, a password change) has happened either way.
   */
  readonly send: (mail: Mail) => Effect.Effect<boolean>
}

/** `QUIRE_SMTP_URL` (`smtp://user:pass@host:587`, `smtps://...`) and `QUIRE_SMTP_FROM` (`Quire <quire@example.com>`). */
export const SmtpConfig = Config.all({
  url: Config.option(Config.Redacted("QUIRE_SMTP_URL")),
  from: Config.String("QUIRE_SMTP_FROM").pipe(Config.withDefault("Quire <quire@localhost>"))
})

export class Mailer extends Context.Service<Mailer, MailerShape>()("@quire/outbound/Mailer") {
  /** Delivers nothing. */
  static readonly layerNone = Layer.succeed(Mailer, Mailer.of({ delivers: false, send: () => Effect.succeed(false) }))

  /** SMTP through nodemailer, to the server at `url`, from `from`. */
  static readonly layerSmtp = (url: string, from: string) =>
    Layer.effect(
      Mailer,
      Effect.gen(function*() {
        const transport = yield* Effect.acquireRelease(
          Effect.sync(() => nodemailer.createTransport(url)),
          (t) => Effect.sync(() => t.close())
        )
        return Mailer.of({
          delivers: true,
          send: (mail) =>
            Effect.tryPromise(() => transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html === undefined ? {} : { html: mail.html }) })).pipe(
              Effect.as(true),
              Effect.catch((error) => Effect.as(Effect.logWarning(`Could not send "${mail.subject}" to ${mail.to}`, error), false)),
              Effect.withSpan("Mailer.send")
            )
        })
      })
    )

  /** SMTP when `QUIRE_SMTP_URL` is set, else nothing delivered. */
  static readonly layerConfig: Layer.Layer<Mailer, Config.ConfigError> = Layer.unwrap(
    Effect.map(SmtpConfig, ({ from, url }) =>
      Option.match(url, { onNone: () => Mailer.layerNone, onSome: (u) => Mailer.layerSmtp(Redacted.value(u), from) }))
  )
}

/** The memory mailer's outbox, for tests to read. */
export class Outbox extends Context.Service<Outbox, {
  readonly sent: Effect.Effect<ReadonlyArray<Mail>>
}>()("@quire/outbound/Outbox") {}

/** A mailer that keeps what it sends (and delivers, for the flows that need mail), with its `Outbox`. */
export const layerMemory: Layer.Layer<Mailer | Outbox> = Layer.effectContext(
  Effect.gen(function*() {
    const sent = yield* Ref.make<ReadonlyArray<Mail>>([])
    return Context.make(Mailer, Mailer.of({ delivers: true, send: (mail) => Effect.as(Ref.update(sent, (all) => [...all, mail]), true) })).pipe(
      Context.add(Outbox, Outbox.of({ sent: Ref.get(sent) }))
    )
  })
)
