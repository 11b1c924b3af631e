/** API token secrets: generation and the one-way hash under which they are stored. */
import { hash } from "node:crypto"
import { Ids } from "@quire/kernel"

/**
 * A new secret: `quire_pat_` and 40 random base62 characters (about 238 bits). The prefix lets
 * secret scanners recognise a leaked token; tokens issued before it (`quire_...`) keep working.
 */
export const generateSecret = (): string => `quire_pat_${Ids.randomId(40)}`

/**
 * Tokens are high-entropy random secrets, so one SHA-256 suffices (as for GitHub's tokens). The
 * rate limits key a token's budget by the same hash. `hash` is Node's one-shot digest: no Hash
 * object per call, as every API request hashes its token.
 */
export const hashSecret = (secret: string): string => hash("sha256", secret, "hex")
