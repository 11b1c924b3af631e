/**
 * Where the agent meets live editing: while the collaboration server runs, it serves this hub
 * (`@quire/live`'s CollabAgent), and the agent reads and writes a page open there as a participant
 * of its shared document (its own name, colour and caret, its change merged as Yjs merges what
 * people type). Without a server serving it (the worker, a page open nowhere here), the agent
 * writes through the change request's write path, as before. One hub per process, as
 * ChangeRequestWrites is.
 */
import { Context, Effect, Layer, type Option, type Scope } from "effect"
import type { Actor } from "@quire/kernel"

/** One answer's visit of the live documents: what it read and wrote, and its presence in them. */
export interface AgentLiveVisit {
  /** The page's markdown as its open shared document has it now (typing not yet written included); none when it is not open here. */
  readonly read: (pageId: string) => Effect.Effect<Option.Option<string>>
  /**
   * Writes `markdown` into the page's open shared document, as the change from the document as
   * this visit last read it (or as it is now) to `markdown`: what people typed meanwhile is kept.
   * Live editing writes it back through the change request's write path, as the person. False
   * when the page is not open here (the caller writes it itself).
   */
  readonly write: (pageId: string, markdown: string) => Effect.Effect<boolean>
}

/** What live editing offers the agent: a visit of one change request's documents, left when its scope closes. */
export interface AgentLiveServer {
  /** The agent acting for `actor`, with their rights, named after them ("Agent (for Ada)"). */
  readonly visit: (changeRequestId: string, actor: Actor.ActorShape) => Effect.Effect<AgentLiveVisit, never, Scope.Scope>
}

/** A visit with no document open: every read and write is the caller's. */
export const noVisit: AgentLiveVisit = { read: () => Effect.succeedNone, write: () => Effect.succeed(false) }

export interface AgentLiveShape {
  /** Live editing serves the agent while the scope lasts. */
  readonly serve: (server: AgentLiveServer) => Effect.Effect<void, never, Scope.Scope>
  /** A visit of the change request's live documents (`noVisit` when no server serves), until the scope closes. */
  /** The agent acting for `actor`, with their rights, named after them ("Agent (for Ada)"). */
  readonly visit: (changeRequestId: string, actor: Actor.ActorShape) => Effect.Effect<AgentLiveVisit, never, Scope.Scope>
}

export class AgentLive extends Context.Service<AgentLive, AgentLiveShape>()("@quire/reviews/AgentLive") {
  static readonly layer = Layer.sync(AgentLive, () => {
    const servers = new Set<AgentLiveServer>()
    return AgentLive.of({
      serve: (server) => Effect.acquireRelease(Effect.sync(() => void servers.add(server)), () => Effect.sync(() => void servers.delete(server))),
      visit: (changeRequestId, actor) => {
        const server = servers.values().next()
        return server.done ? Effect.succeed(noVisit) : server.value.visit(changeRequestId, actor)
      }
    })
  })
}
