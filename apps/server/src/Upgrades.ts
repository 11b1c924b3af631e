/**
 * The protocol upgrades Node's server hands to something other than the application: a path
 * (`/collab`) mounted with its handler for as long as the mounting layer lives. NodeServer
 * consults it for each `upgrade` event before Effect's own upgrade handler sees it.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void

export class Upgrades extends Context.Service<Upgrades, {
  /** Hands upgrades of exactly `path` (any query) to `handler` until the scope closes. */
  readonly mount: (path: string, handler: UpgradeHandler) => Effect.Effect<void, never, Scope.Scope>
  /** Whether a mounted handler took the upgrade. */
  readonly handle: (request: IncomingMessage, socket: Duplex, head: Buffer) => boolean
}>()("@quire/server/Upgrades") {
  static readonly layer = Layer.sync(Upgrades, () => {
    const mounted = new Map<string, UpgradeHandler>()
    return Upgrades.of({
      mount: (path, handler) =>
        Effect.acquireRelease(
          Effect.sync(() => void mounted.set(path, handler)),
          () => Effect.sync(() => void mounted.delete(path))
        ),
      handle: (request, socket, head) => {
        if (mounted.size === 0) return false
        const url = request.url ?? "/"
        const query = url.indexOf("?")
        const handler = mounted.get(query === -1 ? url : url.slice(0, query))
        if (handler === undefined) return false
        handler(request, socket, head)
        return true
      }
    })
  })
}
