/**
 * Live editing's collaboration server: Hocuspocus inside the server process, reached by a
 * WebSocket upgrade of `/collab` on Node's one HTTP server (docs/web.md, "Live editing"). A
 * document is `<changeRequestId>/<pageId>`; a connection is authenticated with identity's session
 * cookie or an API token, from our own origin or none; readers are read-only; each update is in
 * PostgreSQL before it is applied and acknowledged; access is checked again on a timer and every
 * so many updates. A change request's presence document (`<changeRequestId>/~presence`,
 * CollabPresence.ts) carries only awareness: who is in it, on which page. With `QUIRE_REDIS_URL`,
 * servers relay each other's updates (and awareness) through Redis.
 */
import { Redis } from "@hocuspocus/extension-redis"
import { type Extension, Hocuspocus, isTransactionOrigin, type onStoreDocumentPayload, type WebSocketLike } from "@hocuspocus/server"
import { SkipFurtherHooksError } from "@hocuspocus/common"
import { Config, Context, Duration, Effect, Layer, Option, Result, Schedule } from "effect"
import { WebSocket, WebSocketServer } from "ws"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { type SignInSessions, type Users } from "@quire/identity"
import { Actor } from "@quire/kernel"
import { type ChangeRequestWrites, type LiveCheck, LiveDocuments, presenceOf } from "@quire/reviews"
import { PublicUrl } from "../PublicUrl.ts"
import { Upgrades } from "../Upgrades.ts"
import type { CollabCodec } from "@quire/live/CollabCodec"
import * as CollabDocuments from "@quire/live/CollabDocuments"
import * as CollabElsewhere from "@quire/live/CollabElsewhere"
import { refusal, Refused } from "@quire/live/CollabDocuments"
import * as CollabIdentity from "./CollabIdentity.ts"
import * as CollabPresence from "@quire/live/CollabPresence"

export interface CollabOptions extends CollabDocuments.CollabLimits, CollabPresence.AwarenessLimits {
  /** How often every open connection's access is checked again. */
  readonly recheckInterval: Duration.Input
  /** A connection's access is also checked again before every this many of its updates. */
  readonly recheckEveryUpdates: number
  /** The markdown is written this long after typing pauses, and at least this often while it goes on (ms). */
  readonly writeDebounceMs: number
  readonly writeMaxDebounceMs: number
  /** Redis that servers on one database relay updates through; none: this server alone. */
  readonly redisUrl: Option.Option<string>
}

export const defaults: Omit<CollabOptions, "redisUrl"> = {
  maxDocumentBytes: 8 * 1024 * 1024,
  maxUpdateBytes: 1024 * 1024,
  maxUpdatesPerSecond: 60,
  compactEveryUpdates: 500,
  maxAwarenessBytes: 4 * 1024,
  maxAwarenessPerSecond: 120,
  recheckInterval: "10 seconds",
  recheckEveryUpdates: 100,
  writeDebounceMs: 2_000,
  writeMaxDebounceMs: 10_000
}

/** How many times in a row a failed write of a document's markdown is tried again. */
const writeRetries = 5

/**
 * The reasons a connection is closed with when what it edits changed under it (a code before the
 * colon for the editor to match, then words): the page deleted from the change request, the
 * change request merged or archived, the person's role lowered to reading. Nothing typed after
 * is stored, so nothing is acknowledged as if it were.
 */
export const closedBecause = {
  pageDeleted: "page-deleted: this page was deleted from the change request; what you typed in it is not kept there",
  merged: "merged: this change request was merged; what you typed after that is not in it",
  archived: "archived: this change request was archived; what you type now is not saved",
  readOnly: "read-only: you may now only read this change request; what you type now is not saved"
} as const

/**
 * What becomes of a connection after its access was checked again: the reason to close it with,
 * or none to keep it (read-only when `readOnly`). A presence connection stays while its person may
 * read the change request; a page's writable connection that may no longer write is closed in
 * words, since Hocuspocus would answer its person's every keystroke "not synced" without one.
 */
export const afterCheck = (check: LiveCheck, presence: boolean, writable: boolean): { readonly close: string } | { readonly readOnly: boolean } => {
  if (check.access === "none") return { close: check.because === "page-deleted" ? closedBecause.pageDeleted : refusal.revoked }
  if (presence) return { readOnly: true }
  if (check.access === "edit") return { readOnly: false }
  if (!writable) return { readOnly: true }
  return { close: check.because === "merged" ? closedBecause.merged : check.because === "archived" ? closedBecause.archived : closedBecause.readOnly }
}

/** The path of the WebSocket upgrade. */
export const path = "/collab"

/** What each document connection carries in Hocuspocus's context. */
interface ConnectionContext {
  readonly headers: CollabIdentity.UpgradeHeaders
  readonly credential?: CollabIdentity.Credential
  readonly collab?: CollabDocuments.ConnectionState
  /** Set instead of `collab` on a change request's presence document. */
  readonly presence?: CollabPresence.PresenceState
  /** This connection's awareness messages in the current second. */
  readonly awareness?: CollabPresence.AwarenessWindow
  /** Who this connection's person is: the server writes it into each awareness entry it sends. */
  readonly person?: CollabPresence.Person
}

/**
 * When each message reached the server. Hocuspocus handles a connection's messages one after
 * another, each after the last one's store; the rate limits count messages by when they arrived,
 * so a flood sent at once is refused at once, however slowly the server is storing.
 */
type Arrivals = WeakMap<Uint8Array, number>

type Needs = LiveDocuments | ChangeRequestWrites | CollabCodec | SignInSessions | Users

/** `ioredis` settings of a `redis://[user:password@]host[:port][/db]` URL. */
const redisSettings = (url: string) => {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    options: {
      ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
      ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
      db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
      ...(parsed.protocol === "rediss:" ? { tls: {} } : {})
    }
  }
}

/**
 * Hocuspocus's Redis extension, whose store skipped for another server's lock is tried again.
 * The extension skips a store while another server holds the document's lock, and that server
 * may be writing a state without this server's last edits: nothing else would store them.
 */
class RetriedRedis extends Redis {
  constructor(configuration: ConstructorParameters<typeof Redis>[0], private readonly state: { stopping: boolean }) {
    super(configuration)
  }

  override async onStoreDocument(data: onStoreDocumentPayload): Promise<void> {
    try {
      await super.onStoreDocument(data)
    } catch (error) {
      if (error instanceof SkipFurtherHooksError && !this.state.stopping) {
        setTimeout(() => {
          if (!this.state.stopping && data.instance.documents.get(data.documentName) === data.document) {
            void data.instance.storeDocumentHooks(data.document, data).catch(() => {})
          }
        }, this.configuration.lockTimeout).unref()
      }
      throw error
    }
  }
}

/** Answers an upgrade refused before the handshake with a status and words, and closes it. */
const refuseUpgrade = (socket: Duplex, status: string, words: string) => {
  socket.on("error", () => {})
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(words)}\r\n\r\n${words}`)
}

/** Checks again the access of open connections (one, or every connection of a change request's documents, or all). */
const rechecks = (live: LiveDocuments["Service"]) => {
  /**
   * The connection's access now, authenticating its credential again (none without one), to its
   * page too: a page deleted from the change request is `page-deleted` for everyone.
   */
  const recheck = (connection: ConnectionContext) =>
    Effect.gen(function*() {
      const gone: LiveCheck = { access: "none", because: "gone" }
      const held = connection.collab ?? connection.presence
      if (connection.credential === undefined || held === undefined) return gone
      const actor = yield* CollabIdentity.actorOf(connection.credential)
      if (Option.isNone(actor)) return gone
      held.actor = actor.value
      const [changeRequestId, pageId] = "opened" in held ? [held.opened.key.changeRequestId, held.opened.key.pageId] : [held.changeRequestId, undefined]
      return yield* live.check(changeRequestId, pageId).pipe(Effect.provideService(Actor.Actor, actor.value))
    })

  /**
   * Closes the connections whose person lost access or whose page is gone, and those who typed
   * and may now only read (merged, archived, role lowered), each with its reason; makes read-only
   * or writable the others as their access now says. Only the change request `changeRequestId`'s
   * documents when given (a write or a change of status heard), else every document (the timer).
   */
  const recheckAll = (hocuspocus: Hocuspocus<ConnectionContext>, changeRequestId?: string) =>
    Effect.suspend(() => Effect.forEach(Array.from(hocuspocus.documents.values()), (document) =>
      changeRequestId !== undefined && !document.name.startsWith(`${changeRequestId}/`) ? Effect.void : Effect.forEach(document.getConnections(), (connection) =>
        Effect.map(recheck(connection.context), (check) => {
          const after = afterCheck(check, connection.context.presence !== undefined, !connection.readOnly)
          if ("close" in after) connection.close({ code: 4000, reason: after.close })
          else connection.readOnly = after.readOnly
        }), { discard: true }), { discard: true }))

  return { recheck, recheckAll }
}

/** Hocuspocus's hooks over the documents this server holds and the use cases, run in `context`. */
const makeHooks = (
  context: Context.Context<Needs>,
  documents: CollabDocuments.CollabDocuments,
  options: CollabOptions,
  ownOrigin: string,
  state: { stopping: boolean },
  arrivals: Arrivals
) => {
  const run = <A>(effect: Effect.Effect<A, Refused, Needs>, fallback: string = refusal.unavailable): Promise<A> =>
    Effect.runPromiseWith(context)(effect.pipe(
      Effect.catchDefect((defect) => Effect.andThen(Effect.logError("Live editing failed", defect), Effect.fail(new Refused(fallback)))),
      Effect.result
    )).then((result) => (Result.isSuccess(result) ? result.success : Promise.reject(result.failure)))
  const live = Context.get(context, LiveDocuments)
  const { recheck, recheckAll } = rechecks(live)
  /** Documents whose last writes failed, and how many times in a row. */
  const failed = new Map<string, number>()

  const hooks: Extension<ConnectionContext> = {
    onAuthenticate: (data) =>
      run(Effect.gen(function*() {
        const presence = presenceOf(data.documentName)
        const ids = Option.isSome(presence) ? undefined : yield* live.parseName(data.documentName).pipe(Effect.mapError(() => new Refused(refusal.badName)))
        const credential = CollabIdentity.credentialOf(data.context.headers, data.token, ownOrigin)
        if (Option.isNone(credential)) return yield* Effect.fail(new Refused(refusal.unauthenticated))
        const actor = yield* CollabIdentity.actorOf(credential.value)
        if (Option.isNone(actor)) return yield* Effect.fail(new Refused(refusal.unauthenticated))
        const awareness = { start: 0, count: 0 }
        const person = yield* CollabPresence.personOf(actor.value)
        if (ids === undefined) {
          // Anyone who may read the change request sees who is in it; no one writes to its presence.
          const changeRequestId = Option.getOrThrow(presence)
          const access = yield* live.access(changeRequestId).pipe(Effect.provideService(Actor.Actor, actor.value))
          if (Option.isNone(access)) return yield* Effect.fail(new Refused(refusal.notFound))
          data.connectionConfig.readOnly = true
          return { credential: credential.value, presence: { actor: actor.value, changeRequestId }, awareness, person }
        }
        const opened = yield* live.open(ids.changeRequestId, ids.pageId).pipe(
          Effect.provideService(Actor.Actor, actor.value),
          Effect.mapError(() => new Refused(refusal.notFound))
        )
        // A page too large to edit live is open read-only to everyone (CollabDocuments' `load`).
        data.connectionConfig.readOnly = opened.access !== "edit" || documents.readOnlyReason(data.documentName) !== undefined
        // With Redis, what another server acknowledged may be in PostgreSQL only (it died before
        // relaying it): this connection syncs with the open document once it holds that too.
        const open = data.instance.documents.get(data.documentName)
        if (open !== undefined) yield* documents.catchUp(data.documentName, open, opened.access === "edit" ? actor : Option.none())
        const collab: CollabDocuments.ConnectionState = { actor: actor.value, opened, window: { start: 0, count: 0 }, updates: 0, arrived: undefined }
        return { credential: credential.value, collab, awareness, person }
      })),
    beforeHandleMessage: async (data) => {
      const arrived = arrivals.get(data.update) ?? Date.now()
      if (data.context.collab !== undefined) data.context.collab.arrived = arrived
      const window = data.context.awareness
      const refused = window === undefined ? undefined : CollabPresence.checkAwareness(data.update, window, options, arrived)
      if (refused !== undefined) throw refused
    },
    // What a connection publishes of itself is from its own person, as the server knows them;
    // awareness relayed by another server (through Redis) was rewritten there.
    beforeHandleAwareness: async (data) => {
      const person = data.context?.person
      if (person === undefined) return
      const own = data.connection
      CollabPresence.ownEntries(data.states, person, (clientId) =>
        data.document.getConnections().some((other) => other !== own && data.document.getClients(other).has(clientId)))
    },
    onLoadDocument: async (data) => {
      // A presence document starts empty each time and stays so.
      if (data.context.presence !== undefined) return
      const collab = data.context.collab!
      const loaded = await run(documents.load(collab.opened, collab.actor), "unavailable: the server could not open this page for live editing")
      if (loaded.readOnly !== undefined) data.connectionConfig.readOnly = true
      if (loaded.stale) {
        // Edits stored before the server stopped, not yet in the page's markdown.
        setImmediate(() => void run(documents.writeMarkdown(data.documentName, data.document)).catch(() => {}))
      }
      return loaded.state
    },
    // Each connection to a page open read-only to everyone is told why (the editor shows it).
    connected: async (data) => {
      const why = documents.readOnlyReason(data.documentName)
      if (why === undefined) return
      data.connection.readOnly = true
      data.connection.sendStateless(why)
    },
    beforeSync: async (data) => {
      // SyncStep1 carries a state vector; a read-only connection's updates are refused by Hocuspocus.
      if (data.type === 0 || data.connection.readOnly) return
      const update = data.payload
      if (update.length === 2 && update[0] === 0 && update[1] === 0) return
      // Made writable again by a check of access, a connection to a page open read-only still types nothing.
      const readOnly = documents.readOnlyReason(data.documentName)
      if (readOnly !== undefined) throw new Refused(readOnly)
      const connection = data.context
      const collab = connection.collab!
      await run(Effect.gen(function*() {
        if (collab.updates > 0 && collab.updates % options.recheckEveryUpdates === 0) {
          const after = afterCheck(yield* recheck(connection), false, true)
          if ("close" in after) return yield* Effect.fail(new Refused(after.close))
        }
        yield* documents.store(data.documentName, collab, update, data.document)
      }))
    },
    // Hocuspocus stores a document after its own connections' edits only. With Redis, the server
    // holding the store lock may have written before another server's last edits reached it, and
    // that server's own store was skipped for the lock: so an edit relayed here schedules this
    // server's (debounced) store too, and whichever server stores last writes every edit.
    onChange: async (data) => {
      if (state.stopping || !isTransactionOrigin(data.transactionOrigin) || data.transactionOrigin.source !== "redis") return
      void data.instance.storeDocumentHooks(data.document, {
        clientsCount: data.clientsCount,
        document: data.document,
        lastContext: data.context,
        lastTransactionOrigin: data.transactionOrigin,
        documentName: data.documentName,
        instance: data.instance
      }).catch(() => {})
    },
    // A write that failed (the database, another server's write to the change request at that
    // moment) is tried again a little later, a few times, as nothing else may store these edits.
    onStoreDocument: async (data) => {
      if (state.stopping || Option.isSome(presenceOf(data.documentName))) return
      const done = await run(Effect.tap(documents.writeMarkdown(data.documentName, data.document), () => documents.compact(data.documentName)))
        .catch(() => false)
      // A write refused because the page or the change request moved on closes its connections in words.
      if (!done) await run(recheckAll(data.instance, data.documentName.split("/")[0])).catch(() => {})
      const failures = done ? 0 : (failed.get(data.documentName) ?? 0) + 1
      if (failures === 0 || failures > writeRetries) {
        failed.delete(data.documentName)
        return
      }
      failed.set(data.documentName, failures)
      setTimeout(() => {
        if (!state.stopping && data.instance.documents.get(data.documentName) === data.document) {
          void data.instance.storeDocumentHooks(data.document, data).catch(() => {})
        }
      }, 500 * 2 ** failures).unref()
    },
    afterUnloadDocument: (data) => {
      failed.delete(data.documentName)
      return run(documents.unload(data.documentName))
    }
  }

  return { hooks, recheckAll }
}

/** Mounts the collaboration server on `/collab` of this server's Upgrades for as long as the layer lives. */
export const layer = (overrides: Partial<CollabOptions> = {}) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const redisUrl = yield* Config.option(Config.NonEmptyString("QUIRE_REDIS_URL"))
    const options: CollabOptions = { ...defaults, redisUrl, ...overrides }
    const upgrades = yield* Upgrades
    const base = (yield* PublicUrl).base
    const ownOrigin = new URL(base).origin
    const context = yield* Effect.context<Needs>()
    const documents = yield* CollabDocuments.make(options, Option.isSome(options.redisUrl))
    const state = { stopping: false }
    const arrivals: Arrivals = new WeakMap()
    const { hooks, recheckAll } = makeHooks(context, documents, options, ownOrigin, state, arrivals)
    const extensions: Array<Extension> = Option.isSome(options.redisUrl)
      ? [new RetriedRedis({ ...redisSettings(options.redisUrl.value), prefix: "quire-collab" }, state)]
      : []
    const hocuspocus = new Hocuspocus<ConnectionContext>({
      quiet: true,
      debounce: options.writeDebounceMs,
      maxDebounce: options.writeMaxDebounceMs,
      extensions: [...extensions, hooks]
    })
    // A frame a little over the update limit still reaches the hook that refuses it in words.
    const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxUpdateBytes + 64 * 1024 })
    const sockets = new Set<WebSocket>()

    const accept = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const headers = CollabIdentity.upgradeHeaders(request.headers)
      if (!CollabIdentity.originAllowed(headers, ownOrigin)) return refuseUpgrade(socket, "403 Forbidden", "Live editing accepts connections from this server's own pages only")
      if ((request.headers.upgrade ?? "").toLowerCase() !== "websocket") return refuseUpgrade(socket, "400 Bad Request", "Expected a WebSocket upgrade")
      if (state.stopping) return refuseUpgrade(socket, "503 Service Unavailable", "The server is stopping")
      wss.handleUpgrade(request, socket, head, (ws) => {
        sockets.add(ws)
        const client = hocuspocus.handleConnection(ws as unknown as WebSocketLike, new Request(new URL(request.url ?? path, base)), { headers })
        ws.on("message", (data: Buffer) => {
          const message = new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
          arrivals.set(message, Date.now())
          client.handleMessage(message)
        })
        ws.on("error", () => ws.terminate())
        ws.on("close", (code, reason) => {
          sockets.delete(ws)
          client.handleClose({ code, reason: reason.toString() })
        })
      })
    }
    yield* upgrades.mount(path, accept)
    // Writes to a change request from elsewhere reach its open documents as changes of them; a
    // write or a change of status (a page deleted, a merge, an archive) checks their access at once.
    yield* CollabElsewhere.run(hocuspocus, documents, (write) =>
      recheckAll(hocuspocus, write.changeRequestId === "" ? undefined : write.changeRequestId).pipe(
        Effect.provideContext(context),
        Effect.catchCause((cause) => Effect.logWarning("Live editing could not check access again", cause))
      ))

    yield* recheckAll(hocuspocus).pipe(
      Effect.provideContext(context),
      Effect.catchCause((cause) => Effect.logWarning("Live editing could not check access again", cause)),
      Effect.repeat(Schedule.spaced(options.recheckInterval)),
      Effect.forkScoped
    )

    // Stopping writes nothing more: what was acknowledged is stored, and the next load writes the markdown it lacks.
    yield* Effect.addFinalizer(() =>
      Effect.promise(async () => {
        state.stopping = true
        for (const ws of sockets) ws.terminate()
        // Documents unload once their connections are gone (a second later with Redis, which unsubscribes then).
        for (let waited = 0; hocuspocus.getDocumentsCount() > 0 && waited < 2_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
        await hocuspocus.hooks("onDestroy", { instance: hocuspocus }).catch(() => {})
        await new Promise<void>((resolve) => wss.close(() => resolve()))
      })
    )
  }))
