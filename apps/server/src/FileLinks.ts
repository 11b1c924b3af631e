/**
 * Signed, expiring download links of space files. A browser fetches a file's `downloadURL`
 * without the API token, so the URL itself carries the authority: which file (space, file id,
 * blob, content type, name) and until when, as a kernel `SignedToken` of the purpose `file-links`
 * (its key derived from `QUIRE_SECRET`, or the secret the server keeps in its data directory).
 * Without either (the memory server) the key is the process's, and links end with it.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import { SignedToken } from "@quire/kernel"
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

/** What a link's token carries, besides its expiry. */
const Grant = Schema.Struct({ spaceId: Schema.String, fileId: Schema.String, blob: Schema.String, contentType: Schema.String, name: Schema.String })

/** The token of a link: a `SignedToken` of the file links' key. */
export const sign = (key: SignedToken.Key, { expires, ...grant }: FileLink): string =>
  SignedToken.sign(key, Grant, grant, { expiresAt: expires })

/** The link a token grants, if its signature holds and it has not expired. */
export const verify = (key: SignedToken.Key, token: string, nowSeconds: number): Option.Option<FileLink> =>
  Option.flatMap(SignedToken.verify(key, Grant, token, nowSeconds), ({ expiresAt, value }) =>
    expiresAt === undefined ? Option.none() : Option.some({ ...value, expires: expiresAt }))

const purpose = "file-links"

/** The signing key of file links: derived from `secret`, so that it signs nothing else. */
export const deriveKey = (secret: string): SignedToken.Key => SignedToken.deriveKey(secret, purpose)

export class FileLinks extends Context.Service<FileLinks, {
  /** A function that signs download URLs of a space's files (or other blobs), valid for at least an hour from now. */
  readonly signer: Effect.Effect<(spaceId: string, file: SignedBlob) => string>
  /** The link a token grants; none when forged, altered or expired. */
  readonly verify: (token: string) => Effect.Effect<Option.Option<FileLink>>
}>()("@quire/server/FileLinks") {
  static readonly make = (key: SignedToken.Key) =>
    Effect.map(Effect.service(PublicUrl), (urls) =>
      FileLinks.of({
        signer: Effect.map(SignedToken.nowSeconds, (now) => {
          const expires = expiryOf(now)
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
        verify: (token) => Effect.map(SignedToken.nowSeconds, (now) => verify(key, token, now))
      }))

  /** The key from the instance secret (`SignedToken.keyFor`); without one, the process's. */
  static readonly layer = Layer.effect(FileLinks, Effect.flatMap(SignedToken.keyFor(purpose), FileLinks.make))
}
