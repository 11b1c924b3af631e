/**
 * The agent as a participant of live editing (reviews' AgentLive, served while the collaboration
 * server runs): it reads a page from its open shared document, writes into it as the change from
 * what it read (CollabDocuments' `agentWrite`: what people typed meanwhile is kept), and shows in
 * the document's awareness with its own name, colour and caret (a selection over what it wrote
 * last), and in the change request's presence document on that page, until its answer is done.
 */
import type { Hocuspocus } from "@hocuspocus/server"
import { Clock, Context, Duration, Effect, Option, Schedule, type Scope } from "effect"
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from "y-protocols/awareness"
import * as Y from "yjs"
import { Actor } from "@quire/kernel"
import { Users } from "@quire/identity"
import { type AgentLiveServer, type AgentLiveVisit, LiveDocuments, presenceName } from "@quire/reviews"
import type { CollabDocuments } from "./CollabDocuments.ts"
import { personOf } from "./CollabPresence.ts"

/** The agent's caret colour (an index of the editor's palette): the same for every agent, unlike any one person's. */
export const agentColour = 3
const agentHex = "#a05fc7"

/** How the agent shows to the others when it acts for `name`. */
export const agentName = (name: string): string => `Agent (for ${name})`

/** The origin of the agent's awareness changes (not a connection's: Hocuspocus sends them to everyone). */
const origin = { source: "local" as const }

/** How long the agent's presence stays after its last write, so that people see who wrote (ms). */
const lingerMillis = 1_500

/** A Yjs relative position, as awareness carries it. */
interface RelativeJson {
  readonly item: { readonly client: number; readonly clock: number }
  readonly assoc: number
}

/** The agent's selection over the last text its update inserted: from its first character to after its last. */
export const caretOf = (update: Uint8Array): { readonly anchor: RelativeJson; readonly head: RelativeJson } | undefined => {
  if (update.length === 0) return undefined
  let last: { client: number; clock: number; length: number } | undefined
  for (const struct of Y.decodeUpdate(update).structs) {
    if (!(struct instanceof Y.Item) || !(struct.content instanceof Y.ContentString) || struct.length === 0) continue
    if (last === undefined || struct.id.clock > last.clock) last = { client: struct.id.client, clock: struct.id.clock, length: struct.length }
  }
  if (last === undefined) return undefined
  return {
    anchor: { item: { client: last.client, clock: last.clock }, assoc: 0 },
    head: { item: { client: last.client, clock: last.clock + last.length - 1 }, assoc: -1 }
  }
}

/** One awareness entry of the agent's, in one document. */
interface Entry {
  readonly documentName: string
  readonly awareness: Awareness
  state: Record<string, unknown>
}

/** Serves reviews' AgentLive from the documents `hocuspocus` holds, for as long as the scope lasts. */
export const server = <C>(hocuspocus: Hocuspocus<C>, documents: CollabDocuments): Effect.Effect<AgentLiveServer, never, LiveDocuments | Users> =>
  Effect.map(Effect.context<LiveDocuments | Users>(), (context): AgentLiveServer => ({
    visit: (changeRequestId: string, actor: Actor.ActorShape): Effect.Effect<AgentLiveVisit, never, Scope.Scope> =>
      Effect.gen(function*() {
        const live = Context.get(context, LiveDocuments)
        const person = yield* Effect.provideService(personOf(actor), Users, Context.get(context, Users))
        const user = { id: `agent:${actor.userId}`, name: agentName(person.name), colour: agentColour, color: agentHex }
        const entries = new Map<string, Entry>()
        /** What the agent read of each page (the base of its write), in the document it read it from. */
        const reads = new Map<string, { readonly document: unknown; readonly state: Uint8Array }>()
        let lastWrite = 0

        const publish = (entry: Entry) => {
          const document = hocuspocus.documents.get(entry.documentName)
          if (document === undefined) return
          entry.awareness.setLocalState(entry.state)
          applyAwarenessUpdate(document.awareness, encodeAwarenessUpdate(entry.awareness, [entry.awareness.clientID]), origin)
        }
        /** Sets the agent's state in a document open here (joining it the first time). */
        const show = (documentName: string, state: Record<string, unknown>) => {
          if (hocuspocus.documents.get(documentName) === undefined) return
          let entry = entries.get(documentName)
          if (entry === undefined) {
            const doc = new Y.Doc()
            entry = { documentName, awareness: new Awareness(doc), state }
            entries.set(documentName, entry)
          }
          entry.state = state
          publish(entry)
        }
        const leave = Effect.sync(() => {
          for (const entry of entries.values()) {
            const document = hocuspocus.documents.get(entry.documentName)
            if (document !== undefined) removeAwarenessStates(document.awareness, [entry.awareness.clientID], origin)
            entry.awareness.destroy()
            entry.awareness.doc.destroy()
          }
          entries.clear()
        })
        // Left when the answer is done, a moment after the last write so that people see who wrote.
        yield* Effect.addFinalizer(() =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const wait = lastWrite + lingerMillis - now
            return wait > 0 ? Effect.asVoid(Effect.forkDetach(Effect.andThen(Effect.sleep(Duration.millis(wait)), leave))) : leave
          }))
        // Awareness forgets a state not renewed in thirty seconds: a long answer renews it.
        yield* Effect.sync(() => entries.forEach(publish)).pipe(Effect.repeat(Schedule.spaced("10 seconds")), Effect.forkScoped)

        const asActor = <A, E>(effect: Effect.Effect<A, E, Actor.Actor>) => Effect.provideService(effect, Actor.Actor, actor)
        const onPage = (pageId: string, extra: Record<string, unknown> = {}) => {
          show(`${changeRequestId}/${pageId}`, { user, ...extra })
          show(presenceName(changeRequestId), { user, pageId })
        }

        const read = (pageId: string) =>
          Effect.gen(function*() {
            const name = `${changeRequestId}/${pageId}`
            const document = hocuspocus.documents.get(name)
            if (document === undefined || document.isLoading) return Option.none<string>()
            const check = yield* asActor(live.check(changeRequestId, pageId))
            if (check.access === "none") return Option.none<string>()
            const got = yield* documents.agentRead(name, document)
            if (got === undefined) return Option.none<string>()
            reads.set(pageId, { document, state: got.state })
            onPage(pageId)
            return Option.some(got.markdown)
          })

        const write = (pageId: string, markdown: string) =>
          Effect.gen(function*() {
            const name = `${changeRequestId}/${pageId}`
            const document = hocuspocus.documents.get(name)
            if (document === undefined || document.isLoading) return false
            const check = yield* asActor(live.check(changeRequestId, pageId))
            if (check.access !== "edit") return false
            // Read from a document since unloaded (made anew from its page, perhaps): the change is from the document now.
            const read = reads.get(pageId)
            const written = yield* documents.agentWrite(name, document, read?.document === document ? read.state : undefined, markdown, actor)
            if (written === undefined || "refused" in written) return false
            // What it wrote is the base of its next write of this page.
            reads.set(pageId, { document, state: written.base })
            lastWrite = yield* Clock.currentTimeMillis
            const cursor = caretOf(written.update)
            onPage(pageId, cursor === undefined ? {} : { cursor })
            return true
          }).pipe(Effect.catchCause((cause) => Effect.as(Effect.logWarning(`Live editing could not take the agent's write to ${changeRequestId}/${pageId}`, cause), false)))

        return { read, write }
      })
  }))
