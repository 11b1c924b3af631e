/**
 * Writes from elsewhere to the pages of open shared documents: every committed write to a change
 * request's branch (reviews' ChangeRequestWrites: the API, `cr apply`, an update from main, a
 * conflict resolved, a website import) is brought into each document of that change request this
 * server holds open, as a change of the shared document (CollabDocuments' `elsewhere`). On a real
 * PostgreSQL the writes of this process are announced to the others on `writesChannel` (NOTIFY,
 * sent once the write committed) and theirs heard, so a write on one server reaches a document
 * open on another (docs/web.md, "Live editing"). Each write heard (a change of status included) is
 * also handed to `heard`, which checks again the access of that change request's connections: a
 * page deleted, a merge or an archive closes them at once, not at the next timed check.
 */
import { PgClient } from "@effect/sql-pg"
import type { Hocuspocus } from "@hocuspocus/server"
import { Effect, Option, PubSub, Queue, Schedule, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { Database } from "@quire/db"
import { Actor } from "@quire/kernel"
import { ChangeRequestWrites, LiveDocuments, presenceOf } from "@quire/reviews"
import type { CollabDocuments, ConnectionState } from "./CollabDocuments.ts"

/**
 * The stateless message the people of a change request's presence document are sent after a write
 * to its content other than live editing's write back of a page's text: pages added, moved,
 * renamed or deleted (the app reads the change request's pages again).
 */
export const contentChanged = "content-changed"

/** The PostgreSQL channel of writes to change requests, between servers. */
export const writesChannel = "quire_collab_writes"

const Announced = Schema.fromJsonString(Schema.Struct({
  from: Schema.String,
  spaceId: Schema.String,
  changeRequestId: Schema.String,
  live: Schema.optional(Schema.String),
  status: Schema.optional(Schema.String)
}))
const decodeAnnounced = Schema.decodeUnknownOption(Announced)
const encodeAnnounced = Schema.encodeSync(Announced)

/** A write heard, here or from another server: `changeRequestId` empty when writes may have been missed. */
export interface Heard {
  readonly changeRequestId: string
  readonly live?: string | undefined
  readonly status?: string | undefined
}

/**
 * Brings writes heard here and from other servers into the documents `hocuspocus` holds, and hands
 * each to `heard` (not live editing's own write backs), for as long as the scope lasts.
 */
export const run = <C extends { readonly collab?: ConnectionState }>(
  hocuspocus: Hocuspocus<C>,
  documents: CollabDocuments,
  heard: (write: Heard) => Effect.Effect<void> = () => Effect.void
) =>
  Effect.gen(function*() {
    const live = yield* LiveDocuments
    const writes = yield* ChangeRequestWrites
    const self = randomUUID()

    /** The page's markdown now, read as one of the people connected to its document who can still see it. */
    const pageMarkdown = (changeRequestId: string, pageId: string, readers: ReadonlyArray<Actor.ActorShape>) =>
      Effect.gen(function*() {
        for (const reader of readers) {
          const markdown = yield* live.markdown(changeRequestId, pageId).pipe(Effect.provideService(Actor.Actor, reader), Effect.option)
          if (Option.isSome(markdown)) return markdown
        }
        return Option.none<string>()
      })

    /** Each open document of the change request (every open document when `changeRequestId` is none). */
    const bringIn = (write: Heard & { readonly remote: boolean }) =>
      Effect.andThen(bringInContent(write), write.live === undefined ? heard(write) : Effect.void)

    const bringInContent = (write: Heard & { readonly remote: boolean }) =>
      Effect.forEach(Array.from(hocuspocus.documents.values()), (document) => {
        const [changeRequestId, pageId] = document.name.split("/")
        if (write.changeRequestId !== "" && changeRequestId !== write.changeRequestId) return Effect.void
        // A presence document holds no page; its people read the change request's pages again when
        // told (its status too: merged, archived). Each server tells its own connections
        // (relayStateless, not through Redis): every server hears every write.
        if (Option.isSome(presenceOf(document.name))) {
          return write.live === undefined ? Effect.sync(() => document.relayStateless(contentChanged)) : Effect.void
        }
        // A change of status moves no page's content.
        if (pageId === undefined || write.status !== undefined) return Effect.void
        const readers = document.getConnections().flatMap((connection) => connection.context.collab === undefined ? [] : [connection.context.collab.actor])
        return documents.elsewhere(document.name, document, pageMarkdown(changeRequestId!, pageId, readers), write).pipe(
          Effect.catchCause((cause) => Effect.logWarning(`Live editing could not bring a write from elsewhere into ${document.name}`, cause))
        )
      }, { discard: true })

    const database = yield* Effect.serviceOption(Database.DatabaseInfo)
    const pg = yield* Effect.serviceOption(PgClient.PgClient)
    const shared = Option.isSome(database) && database.value.kind === "postgres" ? pg : Option.none<PgClient.PgClient>()

    const subscription = yield* writes.subscribe
    yield* Effect.forever(Effect.gen(function*() {
      const write = yield* PubSub.take(subscription)
      yield* bringIn({ ...write, remote: false })
      if (Option.isSome(shared)) {
        const announced = {
          from: self,
          spaceId: write.spaceId,
          changeRequestId: write.changeRequestId,
          ...(write.live === undefined ? {} : { live: write.live }),
          ...(write.status === undefined ? {} : { status: write.status })
        }
        yield* shared.value.notify(writesChannel, encodeAnnounced(announced)).pipe(
          Effect.catchCause((cause) => Effect.logWarning("Live editing could not announce a write to other servers", cause))
        )
      }
    })).pipe(Effect.forkScoped)

    if (Option.isNone(shared)) return
    const pgClient = shared.value
    const consume = (queue: Queue.Dequeue<{ readonly payload: string }, unknown>) =>
      Effect.forever(Effect.flatMap(Queue.take(queue), (notification) => {
        const heard = decodeAnnounced(notification.payload)
        if (Option.isNone(heard) || heard.value.from === self) return Effect.void
        return bringIn({ changeRequestId: heard.value.changeRequestId, live: heard.value.live, status: heard.value.status, remote: true })
      }))
    // Writes may have been missed while the listener was away: every open document is compared with its page.
    const everything = bringIn({ changeRequestId: "", remote: true })
    const resubscribe = Effect.scoped(Effect.flatMap(pgClient.listen(writesChannel), (queue) => Effect.andThen(everything, consume(queue)))).pipe(
      Effect.tapError((error) => Effect.logWarning("Lost the listener of writes to change requests; subscribing again", error)),
      Effect.retry(Schedule.spaced("1 second"))
    )
    const first = yield* Effect.orDie(pgClient.listen(writesChannel))
    yield* consume(first).pipe(
      Effect.tapError((error) => Effect.logWarning("Lost the listener of writes to change requests; subscribing again", error)),
      Effect.ignore,
      Effect.andThen(everything),
      Effect.andThen(resubscribe),
      Effect.forkScoped
    )
  })
