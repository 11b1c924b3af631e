/**
 * Ask's sense of meaning: an embedding model's vectors of the question and of the passages found by
 * full-text search, compared by cosine (Retrieval's `Similarity`). Passages are embedded once per
 * model and kept (PassageVectors), so a question embeds only what no earlier one did. The model is
 * effect's EmbeddingModel over the AI endpoint's `/embeddings` (`QUIRE_AI_MODEL_EMBEDDINGS`, e.g.
 * Ollama's `nomic-embed-text`); without one, or when it fails, Ask ranks by words alone and says so
 * in the log, never to the reader.
 */
import { Config, Context, Effect, Layer, Option } from "effect"
import { EmbeddingModel } from "effect/ai"
import { createHash } from "node:crypto"
import { OpenAiCompatible } from "@quire/outbound"
import { PassageVectors } from "./PassageVectors.ts"
import type { Similarity } from "./Retrieval.ts"

export interface AskEmbeddingsShape {
  /** The embedding model's name, when there is one. */
  readonly model: Option.Option<string>
  readonly similarity: Similarity
}

/** Texts embedded for one question at most (the passages of Retrieval's most promising pages are fewer). */
const maxTexts = 600

/** The cosine similarity of two vectors (0 when either is empty or their lengths differ). */
export const cosine = (x: ReadonlyArray<number>, y: ReadonlyArray<number>): number => {
  if (x.length === 0 || x.length !== y.length) return 0
  let dot = 0
  let xx = 0
  let yy = 0
  for (let i = 0; i < x.length; i++) {
    dot += x[i]! * y[i]!
    xx += x[i]! * x[i]!
    yy += y[i]! * y[i]!
  }
  return xx === 0 || yy === 0 ? 0 : dot / Math.sqrt(xx * yy)
}

const hashOf = (text: string) => createHash("sha256").update(text).digest("base64url")

export class AskEmbeddings extends Context.Service<AskEmbeddings, AskEmbeddingsShape>()("@quire/content/AskEmbeddings") {
  /** No embedding model: words alone. */
  static readonly none: AskEmbeddingsShape = { model: Option.none(), similarity: () => Effect.succeed(undefined) }
  static readonly layerNone = Layer.succeed(AskEmbeddings)(AskEmbeddings.none)

  /** Over the EmbeddingModel provided, named `model`, keeping vectors in PassageVectors. */
  static readonly layer = (model: string) =>
    Layer.effect(
      AskEmbeddings,
      Effect.gen(function*() {
        const embedder = yield* EmbeddingModel.EmbeddingModel
        const stored = yield* PassageVectors
        let warned = false
        const similarity: Similarity = (question, texts) =>
          Effect.gen(function*() {
            const weighed = texts.slice(0, maxTexts)
            const hashes = weighed.map(hashOf)
            const known = new Map(yield* stored.get(model, [...new Set(hashes)]))
            const missing = [...new Set(hashes.filter((hash) => !known.has(hash)))]
            const textOf = new Map(hashes.map((hash, i) => [hash, weighed[i]!]))
            const embedded = yield* embedder.embedMany([question, ...missing.map((hash) => textOf.get(hash)!)])
            const [asked, ...fresh] = embedded.embeddings.map((e) => e.vector)
            if (asked === undefined || fresh.length !== missing.length) return undefined
            const kept = missing.map((hash, i) => ({ hash, vector: fresh[i]! }))
            for (const { hash, vector } of kept) known.set(hash, vector)
            if (kept.length > 0) yield* stored.put(model, kept)
            return texts.map((_, i) => (i < weighed.length ? cosine(asked, known.get(hashes[i]!) ?? []) : 0))
          }).pipe(
            Effect.catch((error) =>
              Effect.gen(function*() {
                if (!warned) yield* Effect.logWarning(`Ask ranks by words alone: the embedding model ${model} did not answer (${error.message})`)
                warned = true
                return undefined
              })
            )
          )
        return AskEmbeddings.of({ model: Option.some(model), similarity })
      })
    )

  /** From the environment: the AI endpoint's embedding model when `QUIRE_AI_URL` and `QUIRE_AI_MODEL_EMBEDDINGS` are set, none otherwise. */
  static readonly layerConfig = Layer.unwrap(
    Effect.gen(function*() {
      const url = yield* Config.String("QUIRE_AI_URL").pipe(Config.option)
      const model = yield* Config.String("QUIRE_AI_MODEL_EMBEDDINGS").pipe(Config.option)
      if (Option.isNone(url) || url.value.trim() === "" || Option.isNone(model) || model.value.trim() === "") return AskEmbeddings.layerNone
      const key = yield* Config.String("QUIRE_AI_KEY").pipe(Config.option)
      // A question waits on it: few retries, a short limit.
      return AskEmbeddings.layer(model.value.trim()).pipe(
        Layer.provide(OpenAiCompatible.embeddingLayer({ url: url.value, model: model.value.trim(), key: Option.getOrUndefined(key), retries: 1, timeoutMillis: 30_000 }))
      )
    }).pipe(Effect.orDie)
  )
}
