/**
 * The shared documents this server holds open: each loaded from its stored Yjs state (or built
 * from the page's markdown the first time), each update stored before it is applied, the
 * markdown written back through the change request's write path, a write from elsewhere to the
 * page brought in as a change of the document, and the stored updates compacted into one state
 * from time to time. With Redis, an open document also takes in the updates PostgreSQL holds that
 * it lacks (`catchUp`).
 */
import { Clock, Effect, Option, Semaphore } from "effect"
import { createHash } from "node:crypto"
import * as Y from "yjs"
import { Actor, BoundedCache } from "@quire/kernel"
import { agreesWith, type CollabDocumentKey, LiveDocuments, maxStoredBytes, type OpenedPage, standing, type StoredCollabDocument } from "@quire/reviews"
import { CollabCodec } from "./CollabCodec.ts"
import * as CollabUpdateCheck from "./CollabUpdateCheck.ts"

/** The limits of live editing; each refusal closes the connection with a reason the editor shows. */
export interface CollabLimits {
  /** Bytes of a document's Yjs state (estimated: the stored state and the updates since). */
  readonly maxDocumentBytes: number
  /** Bytes of one update a client sends. */
  readonly maxUpdateBytes: number
  /** Updates one connection may send in a second. */
  readonly maxUpdatesPerSecond: number
  /** Stored updates after which a document's updates are compacted into one state. */
  readonly compactEveryUpdates: number
}

/**
 * Why a connection was refused or closed: a code before the colon for the editor to match, then
 * the words it shows.
 */
export const refusal = {
  unauthenticated: "unauthenticated: sign in again, or connect with an API token",
  badName: "not-found: a shared document is named <changeRequestId>/<pageId>",
  notFound: "not-found: this page of the change request does not exist, or you cannot see it",
  revoked: "forbidden: your access to this change request was removed",
  unavailable: "unavailable: the server could not store your last edit, which is not saved; reconnect to try again",
  invalidUpdate: "invalid-update: the server could not read your last edit, which is not saved; reload the page",
  /**
   * An edit built on edits the server does not have yet (CollabUpdateCheck's `gap`): sent on a
   * reopened connection before the sync's answer that carries them. Not stored; the editor syncs
   * again, and the sync's answer carries this edit too.
   */
  resync: "resync: your last edit builds on edits the server does not have yet; sync again to send them",
  /** An edit that does not fit the page's blocks (CollabUpdateCheck); a close reason holds at most 123 bytes. */
  refusedEdit: (why: string) => closeReason(`invalid-update: not saved, ${why}`),
  updateTooLarge: (max: number) => `update-too-large: one edit may change at most ${Math.floor(max / 1024)} KiB; your last edit is not saved`,
  documentTooLarge: (max: number) =>
    `document-too-large: a page may hold at most ${Math.floor(max / 1024)} KiB while edited live; your last edit is not saved, split the page`,
  rateLimited: (max: number) => `rate-limited: more than ${max} edits a second; your last edit is not saved, reconnect to continue`
} as const

/** `reason` cut to what a WebSocket close frame carries (123 bytes of UTF-8), on a character's edge. */
const closeReason = (reason: string): string => {
  const bytes = new TextEncoder().encode(reason)
  if (bytes.length <= 123) return reason
  return new TextDecoder().decode(bytes.slice(0, 120)).replace(/\uFFFD+$/, "") + "..."
}

/**
 * `store` (storing `update`) once the update is tried on a copy of the open document `doc` and fits
 * the page (CollabUpdateCheck), else Refused with the reason; when storing fails, the copy is made
 * anew, so that the update is tried again when it comes again.
 */
const checked = <E, R>(mirrors: CollabUpdateCheck.Mirrors, name: string, doc: Y.Doc, update: Uint8Array, store: Effect.Effect<void, E, R>) =>
  Effect.suspend((): Effect.Effect<void, E | Refused, R> => {
    const problem = mirrors.tryUpdate(name, doc, update)
    if (problem === CollabUpdateCheck.gap) return Effect.fail(new Refused(refusal.resync))
    if (problem !== undefined) return Effect.fail(new Refused(refusal.refusedEdit(problem)))
    return Effect.onError(store, () => Effect.sync(() => mirrors.forget(name)))
  })

/** What Hocuspocus closes a connection with: the reason travels to the client. */
export class Refused {
  readonly code = 4000
  constructor(readonly reason: string) {}
}

/** What a document connection carries: who it acts for, what it opened, its rate window. */
export interface ConnectionState {
  actor: Actor.ActorShape
  readonly opened: OpenedPage
  /** Start (ms) and count of the current one-second window of updates. */
  window: { start: number; count: number }
  /** Updates this connection stored, to check its access again every so many. */
  updates: number
  /** When the message being handled reached the server (ms), which the rate window counts by; the clock's time when unknown. */
  arrived: number | undefined
}

/**
 * Why a page is open read-only to everyone: its shared document would be larger than live editing
 * holds (a code before the colon for the editor to match, then the words it shows, within the 123
 * bytes of a close reason). It is sent to each connection (a stateless message), and the document
 * is never stored.
 */
export const readOnlyBecause = {
  tooLarge: (bytes: number, max: number) =>
    `document-too-large: this page would take ${Math.ceil(bytes / 1024)} KiB live, over the ${Math.floor(max / 1024)} KiB limit: read-only, split it to edit it`,
  /** Over the limit by a lower bound of its state alone (`CollabCodec.stateBytesAtLeast`): the state is not made. */
  tooLargeAtLeast: (bytes: number, max: number) =>
    `document-too-large: this page would take at least ${Math.floor(bytes / 1024)} KiB live, over the ${Math.floor(max / 1024)} KiB limit: read-only, split it to edit it`
} as const

interface Held {
  readonly key: CollabDocumentKey
  /** Why everyone may only read this document (it is not stored); none when it is edited live. */
  readonly readOnly?: string | undefined
  /** Estimated bytes of the Yjs state. */
  bytes: number
  sinceCompaction: number
  /** The document's markdown when it last agreed with the page (made from it, or written to it). */
  written: string
  /** Who typed since the markdown was last written. */
  readonly contributors: Map<string, Actor.ActorShape>
  /**
   * Who the last write credited: with Redis, edits typed on another server can reach this one
   * after both wrote, and this server then writes them as these people (the other server's
   * write credits their authors).
   */
  lastCredited: ReadonlyArray<Actor.ActorShape>
  /**
   * The document as it was when it last agreed with the page, as its encoded state (the same Yjs
   * items): a write from elsewhere is the change from it to the new page, which then merges with
   * whatever was typed since as Yjs merges. Kept encoded, not as a Y.Doc: only such a write reads
   * it, and making a long page's Y.Doc at each load and each write back was a large part of both.
   */
  base: Uint8Array
  /** False once another server wrote this document back: `base` may lack what it wrote. */
  baseKnown: boolean
  /** Loaded with edits not yet written: whose they are is checked at the next write back (`leaveOutRevoked`). */
  unwrittenOnLoad: boolean
  /**
   * The id of the last stored update this server knows the document holds (loaded with it, or
   * stored here): a write back records that the page holds the updates up to it.
   */
  lastStoredId: number
  /** One at a time: writing the markdown back, and bringing a write from elsewhere in. */
  readonly lock: Semaphore.Semaphore
}

/** A Y.Doc holding `updates` applied in order; one that cannot be read is left out (logged by the caller). */
export const docOf = (updates: ReadonlyArray<Uint8Array>): Y.Doc & { readonly unreadable?: number } => {
  const doc: Y.Doc & { unreadable?: number } = new Y.Doc()
  for (const update of updates) {
    try {
      Y.applyUpdate(doc, update)
    } catch {
      doc.unreadable = (doc.unreadable ?? 0) + 1
    }
  }
  return doc
}

/**
 * The markdown of the documents a server loaded last, by name, with the fingerprint of the stored
 * state and updates it was made from: making the markdown of a long page is most of its loading,
 * and a document opened again unchanged (its last editor left, one came back) skips it. Bounded in
 * entries and characters (kernel's BoundedCache, `collab_markdown` on `/metrics`).
 */
const markdownMemory = Effect.gen(function*() {
  const entries = yield* BoundedCache.make<string, { readonly fingerprint: string; readonly markdown: string }>({
    name: "collab_markdown",
    capacity: 16,
    maxWeight: 8_000_000,
    weigh: (entry) => entry.markdown.length
  })
  return {
    forget: (name: string) => void entries.delete(name),
    /** Remembers that `name` stored as `updates` reads as `markdown` (a document just made from a page). */
    remember: (name: string, updates: ReadonlyArray<Uint8Array>, markdown: string) => void entries.set(name, { fingerprint: fingerprintOf(updates), markdown }),
    /** The markdown of `name` stored as `updates`: remembered, or made from their Y.Doc (then given too). */
    read: (name: string, updates: ReadonlyArray<Uint8Array>, toMarkdown: (doc: Y.Doc) => string) => {
      const fingerprint = fingerprintOf(updates)
      const known = entries.get(name)
      if (known !== undefined && known.fingerprint === fingerprint) return { doc: undefined, markdown: known.markdown }
      const doc = docOf(updates)
      const markdown = toMarkdown(doc)
      entries.set(name, { fingerprint, markdown })
      return { doc: doc as ReturnType<typeof docOf> | undefined, markdown }
    }
  }
})

/** A hash of a stored document's state and updates, in order. */
const fingerprintOf = (updates: ReadonlyArray<Uint8Array>): string => {
  const hash = createHash("sha256")
  for (const update of updates) hash.update(update).update(String(update.length))
  return hash.digest("hex")
}

/** Whether `update` reads as a Yjs update (an update stored must never keep its document from loading). */
const readable = (update: Uint8Array): boolean => {
  try {
    Y.decodeUpdate(update)
    return true
  } catch {
    return false
  }
}

/** A document just loaded, its state `state`, that last agreed with the page as `written` (read-only to all, `readOnly` saying why). */
const heldOf = (key: CollabDocumentKey, state: Uint8Array, sinceCompaction: number, written: string, readOnly?: string): Held => ({
  key,
  readOnly,
  bytes: state.length,
  sinceCompaction,
  written,
  contributors: new Map(),
  lastCredited: [],
  base: state,
  baseKnown: true,
  unwrittenOnLoad: false,
  lastStoredId: 0,
  lock: Semaphore.makeUnsafe(1)
})

/** A write from elsewhere as the collaboration server heard it. */
export interface ElsewhereWrite {
  /** The shared document whose write back it was, if one. */
  readonly live?: string | undefined
  /** Heard from another server. */
  readonly remote: boolean
}

/** What the documents' functions below work on. */
interface Deps {
  readonly live: LiveDocuments["Service"]
  readonly codec: CollabCodec["Service"]
  readonly held: Map<string, Held>
  /** Whether servers relay through Redis: an open document may then lack updates another server stored. */
  readonly relayed: boolean
  /**
   * Runs a write back of change request `changeRequestId` after the others of this server: each
   * is a revision of the change request, and fifty pages written at once made them fail each other
   * (`Conflict`, the content kept changing during the update) until their retries ran out.
   */
  readonly inTurn: <A, E, R>(changeRequestId: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/**
 * Applies to the open document `doc` (with `origin`) the stored updates it lacks; whether any
 * were missing. With Redis, a server acknowledges an update once it is stored and relays it to
 * the other servers a moment later: one killed in between leaves an acknowledged update that only
 * PostgreSQL holds, which the servers still holding the document would never write back.
 */
const catchUp = Effect.fnUntraced(function*(deps: Deps, name: string, doc: Y.Doc, origin: unknown) {
  const document = deps.held.get(name)
  // A page open read-only as too large is not the stored document (if any): nothing to take in.
  if (document === undefined || document.readOnly !== undefined) return false
  const stored = yield* deps.live.stored(name)
  if (Option.isNone(stored)) return false
  return yield* Effect.sync(() => {
    const all = docOf([stored.value.state, ...stored.value.updates.map((u) => u.update)])
    const missing = Y.encodeStateAsUpdate(all, Y.encodeStateVector(doc))
    all.destroy()
    let changed = false
    const changes = () => void (changed = true)
    doc.on("update", changes)
    Y.applyUpdate(doc, missing, origin)
    doc.off("update", changes)
    if (changed) document.bytes += missing.length
    // It holds every stored update now.
    document.lastStoredId = stored.value.updates.reduce((last, u) => Math.max(last, Number(u.id)), document.lastStoredId)
    return changed
  })
})

/**
 * Takes out of the open document `doc` what people who lost the right to edit the change request
 * typed and is not written to its page yet (their access was removed while their socket stayed open a
 * moment, or before a server stopped): the document is changed to read as the stored one without
 * their unwritten updates, by the smallest change (as a write from elsewhere is brought in), stored
 * as the server's own update and sent to everyone; they are no longer typists. Looked for when one
 * of `typed` may no longer edit, or the document was loaded with edits not written; answers the
 * ids of those left out.
 */
const leaveOutRevoked = Effect.fnUntraced(function*(deps: Deps, name: string, doc: Y.Doc, typed: ReadonlyArray<Actor.ActorShape>) {
  const { live, codec, held } = deps
  const document = held.get(name)
  if (document === undefined) return []
  let look = document.unwrittenOnLoad
  for (const person of look ? [] : typed) {
    // Their own right: a change request merged or archived leaves its typists their words.
    const check = yield* live.check(document.key.changeRequestId).pipe(Effect.provideService(Actor.Actor, person))
    if (check.access === "none" || (check.access === "view" && check.because === "role")) look = true
  }
  document.unwrittenOnLoad = false
  if (!look) return []
  const stored = yield* live.stored(name)
  if (Option.isNone(stored)) return []
  const kept = yield* live.editorsOnly(stored.value)
  if (kept.leftOut.length === 0) return []
  const without = docOf([stored.value.state, ...kept.updates.map((u) => u.update)])
  const markdown = codec.toMarkdown(without)
  without.destroy()
  for (const id of kept.leftOut) document.contributors.delete(id)
  yield* Effect.logWarning(`Live document ${name}: what ${kept.leftOut.join(", ")} typed without the right to edit is taken out`)
  if (codec.toMarkdown(doc) === markdown) return kept.leftOut
  const next = docOf([Y.encodeStateAsUpdate(doc)])
  const before = Y.encodeStateVector(next)
  codec.apply(next, markdown)
  const update = Y.encodeStateAsUpdate(next, before)
  next.destroy()
  document.lastStoredId = Number(yield* live.storeUpdate(name, update))
  Y.applyUpdate(doc, update, { source: "local", skipStoreHooks: true })
  document.bytes += update.length
  document.sinceCompaction += 1
  return kept.leftOut
})

/**
 * Writes the document's markdown when it changed, as one of those who typed (the first who still
 * may), crediting the others; the ones credited are forgotten once it is written. With no one
 * left to credit, those of the last write. What people who may no longer edit typed is taken out
 * first (`leaveOutRevoked`). False when it changed and could not be written.
 */
const writeBack = Effect.fnUntraced(function*(deps: Deps, name: string, doc: Y.Doc) {
  const { live, codec, held } = deps
  const document = held.get(name)
  if (document === undefined || document.readOnly !== undefined) return true
  // What another server acknowledged and died before relaying is written with the rest.
  if (deps.relayed) yield* catchUp(deps, name, doc, { source: "local", skipStoreHooks: true })
  const leftOut = yield* leaveOutRevoked(deps, name, doc, Array.from(document.contributors.values()))
  let markdown = yield* Effect.sync(() => codec.toMarkdown(doc))
  const typed = Array.from(document.contributors.values())
  const credited = (typed.length > 0 ? typed : document.lastCredited).filter((person) => !leftOut.includes(person.userId))
  // Once something was taken out, the page records that it holds every update stored (even unchanged).
  if ((markdown === document.written && leftOut.length === 0) || credited.length === 0) return true
  // A write from elsewhere whose notice is still queued behind this write back is brought in first:
  // written over, it would be lost.
  const page = live.markdown(document.key.changeRequestId, document.key.pageId).pipe(Effect.provideService(Actor.Actor, credited[0]!), Effect.option)
  yield* bringIn(deps, name, doc, page, { remote: false })
  // The stored updates this markdown holds, at least: the page holds them once it is written.
  const through = document.lastStoredId
  markdown = yield* Effect.sync(() => codec.toMarkdown(doc))
  // The document as this markdown has it: the base of the next write from elsewhere.
  const snapshot = Y.encodeStateAsUpdate(doc)
  for (const writer of credited) {
    const coauthors = credited.filter((other) => other.userId !== writer.userId).map((other) => other.userId)
    const written = yield* deps.inTurn(document.key.changeRequestId, live.write(document.key, markdown, coauthors, through)).pipe(
      Effect.provideService(Actor.Actor, writer),
      Effect.as(true),
      Effect.catch((error) => Effect.as(Effect.logWarning(`Live editing could not write ${name} as ${writer.userId}`, error), false))
    )
    if (written) {
      document.written = markdown
      document.lastCredited = credited
      document.base = snapshot
      document.baseKnown = true
      for (const author of credited) {
        if (document.contributors.get(author.userId) === author) document.contributors.delete(author.userId)
      }
      return true
    }
  }
  return false
})

/**
 * Brings a write from elsewhere to the page into the open document `doc`, as the change from
 * the document as it last agreed with the page (`base`) to the page now: stored as an update,
 * applied (Hocuspocus sends it to the clients, and Redis to the other servers), and the new
 * agreement recorded. Nothing when the page did not move since they agreed (a write to
 * another page, or this document's own write back: `write.live` names the shared document
 * whose write back it was; `write.remote`, heard from another server). Of several servers
 * holding the document, the one that claims the new agreement first brings the change in; the
 * others receive it from Redis.
 */
const bringIn = Effect.fnUntraced(function*(
  deps: Deps,
  name: string,
  doc: Y.Doc,
  markdown: Effect.Effect<Option.Option<string>>,
  write: ElsewhereWrite
) {
  const { live, codec, held } = deps
  const document = held.get(name)
  if (document === undefined || document.readOnly !== undefined) return
  if (write.live === name) {
    // This server's own write back changes nothing here. Another server's, or one a merge
    // made from the stored document (LiveDocuments' `writeUnwritten`: the stored agreement is
    // not this document's last written markdown): the base here may lack what it wrote, so
    // this server brings no write from elsewhere in until it writes the document back itself
    // (a write then of the same markdown changes nothing on the page).
    if (write.remote) document.baseKnown = false
    else {
      const stored = yield* live.stored(name)
      if (Option.isSome(stored) && !agreesWith(stored.value, document.written)) document.baseKnown = false
    }
    return
  }
  const stored = yield* live.stored(name)
  const page = yield* markdown
  if (Option.isNone(stored) || Option.isNone(page)) return
  const now = standing(stored.value, { page: page.value, doc: codec.toMarkdown(doc) })
  if (now === "agreed" || now === "unwritten") return
  if (!document.baseKnown) return
  const next = docOf([document.base])
  const before = Y.encodeStateVector(next)
  codec.apply(next, page.value)
  const update = Y.encodeStateAsUpdate(next, before)
  if (update.length > maxStoredBytes) {
    // Never stored (no row may hold it): the write back meets the write from elsewhere as a three-way merge instead.
    next.destroy()
    return yield* Effect.logWarning(`Live document ${name}: a write from elsewhere of ${update.length} bytes is too large to bring in`)
  }
  if (!(yield* live.claim(stored.value, { page: page.value, doc: codec.toMarkdown(next) }))) {
    next.destroy()
    return
  }
  document.lastStoredId = Number(yield* live.storeUpdate(name, update))
  Y.applyUpdate(doc, update, { source: "local", skipStoreHooks: true })
  document.base = Y.encodeStateAsUpdate(next)
  next.destroy()
  document.bytes += update.length
  document.sinceCompaction += 1
  if (document.contributors.size === 0) document.written = codec.toMarkdown(doc)
})

/** What the agent read of an open document: its markdown, and its state then (the base of the agent's write). */
export interface AgentRead {
  readonly markdown: string
  readonly state: Uint8Array
}

/** The agent's write applied: its update (empty when nothing changed), and the document as the agent now has it. */
export interface AgentWritten {
  readonly update: Uint8Array
  readonly base: Uint8Array
}

/** The agent's write refused: too large for the document (its words say why). */
export interface AgentRefused {
  readonly refused: string
}

/**
 * The agent's write into the open document `doc`, for `actor`: the change from the document as the
 * agent read it (`from`, else as it is now) to `markdown`, by the smallest change (as a write from
 * elsewhere is brought in), so that what people typed since is kept as Yjs merges it. Stored as
 * the actor's update, applied (Hocuspocus sends it to the clients) and written back after typing
 * pauses as any typist's edit, crediting the actor. None when the document is not edited live here.
 */
const agentWrite = Effect.fnUntraced(function*(
  deps: Deps,
  limits: CollabLimits,
  name: string,
  doc: Y.Doc,
  from: Uint8Array | undefined,
  markdown: string,
  actor: Actor.ActorShape
) {
  const { live, codec, held } = deps
  const document = held.get(name)
  if (document === undefined || document.readOnly !== undefined) return undefined
  const next = docOf([from ?? Y.encodeStateAsUpdate(doc)])
  const before = Y.encodeStateVector(next)
  codec.apply(next, markdown)
  const changed = Y.encodeStateVector(next)
  const update = Y.encodeStateAsUpdate(next, before)
  // What the agent now takes the page to be: the base of its next write.
  const base = Y.encodeStateAsUpdate(next)
  next.destroy()
  if (Buffer.from(changed).equals(Buffer.from(before))) return { update: new Uint8Array(), base } satisfies AgentWritten
  if (update.length > Math.min(limits.maxUpdateBytes, maxStoredBytes)) return { refused: refusal.updateTooLarge(limits.maxUpdateBytes) } satisfies AgentRefused
  if (document.bytes + update.length > limits.maxDocumentBytes) return { refused: refusal.documentTooLarge(limits.maxDocumentBytes) } satisfies AgentRefused
  document.lastStoredId = Number(yield* live.storeUpdate(name, update, actor.userId))
  // Not skipping the store hooks: the write back writes it, as the actor's.
  Y.applyUpdate(doc, update, { source: "local" })
  document.bytes += update.length
  document.sinceCompaction += 1
  document.contributors.set(actor.userId, { ...actor })
  return { update, base } satisfies AgentWritten
})

/**
 * How the stored document `found` (its markdown `doc`) stands with the page, and the page's
 * markdown it was judged by. The page was read when the person connected, maybe before a write
 * back that finished since (its agreement is in `found`): taken for a write from elsewhere, it
 * would make the document anew without the edits written. So a page that seems to have moved is
 * read again: read after the stored document, it is at least as new as that agreement.
 */
const standingAtLoad = Effect.fnUntraced(function*(
  live: LiveDocuments["Service"],
  found: StoredCollabDocument,
  opened: OpenedPage,
  actor: Actor.ActorShape,
  doc: string
) {
  const now = standing(found, { page: opened.markdown, doc })
  if (now !== "changed-elsewhere" && now !== "diverged") return { now, page: opened.markdown }
  const again = yield* live.markdown(opened.key.changeRequestId, opened.key.pageId).pipe(Effect.provideService(Actor.Actor, actor), Effect.option)
  if (Option.isNone(again) || again.value === opened.markdown) return { now, page: opened.markdown }
  return { now: standing(found, { page: again.value, doc }), page: again.value }
})

/**
 * Refuses an update over a limit or not fitting the open document `doc` (`checked`, on `mirrors`);
 * otherwise stores it (committed when this succeeds) and credits its author.
 */
const store = Effect.fnUntraced(function*(
  deps: Deps,
  limits: CollabLimits,
  mirrors: CollabUpdateCheck.Mirrors,
  name: string,
  connection: ConnectionState,
  update: Uint8Array,
  doc: Y.Doc
) {
  const document = deps.held.get(name)
  if (document === undefined) return yield* Effect.die(new Error(`Shared document ${name} is not loaded`))
  if (update.length > limits.maxUpdateBytes) return yield* Effect.fail(new Refused(refusal.updateTooLarge(limits.maxUpdateBytes)))
  if (!readable(update)) return yield* Effect.fail(new Refused(refusal.invalidUpdate))
  const ms = connection.arrived ?? (yield* Clock.currentTimeMillis)
  if (ms - connection.window.start >= 1000) connection.window = { start: ms, count: 0 }
  connection.window.count += 1
  if (connection.window.count > limits.maxUpdatesPerSecond) return yield* Effect.fail(new Refused(refusal.rateLimited(limits.maxUpdatesPerSecond)))
  if (document.bytes + update.length > limits.maxDocumentBytes) {
    return yield* Effect.fail(new Refused(refusal.documentTooLarge(limits.maxDocumentBytes)))
  }
  yield* checked(mirrors, name, doc, update, Effect.map(deps.live.storeUpdate(name, update, connection.actor.userId), (id) => void (document.lastStoredId = Number(id))))
  document.bytes += update.length
  document.sinceCompaction += 1
  connection.updates += 1
  // A fresh entry each time: a write back forgets only the entries it credited (by identity), not
  // one who typed again while it wrote (a member removed meanwhile went unchecked at the next one).
  document.contributors.set(connection.actor.userId, { ...connection.actor })
})

/**
 * Merges the stored state and the updates its page holds (written through) into one state,
 * when enough updates were stored. The later ones stay apart with their authors, so that a
 * merge can leave out those of someone who may not edit; and a state over `maxStateBytes` is
 * not stored (the updates stay).
 */
const compact = Effect.fnUntraced(function*(deps: Deps, limits: CollabLimits, maxStateBytes: number, name: string) {
  const { live, held } = deps
  const document = held.get(name)
  if (document === undefined || document.sinceCompaction < limits.compactEveryUpdates) return
  const stored = yield* live.stored(name)
  if (Option.isNone(stored)) return
  const written = stored.value.updates.filter((u) => Number(u.id) <= stored.value.writtenThrough)
  if (written.length === 0) return
  const doc = docOf([stored.value.state, ...written.map((u) => u.update)])
  const state = Y.encodeStateAsUpdate(doc)
  doc.destroy()
  if (state.length > maxStateBytes) return
  const rest = stored.value.updates.slice(written.length)
  if (yield* live.storeCompacted(name, stored.value.version, state, written.map((u) => u.id))) {
    document.bytes = rest.reduce((bytes, u) => bytes + u.update.length, state.length)
    document.sinceCompaction = rest.length
  }
})

/**
 * A document made from a page's markdown: its state and its own markdown. When a lower bound of
 * its state's bytes was already over the limit (`unmade`), the state was not made: it is empty,
 * `bytes` is the bound and `markdown` the page's.
 */
interface Made {
  readonly state: Uint8Array
  readonly markdown: string
  /** Bytes of `state`, or at least of the state not made. */
  readonly bytes: number
  readonly unmade?: true
}

/** The state of an empty shared document: what a page too large to make is held as. */
const emptyState = (): Uint8Array => {
  const doc = new Y.Doc()
  const state = Y.encodeStateAsUpdate(doc)
  doc.destroy()
  return state
}

/**
 * Pages whose shared document would be over `maxStateBytes`. `fromPageOf` makes a page's
 * document (`fromPage`) and remembers one over the bound by the page's name, with a hash of its
 * markdown (`collab_read_only`): opening it again, unchanged, does not make it again (many seconds
 * of CPU for a page of many small blocks, during which the server answers nothing else). A page
 * whose state is over the bound by `stateBytesAtLeast` alone (milliseconds) is not made at all.
 * `readOnlyPage` holds one read-only to everyone, never stored, with the reason.
 */
const tooLargePages = (
  held: Map<string, Held>,
  fromPage: (markdown: string) => Effect.Effect<Made>,
  stateBytesAtLeast: (markdown: string) => number,
  maxStateBytes: number
) =>
  Effect.gen(function*() {
    const tooLarge = yield* BoundedCache.make<string, Made & { readonly sha: string }>({
      name: "collab_read_only",
      capacity: 8,
      maxWeight: 4 * maxStoredBytes,
      weigh: (entry) => entry.state.length
    })
    const fromPageOf = (name: string, markdown: string): Effect.Effect<Made> =>
      Effect.suspend(() => {
        const sha = createHash("sha256").update(markdown).digest("hex")
        const known = tooLarge.get(name)
        if (known !== undefined && known.sha === sha) return Effect.succeed(known)
        const least = stateBytesAtLeast(markdown)
        if (least > maxStateBytes) return Effect.succeed<Made>({ state: emptyState(), markdown, bytes: least, unmade: true })
        return Effect.tap(fromPage(markdown), (made) => Effect.sync(() => {
          if (made.bytes > maxStateBytes) tooLarge.set(name, { sha, ...made })
        }))
      })
    const readOnlyPage = (key: CollabDocumentKey, made: Made) =>
      Effect.gen(function*() {
        const reason = (made.unmade ? readOnlyBecause.tooLargeAtLeast : readOnlyBecause.tooLarge)(made.bytes, maxStateBytes)
        yield* Effect.logWarning(`Live document ${key.name} is open read-only: its first state would take ${made.unmade ? "at least " : ""}${made.bytes} bytes`)
        held.set(key.name, heldOf(key, made.state, 0, made.markdown, reason))
        return { state: made.state, stale: false, readOnly: reason as string | undefined }
      })
    return { fromPageOf, readOnlyPage }
  })

/** `relayed`: servers relay through Redis (each open document then catches up with PostgreSQL). */
export const make = (limits: CollabLimits, relayed: boolean) =>
  Effect.gen(function*() {
    const live = yield* LiveDocuments
    const codec = yield* CollabCodec
    const held = new Map<string, Held>()
    /** One lock per change request with documents held here, for their write backs. */
    const changeRequestLocks = new Map<string, Semaphore.Semaphore>()
    const inTurn = <A, E, R>(changeRequestId: string, effect: Effect.Effect<A, E, R>) =>
      Effect.suspend(() => {
        let lock = changeRequestLocks.get(changeRequestId)
        if (lock === undefined) changeRequestLocks.set(changeRequestId, lock = Semaphore.makeUnsafe(1))
        return Semaphore.withPermit(lock, effect)
      })
    const deps: Deps = { live, codec, held, relayed, inTurn }
    const memory = yield* markdownMemory
    const mirrors = CollabUpdateCheck.makeMirrors(codec.check)
    /** A document made from the page's markdown: its state and its own markdown. */
    const fromPage = (markdown: string) =>
      Effect.sync((): Made => {
        const state = codec.fromMarkdown(markdown)
        const doc = docOf([state])
        const own = codec.toMarkdown(doc)
        doc.destroy()
        return { state, markdown: own, bytes: state.length }
      })

    /**
     * The most bytes of a shared document's state: what live editing holds, and never more than a
     * row may store (`maxStoredBytes`, under what the database client reads in one message).
     */
    const maxStateBytes = Math.min(limits.maxDocumentBytes, maxStoredBytes)
    const { fromPageOf, readOnlyPage } = yield* tooLargePages(held, fromPage, codec.stateBytesAtLeast, maxStateBytes)

    /**
     * The document's state for Hocuspocus. The first load stores the state made from the page's
     * markdown, unless another server stored one first (then that one is used); a page whose state
     * would be over `maxStateBytes` is held read-only instead, never stored. A stored document
     * is compared with the page: edits not yet written (the server stopped first) are `stale`, to
     * be written now; a page another writer changed since is made anew from the page; when both
     * changed, the document (acknowledged edits) is kept and a warning logged.
     */
    const load = Effect.fnUntraced(function*(opened: OpenedPage, actor: Actor.ActorShape) {
      const { key } = opened
      let stored = yield* live.stored(key.name)
      let created = false
      if (Option.isNone(stored)) {
        const made = yield* fromPageOf(key.name, opened.markdown)
        if (made.bytes > maxStateBytes) return yield* readOnlyPage(key, made)
        created = yield* live.storeInitial(key, made.state, { page: opened.markdown, doc: made.markdown })
        // Its markdown is known: the read below does not make it again.
        if (created) memory.remember(key.name, [made.state], made.markdown)
        stored = yield* live.stored(key.name)
      }
      const found = Option.getOrThrow(stored)
      const updates = [found.state, ...found.updates.map((u) => u.update)]
      let { doc, markdown } = memory.read(key.name, updates, codec.toMarkdown)
      if (doc?.unreadable !== undefined) yield* Effect.logWarning(`Live document ${key.name}: ${doc.unreadable} stored updates could not be read and were left out`)
      const { now, page } = created ? { now: "agreed", page: opened.markdown } : yield* standingAtLoad(live, found, opened, actor, markdown)
      if (now === "changed-elsewhere") {
        const made = yield* fromPageOf(key.name, page)
        if (made.bytes > maxStateBytes) {
          doc?.destroy()
          return yield* readOnlyPage(key, made)
        }
        yield* live.storeReset(key.name, made.state, { page, doc: made.markdown })
        memory.forget(key.name)
        doc?.destroy()
        doc = docOf([made.state])
        markdown = made.markdown
      } else if (now === "diverged") {
        yield* Effect.logWarning(`Live document ${key.name} and its page both changed since they last agreed: the document is kept`)
      }
      doc ??= updates.length === 1 ? undefined : docOf(updates)
      const state = doc === undefined ? found.state : Y.encodeStateAsUpdate(doc)
      doc?.destroy()
      const stale = now === "unwritten" && opened.access === "edit"
      const document = heldOf(key, state, now === "changed-elsewhere" ? 0 : found.updates.length, stale ? "" : markdown)
      if (stale) document.contributors.set(actor.userId, actor)
      document.unwrittenOnLoad = stale
      document.lastStoredId = now === "changed-elsewhere" ? 0 : found.updates.reduce((last, u) => Math.max(last, Number(u.id)), 0)
      held.set(key.name, document)
      return { state, stale, readOnly: undefined as string | undefined }
    })

    /** Writes the document's markdown back when it changed (`writeBack`); false when it could not (the caller tries again). */
    const writeMarkdown = (name: string, doc: Y.Doc) => Effect.map(withLock(name, writeBack(deps, name, doc)), (done) => done !== false)

    const withLock = <A, E, R>(name: string, effect: Effect.Effect<A, E, R>) =>
      Effect.suspend(() => {
        const document = held.get(name)
        return document === undefined ? Effect.undefined : Semaphore.withPermit(document.lock, effect)
      })

    /** Brings a write from elsewhere into the open document `doc` (`bringIn`), one at a time with the write back. */
    const elsewhere = (name: string, doc: Y.Doc, markdown: Effect.Effect<Option.Option<string>>, write: ElsewhereWrite) =>
      withLock(name, bringIn(deps, name, doc, markdown, write))

    /** What the agent reads of the open document `doc`: none when it is not edited live here (read-only to all, or not loaded). */
    const agentRead = (name: string, doc: Y.Doc) =>
      withLock(name, Effect.sync((): AgentRead | undefined => {
        const document = held.get(name)
        if (document === undefined || document.readOnly !== undefined) return undefined
        return { markdown: codec.toMarkdown(doc), state: Y.encodeStateAsUpdate(doc) }
      }))

    /**
     * With Redis, before a connection to the open document `doc` syncs: the stored updates it
     * lacks are applied (sent to its clients, and written back as Hocuspocus stores after a
     * change), crediting `actor` (who opens it, when they may edit) as a load credits stale edits.
     */
    const catchUpFor = (name: string, doc: Y.Doc, actor: Option.Option<Actor.ActorShape>) =>
      deps.relayed
        ? withLock(name, Effect.map(catchUp(deps, name, doc, { source: "local" }), (changed) => {
          const document = held.get(name)
          if (changed && document !== undefined && Option.isSome(actor)) document.contributors.set(actor.value.userId, actor.value)
        }))
        : Effect.void

    return {
      load,
      store: (name: string, connection: ConnectionState, update: Uint8Array, doc: Y.Doc) => store(deps, limits, mirrors, name, connection, update, doc),
      writeMarkdown,
      elsewhere,
      agentRead,
      /** The agent's write into the open document `doc` (`agentWrite`), one at a time with the write back. */
      agentWrite: (name: string, doc: Y.Doc, from: Uint8Array | undefined, markdown: string, actor: Actor.ActorShape) =>
        withLock(name, agentWrite(deps, limits, name, doc, from, markdown, actor)),
      compact: (name: string) => compact(deps, limits, maxStateBytes, name),
      catchUp: catchUpFor,
      /** Why the open document `name` is read-only to everyone (never stored); none when it is edited live, or not open here. */
      readOnlyReason: (name: string): string | undefined => held.get(name)?.readOnly,
      /** Forgets a document this server unloaded. */
      unload: (name: string) =>
        Effect.sync(() => {
          const document = held.get(name)
          held.delete(name)
          const changeRequestId = document?.key.changeRequestId
          if (changeRequestId !== undefined && !Array.from(held.values()).some((other) => other.key.changeRequestId === changeRequestId)) {
            changeRequestLocks.delete(changeRequestId)
          }
        })
    }
  })

export type CollabDocuments = Effect.Success<ReturnType<typeof make>>
