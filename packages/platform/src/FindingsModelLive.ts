/**
 * The model of a site's scans (outdated and incorrect pages, topic names) from the environment:
 * `QUIRE_AI_URL` (an OpenAI-compatible endpoint), `QUIRE_AI_KEY`, and the model's name,
 * `QUIRE_AI_MODEL_FINDINGS` or else `QUIRE_AI_MODEL`; none when the URL is unset (scans still find
 * what the docs do not answer).
 */
import { Config, Effect, Layer, Option } from "effect"
import { OpenAiCompatible } from "@quire/outbound"
import { FindingsModel } from "@quire/sites"
import * as AiBudgetLive from "./AiBudgetLive.ts"
import * as AiLogLive from "./AiLogLive.ts"

export const layer = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.String("QUIRE_AI_URL").pipe(Config.option)
    if (Option.isNone(url) || url.value.trim() === "") return FindingsModel.layerNone
    const general = yield* Config.String("QUIRE_AI_MODEL").pipe(Config.withDefault("gpt-4o-mini"))
    const model = yield* Config.String("QUIRE_AI_MODEL_FINDINGS").pipe(Config.withDefault(general))
    const key = yield* Config.String("QUIRE_AI_KEY").pipe(Config.option)
    // Its calls spend the organization's AI budget (QUIRE_AI_TOKEN_BUDGET).
    return FindingsModel.layerFrom(OpenAiCompatible.layer({ url: url.value, model, key: Option.getOrUndefined(key), retries: 2, timeoutMillis: 120_000 }).pipe(Layer.provide([AiBudgetLive.layer, AiLogLive.layer])))
  }).pipe(Effect.orDie)
)
