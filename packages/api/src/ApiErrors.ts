/**
 * The error answers of the API. Every error body is `{"error":{"code":<status>,"message":"..."}}`,
 * the shape GitBook's API uses, so GitBook's client reports our messages.
 */
import { Schema } from "effect"

const body = <C extends number>(code: C) =>
  Schema.Struct({ code: Schema.Literal(code), message: Schema.String })

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")({ error: body(400) }, { httpApiStatus: 400 }) {
  static of(message: string): BadRequest {
    return new BadRequest({ error: { code: 400, message } })
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
