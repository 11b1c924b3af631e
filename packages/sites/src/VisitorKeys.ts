/**
 * Sites' visitor-auth signing keys at rest: sealed (kernel `Sealed`) under a key derived from the
 * instance secret, so that a dump alone signs no visitor token. GitBook's API answers the key to a
 * site's admins, so it is sealed rather than hashed. A key stored in clear by an older Quire is
 * still read, and `sealLegacy` seals every such key once, at start.
 */
import { Effect, Option } from "effect"
import { Sealed } from "@quire/kernel"
import type { SitesRepo } from "./SitesRepo.ts"

/** The purpose of the key that seals visitor keys. */
export const purpose = "quire/sites/visitor-key/v1"

/** A stored visitor key is sealed when it has `Sealed`'s form; a clear one (base64url) never contains a dot. */
const isSealed = (stored: string) => stored.includes(".")

export interface Box {
  readonly seal: (plain: string) => string
  /** The key, or none when it was sealed under another instance secret. */
  readonly open: (stored: string) => Option.Option<string>
}

/** The box under this process's instance secret. */
export const box: Effect.Effect<Box> = Effect.map(Sealed.keyFor(purpose), (key) => ({
  seal: (plain) => Sealed.seal(key, plain),
  open: (stored) => isSealed(stored) ? Sealed.open(key, stored) : Option.some(stored)
}))

/** Seals every visitor key stored in clear; answers how many. */
export const sealLegacy = (repo: SitesRepo["Service"], keys: Box) =>
  Effect.tap(
    repo.sealVisitorKeys((stored) => isSealed(stored) ? Option.none() : Option.some(keys.seal(stored))),
    (sealed) => sealed > 0 ? Effect.logInfo(`Sites: sealed ${sealed} visitor keys stored in clear`) : Effect.void
  )
