/**
 * Published sites across processes: on a real PostgreSQL, this process announces its own changes
 * to sites and main moves (`SiteChanges.localStamp`) on `sitesChannel`, and hears the others'
 * (`changes.remoteChanged`), so that no server keeps serving a site's old pages for the
 * 2 seconds its caches would otherwise hold them. Servers and workers both run it: a worker's Git
 * import or translation run moves a space's main too. Embedded PGlite is one process: nothing to do.
 */
import { Effect, Layer, Option, Queue, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import { Database } from "@quire/db"
import { SiteChanges } from "@quire/sites"

export const sitesChannel = "quire_sites_changed"

/** How often this process's counters are compared with what it last announced. */
const announceEvery = "50 millis"

const run = Effect.fnUntraced(function*(pg: Database.PgClient.PgClient) {
  const changes = yield* SiteChanges
  const self = randomUUID()
  const consume = (queue: Queue.Dequeue<{ readonly payload: string }, unknown>) =>
    Effect.forever(Effect.flatMap(Queue.take(queue), (n) => (n.payload === self ? Effect.void : changes.remoteChanged)))
  // Notifications may have been missed while the listener was away: everything is read again.
  const resubscribe = Effect.scoped(
    Effect.flatMap(pg.listen(sitesChannel), (queue) => Effect.andThen(changes.remoteChanged, consume(queue)))
  ).pipe(
    Effect.tapError((error) => Effect.logWarning("Lost the published sites listener; subscribing again", error)),
    Effect.retry(Schedule.spaced("1 second"))
  )
  const first = yield* pg.listen(sitesChannel)
  yield* consume(first).pipe(
    Effect.tapError((error) => Effect.logWarning("Lost the published sites listener; subscribing again", error)),
    Effect.ignore,
    Effect.andThen(changes.remoteChanged),
    Effect.andThen(resubscribe),
    Effect.forkScoped
  )
  let announced = changes.localStamp()
  const announce = Effect.suspend(() => {
    const now = changes.localStamp()
    if (now === announced) return Effect.void
    return pg.notify(sitesChannel, self).pipe(
      Effect.tap(() => Effect.sync(() => void (announced = now))),
      Effect.catchCause((cause) => Effect.logWarning("Could not announce a change of published sites", cause))
    )
  })
  yield* announce.pipe(Effect.repeat(Schedule.spaced(announceEvery)), Effect.forkScoped)
})

export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const database = yield* Effect.serviceOption(Database.DatabaseInfo)
    const pg = yield* Effect.serviceOption(Database.PgClient.PgClient)
    if (Option.isSome(database) && database.value.kind === "postgres" && Option.isSome(pg)) {
      yield* run(pg.value).pipe(Effect.orDie)
    }
  })
)
