/**
 * Each organization's budget of AI tokens, over the server's RateLimiter (in this process on the
 * embedded database, in PostgreSQL shared by replicas otherwise): `QUIRE_AI_TOKEN_BUDGET` tokens
 * per `QUIRE_AI_BUDGET_WINDOW` seconds (a day by default); 0, the default, sets none. A call is
 * refused once the organization has spent its budget, until the window renews; the call that
 * crosses it is answered (its cost is known only after).
 */
import { Config, Effect, Layer } from "effect"
import { type Budget, RateLimiter } from "@quire/gateway"
import { AiBudgetWords } from "@quire/kernel"
import { AiBudget, AiBudgetSpent } from "@quire/outbound"

export const AiBudgetSettings = Config.all({
  tokens: Config.Int("QUIRE_AI_TOKEN_BUDGET").pipe(Config.withDefault(0)),
  windowSeconds: Config.Int("QUIRE_AI_BUDGET_WINDOW").pipe(Config.withDefault(86_400))
})

/** How long `millis` is, in words. */
const renewsIn = (millis: number) => {
  const minutes = Math.max(1, Math.ceil(millis / 60_000))
  return minutes < 120 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${Math.ceil(minutes / 60)} hours`
}

export const layer = Layer.effect(
  AiBudget,
  Effect.gen(function*() {
    const settings = yield* Effect.orDie(AiBudgetSettings)
    if (settings.tokens <= 0) return AiBudget.unlimited
    const limiter = yield* RateLimiter
    const budget: Budget = { name: "ai-tokens", limit: settings.tokens, windowSeconds: Math.max(1, settings.windowSeconds) }
    const key = (organizationId: string) => `organization:${organizationId}`
    return AiBudget.of({
      check: (organizationId) =>
        Effect.flatMap(limiter.peek(key(organizationId), budget), (state) =>
          state.allowed ? Effect.void : Effect.fail(new AiBudgetSpent({
            organizationId,
            message: AiBudgetWords.spentMessage(settings.tokens, renewsIn(state.resetMs))
          }))),
      spend: (organizationId, tokens) => Effect.asVoid(limiter.consume(key(organizationId), budget, Math.ceil(tokens)))
    })
  })
)
