/**
 * Runs a unit of work atomically. Use cases wrap multi-row writes in `transaction`; the SQL
 * layer maps it to a database transaction (nested calls are savepoints). The memory layer
 * journals the writes of the adapters' `TxMap`s and undoes them when the work fails or is
 * interrupted; transactions run one at a time, as row locks would order conflicting ones.
 */
import { Context, Effect, Layer, Semaphore } from "effect"
import { CurrentJournal, Journal } from "./MemoryStore.ts"

export class Transactor extends Context.Service<Transactor, {
  readonly transaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@quire/kernel/Transactor") {
  static readonly layerMemory = Layer.sync(Transactor, () => {
    const serial = Semaphore.makeUnsafe(1)
    return Transactor.of({
      transaction: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
        Effect.withFiber((fiber) => {
          const parent = fiber.getRef(CurrentJournal)
          const journal = new Journal()
          const work = self.pipe(
            Effect.provideService(CurrentJournal, journal),
            Effect.onExit((exit) => Effect.sync(() => journal.settle(exit, parent)))
          )
          // A nested transaction is a savepoint of its parent, which already holds the permit.
          return parent === undefined ? serial.withPermit(work) : work
        })
    })
  })
}
