/** Identifier generation: random, URL-safe ids shaped like GitBook's (`^[a-zA-Z0-9_-]+$`). */
import { Context, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** A random base62 string of `length` characters (rejection sampling keeps it unbiased). */
export const randomId = (length = 20): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += alphabet[byte % 62]
    }
  }
  return out
}

/** Issues new ids. A service so that tests can make them predictable. */
export class Ids extends Context.Service<Ids, {
  readonly make: Effect.Effect<string>
}>()("@quire/kernel/Ids") {
  static readonly layer = Layer.succeed(Ids, Ids.of({ make: Effect.sync(() => randomId()) }))

  /** Sequential ids (`id0001`, `id0002`, ...) for tests that compare output. */
  static readonly layerTest = Layer.sync(Ids, () => {
    let n = 0
    return Ids.of({ make: Effect.sync(() => `id${String(++n).padStart(4, "0")}`) })
  })
}
