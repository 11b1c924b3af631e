/**
 * The error answers of the API. Every error body is `{"error":{"code":<status>,"message":"..."}}`,
 * the shape GitBook's API uses, so GitBook's client reports our messages. A refusal of one field
 * also names it, `"field":"members[0].role"` (the path as the message writes it), so that a client
 * shows the words beside that field without reading them; GitBook's client ignores the extra key.
 */
import { Schema } from "effect"

const body = <C extends number>(code: C) =>
  Schema.Struct({
    code: Schema.Literal(code),
    message: Schema.String,
    field: Schema.optionalKey(Schema.String.annotate({ description: "The request field the error is about, as a path: `a.b[0].c`" }))
  })

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")({ error: body(400) }, { httpApiStatus: 400 }) {
  /** A 400 with `message`; `field` when the refusal is about one field of the request. */
  static of(message: string, field?: string): BadRequest {
    return new BadRequest({ error: field === undefined ? { code: 400, message } : { code: 400, message, field } })
  }
}

export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")({ error: body(401) }, { httpApiStatus: 401 }) {
  static of(message: string): Unauthorized {
    return new Unauthorized({ error: { code: 401, message } })
  }
}

export class Forbidden extends Schema.Error<Forbidden>("Forbidden")({ error: body(403) }, { httpApiStatus: 403 }) {
  static of(message: string): Forbidden {
    return new Forbidden({ error: { code: 403, message } })
  }
}

export class NotFound extends Schema.Error<NotFound>("NotFound")({ error: body(404) }, { httpApiStatus: 404 }) {
  static of(message: string): NotFound {
    return new NotFound({ error: { code: 404, message } })
  }
}

export class Conflict extends Schema.Error<Conflict>("Conflict")({ error: body(409) }, { httpApiStatus: 409 }) {
  static of(message: string): Conflict {
    return new Conflict({ error: { code: 409, message } })
  }
}

/** The errors any authenticated endpoint may answer. */
export const Common = [BadRequest, Forbidden, NotFound] as const
