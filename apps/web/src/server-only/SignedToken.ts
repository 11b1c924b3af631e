/**
 * Stands in for `@quire/kernel`'s SignedToken.ts in the browser build (vite.config.ts): the API
 * contract's modules reach the kernel, whose signed tokens (Node's Buffer and HMAC, run as the
 * module loads) only the server makes. Same names; calling one in the browser is a bug and says so.
 */
import { Effect } from "effect"

export interface Key {
  readonly _tag: "SignedToken.Key"
  readonly purpose: string
}

const serverOnly = (name: string): never => {
  throw new Error(`SignedToken.${name} is server-only and was called in the browser`)
}

export const deriveKey = (...[, purpose]: readonly [secret: string, purpose: string]): Key => ({ _tag: "SignedToken.Key", purpose })
export const processKey = (purpose: string): Key => ({ _tag: "SignedToken.Key", purpose })
export const keyFor = (purpose: string): Effect.Effect<Key> => Effect.succeed(processKey(purpose))
export const sign = (): string => serverOnly("sign")
export const verify = (): never => serverOnly("verify")
export const nowSeconds: Effect.Effect<number> = Effect.sync(() => Math.floor(Date.now() / 1000))
export const issue = (): never => serverOnly("issue")
export const open = (): never => serverOnly("open")
