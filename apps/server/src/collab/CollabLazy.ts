/**
 * Live editing loaded on its first use: `/collab` is mounted at start, and the first upgrade
 * imports the collaboration server (Hocuspocus, Yjs, TipTap's schema and the editor's codec, about
 * a megabyte of the bundle) and starts it for the rest of the server's life. A server nobody edits
 * live on never reads that code. Upgrades that arrive while it loads wait for it; a load that
 * fails refuses them with 503 and the next upgrade tries again.
 */
import { Cause, Effect, Exit, Layer, Scope } from "effect"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { type UpgradeHandler, Upgrades } from "../Upgrades.ts"
import type { CollabCodec } from "@quire/live/CollabCodec"
import type * as CollabServer from "./CollabServer.ts"

/** What the collaboration server reads from the server's layers (its codec it brings along). */
type Needs = Exclude<Layer.Services<ReturnType<typeof CollabServer.layer>>, CollabCodec | Upgrades>

/** The collaboration server's layer with its codec, as the server composes it. */
const load = Effect.promise(async () => {
  const [server, codec] = await Promise.all([import("./CollabServer.ts"), import("@quire/live/CollabCodec")])
  return { path: server.path, layer: (overrides: Partial<CollabServer.CollabOptions>) => server.layer(overrides).pipe(Layer.provide(codec.CollabCodec.layer)) }
})

/** The path the collaboration server takes upgrades on (`CollabServer.path`, which is not loaded yet). */
const path = "/collab"

type Pending = readonly [IncomingMessage, Duplex, Buffer]

const refuse = (socket: Duplex) => {
  const words = "Live editing could not start on this server; try again in a moment"
  socket.on("error", () => {})
  socket.end(`HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(words)}\r\n\r\n${words}`)
}

/** `CollabServer.layer(overrides)` with its codec, started by the first upgrade on `/collab`. */
export const layer = (overrides: Partial<CollabServer.CollabOptions> = {}) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const upgrades = yield* Upgrades
    const scope = yield* Effect.scope
    // What the collaboration server needs from this server's layers, captured now for later.
    const context = yield* Effect.context<Needs>()
    let accept: UpgradeHandler | undefined
    let waiting: Array<Pending> | undefined

    /** Starts the collaboration server in this layer's scope, mounted on an Upgrades of its own that hands its handler here. */
    const start = Effect.gen(function*() {
      const loaded = yield* load
      const own = Upgrades.of({
        mount: (_, handler) => Effect.sync(() => void (accept = handler)),
        handle: () => false
      })
      const child = yield* Scope.fork(scope)
      yield* Layer.buildWithScope(loaded.layer(overrides), child).pipe(
        Effect.provideService(Upgrades, own),
        Effect.onExit((exit) => (Exit.isFailure(exit) ? Scope.close(child, exit) : Effect.void))
      )
      if (loaded.path !== path) yield* Effect.die(new Error(`Live editing is on ${loaded.path}, not ${path}`))
    })

    const started = (exit: Exit.Exit<void, unknown>) => {
      const pending = waiting ?? []
      waiting = undefined
      if (Exit.isFailure(exit) || accept === undefined) {
        accept = undefined
        Effect.runForkWith(context)(Effect.logError("Live editing could not start", Exit.isFailure(exit) ? exit.cause : Cause.die("not mounted")))
        for (const [, socket] of pending) refuse(socket)
        return
      }
      for (const [request, socket, head] of pending) accept(request, socket, head)
    }

    yield* upgrades.mount(path, (request, socket, head) => {
      if (accept !== undefined) return accept(request, socket, head)
      if (waiting !== undefined) return void waiting.push([request, socket, head])
      waiting = [[request, socket, head]]
      Effect.runForkWith(context)(start.pipe(Effect.exit, Effect.map(started)))
    })
  }))

