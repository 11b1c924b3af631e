/**
 * Live editing's collaboration server: Hocuspocus inside the server process, reached by a
 * WebSocket upgrade of `/collab` on Node's one HTTP server (docs/web.md, "Live editing"). A
 * document is `<changeRequestId>/<pageId>`; a connection is authenticated with identity's session
 * cookie or an API token (CollabIdentity.ts), from our own origin or none; readers are read-only;
 * each update is in PostgreSQL before it is applied and acknowledged; access is checked again on a
 * timer and every so many updates. A change request's presence document
 * (`<changeRequestId>/~presence`, CollabPresence.ts) carries only awareness: who is in it, on which
 * page. With `QUIRE_REDIS_URL`, servers relay each other's updates (and awareness) through Redis.
 * The change request's agent joins the documents open here as a participant (CollabAgent.ts).
 *
 * The server is Hocuspocus with `@quire/live/extensions`' extensions, one per concern:
 * authentication, limits, presence, persistence, write back and scaling. This file mounts the
 * socket, orders the extensions and runs the timed check of access.
 */
import { Hocuspocus, type WebSocketLike } from "@hocuspocus/server"
import { Config, type Duration, Effect, Layer, Option, Schedule } from "effect"
import { WebSocket, WebSocketServer } from "ws"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import type { Users } from "@quire/identity"
import { AgentLive, type ChangeRequestWrites, type LiveDocuments } from "@quire/reviews"
import { PublicUrl } from "../PublicUrl.ts"
import { Upgrades } from "../Upgrades.ts"
import type { CollabCodec } from "@quire/live/CollabCodec"
import * as CollabAgent from "@quire/live/CollabAgent"
import * as CollabDocuments from "@quire/live/CollabDocuments"
import * as CollabElsewhere from "@quire/live/CollabElsewhere"
import * as CollabIdentity from "./CollabIdentity.ts"
import type * as CollabPresence from "@quire/live/CollabPresence"
import {
  type Arrivals,
  type AuthenticatedContext,
  authentication,
  limits,
  persistence,
  presence,
  runner,
  scaling,
  type ServerState,
  writeBack
} from "@quire/live/extensions"

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

/** The path of the WebSocket upgrade. */
export const path = "/collab"

type Needs = LiveDocuments | ChangeRequestWrites | CollabCodec | Users | AgentLive

/** Answers an upgrade refused before the handshake with a status and words, and closes it. */
const refuseUpgrade = (socket: Duplex, status: string, words: string) => {
  socket.on("error", () => {})
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(words)}\r\n\r\n${words}`)
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
    const state: ServerState = { stopping: false }
    const arrivals: Arrivals = new WeakMap()
    const run = runner(context)
    const auth = yield* authentication({ documents, run })
    const hocuspocus: Hocuspocus<AuthenticatedContext> = new Hocuspocus<AuthenticatedContext>({
      quiet: true,
      debounce: options.writeDebounceMs,
      maxDebounce: options.writeMaxDebounceMs,
      // In this order: the relay takes a document's store lock before the write back writes it.
      extensions: [
        ...scaling(options.redisUrl, state),
        auth.extension,
        limits(options, arrivals),
        presence,
        persistence<AuthenticatedContext, Needs>({ documents, run, recheckEveryUpdates: options.recheckEveryUpdates, recheck: auth.recheckWriter }),
        writeBack<Needs>({ documents, run, state, recheckChangeRequest: (changeRequestId) => auth.recheckAll(hocuspocus, changeRequestId) })
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
      auth.recheckAll(hocuspocus, write.changeRequestId === "" ? undefined : write.changeRequestId).pipe(
        Effect.catchCause((cause) => Effect.logWarning("Live editing could not check access again", cause))
      ))

    // The agent in a change request writes a page open here as a participant of its document.
    yield* (yield* AgentLive).serve(yield* CollabAgent.server(hocuspocus, documents))

    yield* auth.recheckAll(hocuspocus).pipe(
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
  })).pipe(Layer.provide(CollabIdentity.layer))
