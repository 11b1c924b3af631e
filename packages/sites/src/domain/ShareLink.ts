/** Share links: secrets that open a `share-link` site, shown again and revocable. */
import { Schema } from "effect"

export const ShareLinkName = Schema.String.check(Schema.isMaxLength(50))

export const ShareLink = Schema.Struct({
  id: Schema.String,
  siteId: Schema.String,
  name: Schema.String,
  active: Schema.Boolean,
  /**
   * Random, base64url of 32 bytes; in the published URL as `?share=<secret>`. Stored, it is the
   * secret's `Sealed.bearerHash` (the lookup key), and `sealedSecret` the secret sealed under the
   * instance secret (null: a link of an older Quire, still in clear until the next start).
   * The use cases answer links with the secret itself.
   */
  secret: Schema.String,
  sealedSecret: Schema.NullOr(Schema.String),
  createdAt: Schema.Date
})
export interface ShareLink extends Schema.Schema.Type<typeof ShareLink> {}
