/**
 * Kernel's `Transactor` over a database transaction. Nested calls become savepoints, so a use
 * case may call another that opens its own transaction.
 */
import { Transactor } from "@quire/kernel"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** Carries the unit of work's own failure through `withTransaction`, apart from its SqlErrors. */
class WorkFailed<E> {
  constructor(readonly error: E) {}
}

/** Runs each `transaction` in `sql.withTransaction`; BEGIN/COMMIT failures become defects. */
export const layer: Layer.Layer<Transactor.Transactor, never, SqlClient.SqlClient> = Layer.effect(
  Transactor.Transactor,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Transactor.Transactor.of({
      transaction: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        sql.withTransaction(Effect.mapError(self, (error) => new WorkFailed(error))).pipe(
          Effect.catch((failure) => failure instanceof WorkFailed ? Effect.fail(failure.error) : Effect.die(failure))
        )
    })
  })
)
