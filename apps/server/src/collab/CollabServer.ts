/**
 * Live editing's collaboration server: Hocuspocus inside the server process, reached by a
 * WebSocket upgrade of `/collab` on Node's one HTTP server (docs/web.md, "Live editing"). A
 * document is `<changeRequestId>/<pageId>`; a connection is authenticated with identity's session
 * cookie or an API token, from our own origin or none; readers are read-only; each update is in
 * PostgreSQL before it is applied and acknowledged; access is checked again on a timer and every
 * so many updates. A change request's presence document (`<changeRequestId>/~presence`,
 * CollabPresence.ts) carries only awareness: who is in it, on which page. With `QUIRE_REDIS_URL`,
 * servers relay each other's updates (and awareness) through Redis.
 *
 * The server is Hocuspocus with one extension per concern: this file's authentication (who
 * connects, with which role, checked again on a timer and every so many updates) and
 * `@quire/live/extensions`' limits, presence, persistence, write back and scaling.
 */
import { type Extension, Hocuspocus, type WebSocketLike } from "@hocuspocus/server"
import { Config, Context, Duration, Effect, Layer, Option, Schedule } from "effect"
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
import { type Arrivals, limits, persistence, presence, type Run, runner, scaling, type ServerState, writeBack } from "@quire/live/extensions"

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

type Needs = LiveDocuments | ChangeRequestWrites | CollabCodec | SignInSessions | Users

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

/**
 * Who connects and with which role: a session cookie from our own origin or an API token; readers
 * are read-only, a presence document is read-only to everyone who may read the change request.
 */
const authentication = (
  live: LiveDocuments["Service"],
  documents: CollabDocuments.CollabDocuments,
  ownOrigin: string,
  run: Run<Needs>
): Extension<ConnectionContext> => ({
  onAuthenticate: (data) =>
    run(Effect.gen(function*() {
      const presenceName = presenceOf(data.documentName)
      const ids = Option.isSome(presenceName) ? undefined : yield* live.parseName(data.documentName).pipe(Effect.mapError(() => new Refused(refusal.badName)))
      const credential = CollabIdentity.credentialOf(data.context.headers, data.token, ownOrigin)
      if (Option.isNone(credential)) return yield* Effect.fail(new Refused(refusal.unauthenticated))
      const actor = yield* CollabIdentity.actorOf(credential.value)
      if (Option.isNone(actor)) return yield* Effect.fail(new Refused(refusal.unauthenticated))
      const awareness = { start: 0, count: 0 }
      const person = yield* CollabPresence.personOf(actor.value)
      if (ids === undefined) {
        // Anyone who may read the change request sees who is in it; no one writes to its presence.
        const changeRequestId = Option.getOrThrow(presenceName)
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
    }))
})

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
    const state: ServerState = { stopping: false }
    const arrivals: Arrivals = new WeakMap()
    const run = runner(context)
    const live = Context.get(context, LiveDocuments)
    const { recheck, recheckAll } = rechecks(live)
    const hocuspocus: Hocuspocus<ConnectionContext> = new Hocuspocus<ConnectionContext>({
      quiet: true,
      debounce: options.writeDebounceMs,
      maxDebounce: options.writeMaxDebounceMs,
      // In this order: the relay takes a document's store lock before the write back writes it.
      extensions: [
        ...scaling(options.redisUrl, state),
        authentication(live, documents, ownOrigin, run),
        limits(options, arrivals),
        presence,
        persistence<ConnectionContext, Needs>({
          documents,
          run,
          recheckEveryUpdates: options.recheckEveryUpdates,
          recheck: (connection) => Effect.map(recheck(connection), (check) => {
            const after = afterCheck(check, false, true)
            return "close" in after ? after.close : undefined
          })
        }),
        writeBack<Needs>({ documents, run, state, recheckChangeRequest: (changeRequestId) => recheckAll(hocuspocus, changeRequestId) })
      ]
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
