/**
 * Runs a unit of work atomically. Use cases wrap multi-row writes in `transaction`; the SQL
 * layer maps it to a database transaction, the memory layer runs it as is (memory adapters
 * never yield between reading and writing their maps, so each call is already atomic).
 */
import { Context, Effect, Layer } from "effect"

export class Transactor extends Context.Service<Transactor, {
  readonly transaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@quire/kernel/Transactor") {
  static readonly layerMemory = Layer.succeed(Transactor, Transactor.of({ transaction: (self) => self }))
}
