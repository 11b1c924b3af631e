/**
 * The mail identity sends, worded once: an email invitation with its own secret link, a link
 * that proves an email, and notices to the account's email. Built over outbound's Mailer and the
 * app's public URL (the server provides it); without it, nothing is delivered and the app shows
 * links to copy instead.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type Mail, Mailer } from "@quire/outbound"

/** A message whose links point into the app: built from the app's base URL (`https://docs.example.com`, no trailing slash). */
export type AppMessage = (appUrl: string) => Omit<Mail, "to">

export interface AccountMailShape {
  /** Whether mail reaches people: only then does a link prove that its reader owns the mailbox. */
  readonly delivers: boolean
  /** The invitation to `to`, with the link that accepts it (`/invite/<token>`). */
  readonly invitation: (to: string, input: { readonly organizationTitle: string; readonly token: string }) => Effect.Effect<boolean>
  /** The link that proves `to` (`/verify-email?token=<secret>`). */
  readonly verification: (to: string, secret: string) => Effect.Effect<boolean>
  /** A notice to the account's email (a password changed, the sign-in email changed). */
  readonly notice: (to: string, subject: string, text: string) => Effect.Effect<boolean>
  /** Any other message to `to` with links into the app (a notification). */
  readonly message: (to: string, message: AppMessage) => Effect.Effect<boolean>
}

const none: AccountMailShape = {
  delivers: false,
  invitation: () => Effect.succeed(false),
  verification: () => Effect.succeed(false),
  notice: () => Effect.succeed(false),
  message: () => Effect.succeed(false)
}

export class AccountMail extends Context.Service<AccountMail, AccountMailShape>()("@quire/identity/AccountMail") {
  /** Delivers nothing. */
  static readonly layerNone = Layer.succeed(AccountMail, AccountMail.of(none))

  /** Over the Mailer, with links to the app at `appUrl` (`https://docs.example.com`). */
  static readonly layer = (appUrl: string) =>
    Layer.effect(
      AccountMail,
      Effect.map(Effect.service(Mailer), (mailer) => {
        const base = appUrl.replace(/\/+$/, "")
        return AccountMail.of({
          delivers: mailer.delivers,
          invitation: (to, { organizationTitle, token }) =>
            mailer.send({
              to,
              subject: `You are invited to ${organizationTitle} on Quire`,
              text: `You are invited to join ${organizationTitle} on Quire.\n\nAccept the invitation here (the link is yours: ` +
                `it also confirms that this address is yours):\n${base}/invite/${token}\n\nIf you did not expect it, ignore this message.\n`
            }),
          verification: (to, secret) =>
            mailer.send({
              to,
              subject: "Confirm your email for Quire",
              text: `Confirm that ${to} is your email by opening this link (valid 24 hours):\n${base}/verify-email?token=${secret}\n\n` +
                `If you did not ask for it, ignore this message.\n`
            }),
          notice: (to, subject, text) => mailer.send({ to, subject, text }),
          message: (to, message) => mailer.send({ to, ...message(base) })
        })
      })
    )

  /** Over SMTP when `QUIRE_SMTP_URL` is set (from `QUIRE_SMTP_FROM`), else delivering nothing. */
  static readonly layerConfig = (appUrl: string) => AccountMail.layer(appUrl).pipe(Layer.provide(Mailer.layerConfig), Layer.orDie)
}

/** The AccountMail provided, else one that delivers nothing (an embedding without mail). */
export const accountMail: Effect.Effect<AccountMailShape> = Effect.map(
  Effect.serviceOption(AccountMail),
  Option.getOrElse(() => AccountMail.of(none))
)
