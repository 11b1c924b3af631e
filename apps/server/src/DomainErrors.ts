/** Domain errors to API errors: the status and envelope are attached here, never in the domain. */
import { Effect } from "effect"
import { ApiErrors } from "@quire/api"
import type { Errors } from "@quire/kernel"

type DomainError = Errors.NotFound | Errors.Forbidden | Errors.InvalidInput | Errors.Conflict

const toApi = (error: DomainError) => {
  switch (error._tag) {
    case "NotFound":
      return ApiErrors.NotFound.of(error.message)
    case "Forbidden":
      return ApiErrors.Forbidden.of(error.message)
    case "InvalidInput":
      return ApiErrors.BadRequest.of(error.message, error.field)
    case "Conflict":
      return ApiErrors.Conflict.of(error.message)
  }
}

type ApiErrorOf<E> =
  | (Extract<E, Errors.NotFound> extends never ? never : ApiErrors.NotFound)
  | (Extract<E, Errors.Forbidden> extends never ? never : ApiErrors.Forbidden)
  | (Extract<E, Errors.InvalidInput> extends never ? never : ApiErrors.BadRequest)
  | (Extract<E, Errors.Conflict> extends never ? never : ApiErrors.Conflict)

/** Maps an effect's domain errors to the API's error answers. */
export const api = <A, E extends DomainError, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, ApiErrorOf<E>, R> =>
  Effect.mapError(self, (error) => toApi(error) as ApiErrorOf<E>)
