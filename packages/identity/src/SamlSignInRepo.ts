/**
 * Port: what SAML sign-in must remember across requests and replicas: the ids it has consumed
 * (assertions, one-time codes) until they expire, and the installation's SP signing key (as
 * `SamlSpKey` stores it: sealed; an older Quire stored it in clear).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"

export interface SamlSignInRepoShape {
  /** Records `id` as used until `expiresAt`; false when it was already recorded (a replay). */
  readonly consumeOnce: (id: string, expiresAt: Date, now: Date) => Effect.Effect<boolean>
  /** Remembers the id of an AuthnRequest sent, until `expiresAt`. */
  readonly saveRequest: (id: string, expiresAt: Date) => Effect.Effect<void>
  /** When the unexpired AuthnRequest with this id expires; none when there is none. */
  readonly findRequest: (id: string, now: Date) => Effect.Effect<Option.Option<Date>>
  /** Forgets an AuthnRequest id (answered). */
  readonly removeRequest: (id: string) => Effect.Effect<void>
  /** The stored SP private key; `candidate` is stored first when there is none yet. */
  readonly spKey: (candidate: string) => Effect.Effect<string>
  /** Replaces the stored SP key by `reseal(stored)` when that is some, in one step; whether it did. */
  readonly resealSpKey: (reseal: (stored: string) => Option.Option<string>) => Effect.Effect<boolean>
}

export class SamlSignInRepo extends Context.Service<SamlSignInRepo, SamlSignInRepoShape>()(
  "@quire/identity/SamlSignInRepo"
) {
  static readonly layerMemory = Layer.sync(SamlSignInRepo, () => {
    const consumed = new MemoryStore.TxMap<string, Date>()
    const key = new MemoryStore.TxRef<string | undefined>(undefined)
    const requests = new MemoryStore.TxMap<string, Date>()
    return SamlSignInRepo.of({
      saveRequest: (id, expiresAt) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.sync(() => {
            for (const [old, expiry] of requests) if (expiry.getTime() <= now) requests.delete(old)
            requests.set(id, expiresAt)
          })),
      findRequest: (id, now) =>
        Effect.sync(() => Option.filter(Option.fromNullishOr(requests.get(id)), (expiry) => expiry > now)),
      removeRequest: (id) => Effect.sync(() => void requests.delete(id)),
      consumeOnce: (id, expiresAt, now) =>
        Effect.sync(() => {
          for (const [old, expiry] of consumed) if (expiry <= now) consumed.delete(old)
          if (consumed.has(id)) return false
          consumed.set(id, expiresAt)
          return true
        }),
      spKey: (candidate) =>
        Effect.sync(() => {
          const stored = key.get()
          if (stored !== undefined) return stored
          key.set(candidate)
          return candidate
        }),
      resealSpKey: (reseal) =>
        Effect.sync(() => {
          const stored = key.get()
          const next = stored === undefined ? Option.none() : reseal(stored)
          if (Option.isSome(next)) key.set(next.value)
          return Option.isSome(next)
        })
    })
  })
}
