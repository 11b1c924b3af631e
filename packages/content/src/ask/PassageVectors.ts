/**
 * Port: the vectors an embedding model gave passages of the documentation, kept by the model's name
 * and the hash of the passage's text. A passage is embedded once per model, whichever space,
 * revision or site it is read in; Ask embeds what it has not seen and reads the rest from here
 * (AskEmbeddings.ts).
 */
import { Context, Effect, Layer } from "effect"

export interface StoredVector {
  readonly hash: string
  readonly vector: ReadonlyArray<number>
}

export interface PassageVectorsShape {
  /** The vectors stored for `hashes` under `model`, by hash (those never stored are absent). */
  readonly get: (model: string, hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, ReadonlyArray<number>>>
  /** Keeps `vectors` under `model`; a hash stored already keeps its vector. */
  readonly put: (model: string, vectors: ReadonlyArray<StoredVector>) => Effect.Effect<void>
}

export class PassageVectors extends Context.Service<PassageVectors, PassageVectorsShape>()("@quire/content/PassageVectors") {
  static readonly layerMemory = Layer.sync(PassageVectors)(() => {
    const stored = new Map<string, ReadonlyArray<number>>()
    const key = (model: string, hash: string) => `${model}\u0000${hash}`
    return PassageVectors.of({
      get: (model, hashes) =>
        Effect.sync(() => {
          const found = new Map<string, ReadonlyArray<number>>()
          for (const hash of hashes) {
            const vector = stored.get(key(model, hash))
            if (vector !== undefined) found.set(hash, vector)
          }
          return found
        }),
      put: (model, vectors) =>
        Effect.sync(() => {
          for (const { hash, vector } of vectors) if (!stored.has(key(model, hash))) stored.set(key(model, hash), [...vector])
        })
    })
  })
}
