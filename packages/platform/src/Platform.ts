/** Quire from its configuration: the database (DATABASE_URL or embedded), every use case on it, the job queue. */
import { Effect, Layer } from "effect"
import { warmParseWorkers } from "@quire/content"
import { Database } from "@quire/db"
import { GitSyncLayers } from "@quire/gitsync"
import { TranslationsLayers } from "@quire/translations"
import * as Queue from "./Queue.ts"
import * as Services from "./Services.ts"
import { Storage } from "./Storage.ts"

const services = Layer.unwrap(Effect.map(Effect.service(Database.DatabaseInfo), (info) => Services.layerSqlOn(info.kind)))

const storage = Layer.unwrap(Effect.map(Effect.service(Database.DatabaseInfo), (info) => Storage.layer(info.kind)))

/** How long after the server starts its parse workers are warmed. */
const warmUpDelayMillis = 2_000

/**
 * What the server runs on: the database opened and migrated, the use cases over it, the job
 * queue (in-process when embedded, graphile-worker on PostgreSQL, Git sync's and translations' handles bound to it)
 * and which storage it is.
 */
export const layer = Layer.merge(GitSyncLayers.layerBindQueue, TranslationsLayers.layerBindQueue).pipe(
  // Large pages' parse workers are started and warmed (see docs/architecture.md, "Bounded work per
  // request") once the server has started, not competing with its start for the CPU.
  Layer.merge(Layer.effectDiscard(Effect.sync(() => setTimeout(() => void warmParseWorkers(), warmUpDelayMillis).unref()))),
  Layer.provideMerge(Queue.layer),
  Layer.provideMerge(services),
  Layer.provideMerge(storage),
  Layer.provideMerge(Database.layer)
)

/** The use cases on the PostgreSQL server at `url` (migrated if needed), for the worker. */
export const layerPostgres = (url: string) => Services.layerSql.pipe(Layer.provide(Database.layerUrl(url)), Layer.orDie)
