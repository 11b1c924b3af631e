/** Quire from its configuration: the database (DATABASE_URL or embedded), every use case on it, the job queue. */
import { Config, Effect, Layer, Option } from "effect"
import { Database } from "@quire/db"
import { AccountMail } from "@quire/identity"
import * as Queue from "./Queue.ts"
import * as Services from "./Services.ts"
import * as SiteBroadcast from "./SiteBroadcast.ts"
import { Storage } from "./Storage.ts"

const storage = Layer.unwrap(Effect.map(Effect.service(Database.DatabaseInfo), (info) => Storage.layer(info.kind)))

/**
 * What the server runs on: the database opened and migrated, the use cases over it and the job
 * queue they enqueue on (in-process when embedded, graphile-worker on PostgreSQL), and which
 * storage it is.
 */
// Large pages' parse workers (docs/http.md, "Bounded work per request") start when the first
// large page arrives and stop when idle: an idle server holds none.
export const layer = Queue.layerServices.pipe(
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

/**
 * The worker's mail (notifications its jobs send): SMTP (`QUIRE_SMTP_URL`) with links to the app at
 * `QUIRE_PUBLIC_URL`, as the server's; without that URL the worker mails nothing, as its links
 * would lead nowhere.
 */
export const layerWorkerMail = Layer.unwrap(Effect.map(
  Effect.orDie(Config.option(Config.String("QUIRE_PUBLIC_URL"))),
  Option.match({ onNone: () => AccountMail.layerNone, onSome: (url) => AccountMail.layerConfig(url) })
))
