/**
 * The Mailer: through nodemailer to a real SMTP server the test starts (smtp-server), which
 * receives the message as sent; without QUIRE_SMTP_URL nothing is delivered; a server that
 * cannot be reached makes `send` answer false rather than fail.
 */
import { assert, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as SmtpInbox from "@quire/testkit/SmtpInbox"
import { Mailer } from "../src/Mailer.ts"

const withSettings = (settings: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromUnknown(settings))

it.live("sends through QUIRE_SMTP_URL from QUIRE_SMTP_FROM, as the SMTP server receives it", () =>
  Effect.scoped(Effect.gen(function*() {
    const { url, received } = yield* SmtpInbox.scoped
    const sent = yield* Effect.gen(function*() {
      const mailer = yield* Mailer
      assert.isTrue(mailer.delivers)
      return yield* mailer.send({ to: "ada@example.com", subject: "Hello from Quire", text: "Open https://quire.test/verify-email?token=abc\n" })
    }).pipe(Effect.provide(Mailer.layerConfig.pipe(Layer.provide(withSettings({ QUIRE_SMTP_URL: url, QUIRE_SMTP_FROM: "Quire <quire@quire.test>" })))))
    assert.isTrue(sent)
    assert.strictEqual(received.length, 1)
    assert.strictEqual(received[0]!.from, "quire@quire.test")
    assert.deepStrictEqual(received[0]!.to, ["ada@example.com"])
    assert.include(received[0]!.raw, "Subject: Hello from Quire")
    assert.include(received[0]!.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "="), "https://quire.test/verify-email?token=abc")
  })))

it.live("delivers nothing without QUIRE_SMTP_URL, and answers false when the server cannot be reached", () =>
  Effect.gen(function*() {
    const none = yield* Effect.provide(Effect.service(Mailer), Mailer.layerConfig.pipe(Layer.provide(withSettings({}))))
    assert.isFalse(none.delivers)
    assert.isFalse(yield* none.send({ to: "ada@example.com", subject: "s", text: "t" }))
    const unreachable = yield* Effect.scoped(Effect.gen(function*() {
      const mailer = yield* Mailer
      return yield* mailer.send({ to: "ada@example.com", subject: "s", text: "t" })
    }).pipe(Effect.provide(Mailer.layerSmtp("smtp://127.0.0.1:1", "quire@quire.test"))))
    assert.isFalse(unreachable)
  }))
