/**
 * What an organization may spend on the AI endpoint: a budget of tokens per window, counted for
 * every call of a model made on the organization's behalf (Ask's answers, the agent's turns). The
 * caller names the organization with `AiOrganization` around its model calls; the model adapters
 * (OpenAiCompatible's LanguageModel, ChatCompletions' Ask model) check the budget before a call and
 * spend the tokens the endpoint says it used (or about a token per four characters when it does
 * not say). A call for no organization, or with no budget provided, is not counted.
 */
import { Context, Data, Effect, Layer } from "effect"

/** The organization's budget is spent; `message` says how much and when it renews. */
export class AiBudgetSpent extends Data.TaggedError("AiBudgetSpent")<{ readonly organizationId: string; readonly message: string }> {}

export interface AiBudgetShape {
  /** Refuses when the organization has spent its budget. */
  readonly check: (organizationId: string) => Effect.Effect<void, AiBudgetSpent>
  /** Counts `tokens` the organization spent. */
  readonly spend: (organizationId: string, tokens: number) => Effect.Effect<void>
}

export class AiBudget extends Context.Service<AiBudget, AiBudgetShape>()("@quire/outbound/AiBudget") {
  /** No budget: nothing is refused or counted. */
  static readonly unlimited: AiBudgetShape = { check: () => Effect.void, spend: () => Effect.void }
  static readonly layerUnlimited = Layer.succeed(AiBudget)(AiBudget.unlimited)
}

/** The organization the model calls of the enclosed effect are made for (none: not counted). */
export const AiOrganization = Context.Reference<string | undefined>("@quire/outbound/AiOrganization", { defaultValue: () => undefined })

/** `effect`'s model calls counted against `organizationId`'s budget. */
export const forOrganization = (organizationId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, AiOrganization, organizationId)

/** About how many tokens `characters` characters are, when an endpoint does not say. */
export const estimatedTokens = (characters: number): number => Math.ceil(characters / 4)

/** The budget's check for the organization of the current call, if any. */
export const checkCurrent = (budget: AiBudgetShape | undefined) =>
  Effect.flatMap(Effect.service(AiOrganization), (organizationId) =>
    budget === undefined || organizationId === undefined ? Effect.void : budget.check(organizationId))

/** Spends `tokens` for the organization of the current call, if any. */
export const spendCurrent = (budget: AiBudgetShape | undefined, tokens: number) =>
  Effect.flatMap(Effect.service(AiOrganization), (organizationId) =>
    budget === undefined || organizationId === undefined || !(tokens > 0) ? Effect.void : budget.spend(organizationId, tokens))
