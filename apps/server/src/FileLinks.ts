/**
 * Signed, expiring download links of space files. A browser fetches a file's `downloadURL`
 * without the API token, so the URL itself carries the authority: which file (space, file id,
 * blob, content type, name) and until when, signed with HMAC-SHA256 under a key derived from
 * `QUIRE_SECRET` (or the secret the server keeps in its data directory: kernel `InstanceSecret`).
 * Without either (the memory server) the key is random, and links end with the process.
 */
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import * as InstanceSecret from "@quire/kernel/InstanceSecret"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { FileNode } from "@quire/content"
import { PublicUrl } from "./PublicUrl.ts"

/** What a valid link grants: the bytes of one blob, served as one file. */
export interface FileLink {
  readonly spaceId: string
  readonly fileId: string
  readonly blob: string
  readonly contentType: string
  readonly name: string
  /** Seconds since the epoch. */
  readonly expires: number
}

/**
 * What a link is signed for: a space file, or any blob served under a name and content type (a
 * rendered PDF); `id` names what the blob is (a file id, or e.g. `change-request-pdf:<id>`).
 */
export type SignedBlob = Pick<FileNode, "id" | "blob" | "contentType" | "name">

const hour = 3600

/** The path of the download route; the token follows. */
export const routePrefix = "/files/"

/**
 * When links signed at `nowSeconds` expire: the end of the next full hour, so that a link is valid
 * for one to two hours and stays the same for an hour (browsers and proxies can cache it).
 */
export const expiryOf = (nowSeconds: number): number => (Math.floor(nowSeconds / hour) + 2) * hour

/** The token of a link: `<payload>.<signature>`, both base64url. */
export const sign = (key: Buffer, link: FileLink): string => {
  const payload = Buffer.from(JSON.stringify([link.spaceId, link.fileId, link.blob, link.contentType, link.name, link.expires]))
    .toString("base64url")
  return `${payload}.${createHmac("sha256", key).update(payload).digest("base64url")}`
}

/** The link a token grants, if its signature holds and it has not expired. */
export const verify = (key: Buffer, token: string, nowSeconds: number): Option.Option<FileLink> => {
  const [payload, signature, ...rest] = token.split(".")
  if (payload === undefined || signature === undefined || rest.length > 0) return Option.none()
  const expected = createHmac("sha256", key).update(payload).digest()
  const given = Buffer.from(signature, "base64url")
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return Option.none()
  const fields = Option.liftThrowable((): unknown => JSON.parse(Buffer.from(payload, "base64url").toString("utf8")))().pipe(
    Option.getOrUndefined
  )
  if (!Array.isArray(fields) || fields.length !== 6) return Option.none()
  const [spaceId, fileId, blob, contentType, name, expires] = fields as Array<unknown>
  if (
    typeof spaceId !== "string" || typeof fileId !== "string" || typeof blob !== "string" ||
    typeof contentType !== "string" || typeof name !== "string" || typeof expires !== "number"
  ) return Option.none()
  return expires > nowSeconds ? Option.some({ spaceId, fileId, blob, contentType, name, expires }) : Option.none()
}

/** The signing key of file links: derived from `secret`, so that it signs nothing else. */
export const deriveKey = (secret: string): Buffer => createHmac("sha256", secret).update("quire/file-links/v1").digest()

export class FileLinks extends Context.Service<FileLinks, {
  /** A function that signs download URLs of a space's files (or other blobs), valid for at least an hour from now. */
  readonly signer: Effect.Effect<(spaceId: string, file: SignedBlob) => string>
  /** The link a token grants; none when forged, altered or expired. */
  readonly verify: (token: string) => Effect.Effect<Option.Option<FileLink>>
}>()("@quire/server/FileLinks") {
  static readonly make = (key: Buffer) =>
    Effect.map(Effect.service(PublicUrl), (urls) =>
      FileLinks.of({
        signer: Effect.map(Clock.currentTimeMillis, (ms) => {
          const expires = expiryOf(Math.floor(ms / 1000))
          return (spaceId, file) =>
            urls.app(`${routePrefix}${sign(key, {
              spaceId,
              fileId: file.id,
              blob: file.blob,
              contentType: file.contentType,
              name: file.name,
              expires
            })}`)
        }),
        verify: (token) => Effect.map(Clock.currentTimeMillis, (ms) => verify(key, token, Math.floor(ms / 1000)))
      }))

  /** The key from the instance secret (`InstanceSecret`); without one, a random key for this process. */
  static readonly layer = Layer.effect(
    FileLinks,
    Effect.gen(function*() {
      const configured = yield* InstanceSecret.configured
      const key = Option.match(configured, {
        onNone: () => randomBytes(32),
        onSome: (secret) => deriveKey(Redacted.value(secret))
      })
      return yield* FileLinks.make(key)
    }).pipe(Effect.orDie)
  )
}
