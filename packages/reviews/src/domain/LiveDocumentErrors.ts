/** Errors of live editing's stored documents. */
import { Schema } from "effect"

/**
 * A stored shared document the editor's codec cannot read (stored before live updates were checked
 * against the block schema, or by a bug): `reason` says what failed.
 */
export class UnreadableLiveDocument extends Schema.TaggedError<UnreadableLiveDocument>()("UnreadableLiveDocument", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}
