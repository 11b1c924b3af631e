/** Quire from its configuration: the database (DATABASE_URL or embedded), every use case on it, the job queue. */
import { Effect, Layer } from "effect"
import { ParsePool } from "@quire/content"
import { Database } from "@quire/db"
import * as Queue from "./Queue.ts"
import * as Services from "./Services.ts"
import * as SiteBroadcast from "./SiteBroadcast.ts"
import { Storage } from "./Storage.ts"

const storage = Layer.unwrap(Effect.map(Effect.service(Database.DatabaseInfo), (info) => Storage.layer(info.kind)))

/** How long after the server starts its parse workers are warmed. */
const warmUpDelay = "2 seconds"

// Large pages' parse workers are started and warmed (see docs/http.md, "Bounded work per
// request") once the server has started, not competing with its start for the CPU.
const warmParseWorkers = Layer.effectDiscard(
  Effect.flatMap(Effect.service(ParsePool), (pool) => Effect.forkScoped(Effect.delay(pool.warmUp, warmUpDelay)))
)

/**
 * What the server runs on: the database opened and migrated, the use cases over it and the job
 * queue they enqueue on (in-process when embedded, graphile-worker on PostgreSQL), and which
 * storage it is.
 */
export const layer = warmParseWorkers.pipe(
  Layer.provideMerge(Queue.layerServices),
  Layer.provideMerge(storage),
  Layer.provideMerge(Database.layer)
)

/**
 * The use cases on the PostgreSQL server at `url` (migrated if needed), for the worker: the jobs
 * they queue (an export after an import, a translation's run) go to the durable queue, and what
 * its jobs change of published sites (a Git import, a translation moving a space's main) is
 * announced to the servers (`SiteBroadcast`).
 */
export const layerPostgres = (url: string) =>
  SiteBroadcast.layer.pipe(
    Layer.provideMerge(Services.layerSql.pipe(Layer.provide(Queue.layerGraphileOn(url)))),
    Layer.provide(Database.layerUrl(url)),
    Layer.orDie
  )
