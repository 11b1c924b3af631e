/**
 * The one constant-time comparison of secrets (bearer tokens, share keys, webhook tokens, PKCE
 * verifiers): both sides are hashed first, so neither the time taken nor an early length check
 * says how much of a secret matched or how long it is.
 */
import { createHash, timingSafeEqual } from "node:crypto"

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest()

/** Whether `a` and `b` are the same string, compared in time that does not depend on where they differ. */
export const sameSecret = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b))
