/** Port: immutable revisions and the content-addressed markdown documents they point to. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { Revision } from "./domain/Revision.ts"

export interface RevisionsRepoShape {
  /** Stores a revision with the documents it introduces (documents already stored are kept). */
  readonly insert: (revision: Revision, documents: ReadonlyMap<string, string>) => Effect.Effect<void>
  readonly find: (revisionId: string) => Effect.Effect<Option.Option<Revision>>
  /** The markdown of the given document hashes (unknown hashes are absent from the map). */
  readonly documents: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
  /** Deletes every revision of a space (documents shared with other spaces stay). */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

export class RevisionsRepo extends Context.Service<RevisionsRepo, RevisionsRepoShape>()("@quire/content/RevisionsRepo") {
  static readonly layerMemory = Layer.sync(RevisionsRepo, () => {
    const revisions = new MemoryStore.TxMap<string, Revision>()
    const documents = new MemoryStore.TxMap<string, string>()
    return RevisionsRepo.of({
      insert: (revision, introduced) =>
        Effect.sync(() => {
          for (const [hash, markdown] of introduced) if (!documents.has(hash)) documents.set(hash, markdown)
          revisions.set(revision.id, revision)
        }),
      find: (revisionId) => Effect.sync(() => Option.fromNullishOr(revisions.get(revisionId))),
      documents: (hashes) =>
        Effect.sync(() => {
          const found = new Map<string, string>()
          for (const hash of hashes) {
            const markdown = documents.get(hash)
            if (markdown !== undefined) found.set(hash, markdown)
          }
          return found
        }),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const [id, revision] of revisions) if (revision.spaceId === spaceId) revisions.delete(id)
        })
    })
  })
}
