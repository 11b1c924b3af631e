/**
 * Errors every domain package shares. They carry no HTTP status: packages/api attaches
 * statuses and the `{"error":{"code","message"}}` envelope.
 */
import { Schema } from "effect"

/** The resource does not exist, or the caller may not learn that it does. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  resource: Schema.String,
  id: Schema.String
}) {
  override get message(): string {
    return `${this.resource} ${JSON.stringify(this.id)} not found`
  }
}

/** The caller can see the resource but their role does not allow the operation. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

/** The input is well-formed but breaks a business rule; `field` names the culprit when there is one. */
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  reason: Schema.String,
  field: Schema.optional(Schema.String)
}) {
  override get message(): string {
    return this.field === undefined ? this.reason : `${this.field}: ${this.reason}`
  }
}

/** The operation clashes with the current state (a duplicate, a concurrent change). */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}
