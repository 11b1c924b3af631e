/**
 * The style guide check's model from the environment: `QUIRE_AI_URL` (an OpenAI-compatible
 * endpoint), `QUIRE_AI_KEY`, and the model's name, `QUIRE_AI_MODEL_STYLE` or else `QUIRE_AI_MODEL`;
 * none when the URL is unset (the rules that need no model still run).
 */
import { Config, Effect, Layer, Option } from "effect"
import { OpenAiCompatible } from "@quire/outbound"
import { StyleguideModel } from "@quire/sites"
import * as AiBudgetLive from "./AiBudgetLive.ts"
import * as AiLogLive from "./AiLogLive.ts"

export const layer = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.String("QUIRE_AI_URL").pipe(Config.option)
    if (Option.isNone(url) || url.value.trim() === "") return StyleguideModel.layerNone
    const general = yield* Config.String("QUIRE_AI_MODEL").pipe(Config.withDefault("gpt-4o-mini"))
    const model = yield* Config.String("QUIRE_AI_MODEL_STYLE").pipe(Config.withDefault(general))
    const key = yield* Config.String("QUIRE_AI_KEY").pipe(Config.option)
    // Its checks spend the organization's AI budget (QUIRE_AI_TOKEN_BUDGET).
    return StyleguideModel.layerFrom(OpenAiCompatible.layer({ url: url.value, model, key: Option.getOrUndefined(key), retries: 2, timeoutMillis: 120_000 }).pipe(Layer.provide([AiBudgetLive.layer, AiLogLive.layer])))
  }).pipe(Effect.orDie)
)
