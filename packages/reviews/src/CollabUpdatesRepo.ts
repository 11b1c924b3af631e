/**
 * Port: the shared documents of live editing, one per (change request, page): a compacted Yjs
 * state and the updates appended since. The bytes are opaque here; the collaboration server merges them.
 */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"

/** What a shared document is about. */
export interface CollabDocumentKey {
  /** `<changeRequestId>/<pageId>`, the name the collaboration server knows it by. */
  readonly name: string
  readonly spaceId: string
  readonly changeRequestId: string
  readonly pageId: string
}

/**
 * The most bytes one stored state or update of a shared document may hold: half of what the
 * database client reads in one message (`@quire/db`'s `clientMaxMessageBytes`), since one row read
 * back is one message and a longer one loses the connection (the embedded server's only one).
 * Every adapter refuses a longer one as a defect (the SQL tables' CHECKs, migration 0012); live
 * editing keeps its documents under it (docs/web.md, "Live editing").
 */
export const maxStoredBytes = 8 * 1024 * 1024

/** A stored update, by the id it was appended under, and who sent it (none: the server, or stored before authors were). */
export interface CollabUpdate {
  readonly id: string
  readonly update: Uint8Array
  readonly author: string | undefined
}

/**
 * The SHA-256 (hex) of the page's markdown and of the document's markdown when the two last
 * agreed: when the document was made from the page, or its markdown was written to the page.
 */
export interface CollabAgreement {
  readonly pageSha: string
  readonly docSha: string
}

/** A shared document as stored: its compacted state (at `version`) and the updates stored since, oldest first. */
export interface StoredCollabDocument extends CollabDocumentKey, CollabAgreement {
  readonly state: Uint8Array
  readonly version: number
  readonly updates: ReadonlyArray<CollabUpdate>
  /**
   * The id of the last update the document held when its markdown was last written to the page
   * (`agree`; 0 before): the updates up to it are in the page, those after it may not be.
   */
  readonly writtenThrough: number
}

export interface CollabUpdatesRepoShape {
  readonly load: (name: string) => Effect.Effect<Option.Option<StoredCollabDocument>>
  /**
   * Stores a new document with its first state unless one of that name exists (another server
   * may have made it meanwhile); answers whether this call made it.
   */
  readonly create: (key: CollabDocumentKey, state: Uint8Array, agreement: CollabAgreement, at: Date) => Effect.Effect<boolean>
  /**
   * Appends an update to an existing document (a defect when there is none), sent by the user
   * `author` (none: the server's own, such as a write from elsewhere brought in); committed when
   * the effect succeeds, which answers its id.
   */
  readonly append: (name: string, update: Uint8Array, author: string | undefined, at: Date) => Effect.Effect<string>
  /**
   * Replaces the state by `state` (which holds the old one and the updates `merged`) and removes
   * those updates, only if the document is still at `version`: false when another compaction won.
   */
  readonly compact: (name: string, version: number, state: Uint8Array, merged: ReadonlyArray<string>, at: Date) => Effect.Effect<boolean>
  /**
   * Records that the page and the document agree again (after the document's markdown was
   * written), and that the updates up to the id `through` are in the page (`writtenThrough`, which
   * never goes back; none: unchanged).
   */
  readonly agree: (name: string, agreement: CollabAgreement, through: number | undefined, at: Date) => Effect.Effect<void>
  /**
   * Records a new agreement only if the page's hash is still `pageSha`: the one server that
   * brings a write from elsewhere into the document claims it so (false when another did first).
   */
  readonly claim: (name: string, pageSha: string, agreement: CollabAgreement, at: Date) => Effect.Effect<boolean>
  /** Replaces the document by a new one made from the page: its state, no updates, the new agreement. */
  readonly reset: (name: string, state: Uint8Array, agreement: CollabAgreement, at: Date) => Effect.Effect<void>
  /** The names of the change request's documents. */
  readonly namesOf: (changeRequestId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Removes the document and its updates. */
  readonly remove: (name: string) => Effect.Effect<void>
  /** Removes every document of the space's change requests. */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

interface MemoryDocument extends CollabDocumentKey, CollabAgreement {
  readonly state: Uint8Array
  readonly version: number
  readonly writtenThrough: number
  readonly updatedAt: Date
}

/** A defect when `bytes` is longer than a stored state or update may be. */
export const checkStored = (what: string, bytes: Uint8Array): Effect.Effect<void> =>
  bytes.length > maxStoredBytes
    ? Effect.die(new Error(`A shared document's ${what} of ${bytes.length} bytes is over the ${maxStoredBytes} a row may hold`))
    : Effect.void

export class CollabUpdatesRepo extends Context.Service<CollabUpdatesRepo, CollabUpdatesRepoShape>()("@quire/reviews/CollabUpdatesRepo") {
  static readonly layerMemory = Layer.sync(CollabUpdatesRepo, () => {
    const documents = new MemoryStore.TxMap<string, MemoryDocument>()
    const updates = new MemoryStore.TxMap<string, { readonly name: string; readonly update: Uint8Array; readonly author: string | undefined }>()
    const sequence = new MemoryStore.TxRef(0)
    // Ids as the SQL adapter's bigserial gives them: increasing, compared as numbers.
    const updatesOf = (name: string): ReadonlyArray<CollabUpdate> =>
      Array.from(updates)
        .filter(([, row]) => row.name === name)
        .map(([id, row]) => ({ id, update: row.update, author: row.author }))
        .toSorted((a, b) => Number(a.id) - Number(b.id))
    const removeWhere = (keep: (doc: MemoryDocument) => boolean) => {
      for (const [name, doc] of Array.from(documents)) {
        if (keep(doc)) continue
        documents.delete(name)
        for (const [id, row] of Array.from(updates)) if (row.name === name) updates.delete(id)
      }
    }
    return CollabUpdatesRepo.of({
      load: (name) =>
        Effect.sync(() => {
          const doc = documents.get(name)
          if (doc === undefined) return Option.none()
          const { updatedAt: _, ...stored } = doc
          return Option.some({ ...stored, updates: updatesOf(name) })
        }),
      create: (key, state, agreement, at) =>
        Effect.andThen(checkStored("state", state), Effect.sync(() => {
          if (documents.has(key.name)) return false
          documents.set(key.name, { ...key, ...agreement, state: Uint8Array.from(state), version: 1, writtenThrough: 0, updatedAt: at })
          return true
        })),
      agree: (name, agreement, through, at) =>
        Effect.sync(() => {
          const doc = documents.get(name)
          if (doc !== undefined) documents.set(name, { ...doc, ...agreement, writtenThrough: Math.max(doc.writtenThrough, through ?? 0), updatedAt: at })
        }),
      claim: (name, pageSha, agreement, at) =>
        Effect.sync(() => {
          const doc = documents.get(name)
          if (doc === undefined || doc.pageSha !== pageSha) return false
          documents.set(name, { ...doc, ...agreement, updatedAt: at })
          return true
        }),
      reset: (name, state, agreement, at) =>
        Effect.andThen(checkStored("state", state), Effect.sync(() => {
          const doc = documents.get(name)
          if (doc === undefined) return
          documents.set(name, { ...doc, ...agreement, state: Uint8Array.from(state), version: doc.version + 1, updatedAt: at })
          for (const [id, row] of Array.from(updates)) if (row.name === name) updates.delete(id)
        })),
      append: (name, update, author, _at) =>
        Effect.andThen(checkStored("update", update), Effect.suspend(() => {
          if (!documents.has(name)) return Effect.die(new Error(`No shared document ${name} to append to`))
          const id = sequence.get() + 1
          sequence.set(id)
          updates.set(String(id), { name, update: Uint8Array.from(update), author })
          return Effect.succeed(String(id))
        })),
      compact: (name, version, state, merged, at) =>
        Effect.andThen(checkStored("state", state), Effect.sync(() => {
          const doc = documents.get(name)
          if (doc === undefined || doc.version !== version) return false
          documents.set(name, { ...doc, state: Uint8Array.from(state), version: version + 1, updatedAt: at })
          for (const id of merged) {
            if (updates.get(id)?.name === name) updates.delete(id)
          }
          return true
        })),
      namesOf: (changeRequestId) =>
        Effect.sync(() =>
          Array.from(documents.values()).filter((doc) => doc.changeRequestId === changeRequestId).map((doc) => doc.name).toSorted()
        ),
      remove: (name) => Effect.sync(() => removeWhere((doc) => doc.name !== name)),
      removeForSpace: (spaceId) => Effect.sync(() => removeWhere((doc) => doc.spaceId !== spaceId))
    })
  })
}
