/**
 * The agent's model from the environment: `QUIRE_AI_URL` (an OpenAI-compatible endpoint: OpenAI,
 * Ollama, vLLM…), `QUIRE_AI_KEY`, and the model's name, `QUIRE_AI_MODEL_AGENT` or else
 * `QUIRE_AI_MODEL`; none when the URL is unset (the agent then says how to set one).
 */
import { Config, Effect, Layer, Option } from "effect"
import { OpenAiCompatible } from "@quire/outbound"
import { AgentModel } from "@quire/reviews"

export const layer = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.String("QUIRE_AI_URL").pipe(Config.option)
    if (Option.isNone(url) || url.value.trim() === "") return AgentModel.layerNone
    const general = yield* Config.String("QUIRE_AI_MODEL").pipe(Config.withDefault("gpt-4o-mini"))
    const model = yield* Config.String("QUIRE_AI_MODEL_AGENT").pipe(Config.withDefault(general))
    const key = yield* Config.String("QUIRE_AI_KEY").pipe(Config.option)
    return AgentModel.layerFrom(OpenAiCompatible.layer({ url: url.value, model, key: Option.getOrUndefined(key), retries: 2, timeoutMillis: 120_000 }))
  }).pipe(Effect.orDie)
)
