/** Port: organizations' glossary entries (`translations_glossary`), and its in-memory adapter. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { GlossaryEntry } from "./Glossary.ts"

export interface GlossaryRepoShape {
  /** The organization's entries, oldest first (a glossary is small: at most `maxEntries`). */
  readonly list: (organizationId: string) => Effect.Effect<ReadonlyArray<GlossaryEntry>>
  readonly find: (organizationId: string, entryId: string) => Effect.Effect<Option.Option<GlossaryEntry>>
  /** Inserts or replaces an entry. */
  readonly put: (entry: GlossaryEntry) => Effect.Effect<void>
  readonly remove: (organizationId: string, entryId: string) => Effect.Effect<void>
}

/** The most entries an organization's glossary holds. */
export const maxEntries = 5000

export class GlossaryRepo extends Context.Service<GlossaryRepo, GlossaryRepoShape>()("@quire/translations/GlossaryRepo") {
  static readonly layerMemory = Layer.sync(GlossaryRepo, () => {
    const rows = new MemoryStore.TxMap<string, GlossaryEntry>()
    const order = (a: GlossaryEntry, b: GlossaryEntry) =>
      a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
    return GlossaryRepo.of({
      list: (organizationId) => Effect.sync(() => Array.from(rows.values()).filter((e) => e.organizationId === organizationId).sort(order)),
      find: (organizationId, entryId) =>
        Effect.sync(() => Option.filter(Option.fromNullishOr(rows.get(entryId)), (e) => e.organizationId === organizationId)),
      put: (entry) => Effect.sync(() => void rows.set(entry.id, entry)),
      remove: (organizationId, entryId) =>
        Effect.sync(() => {
          if (rows.get(entryId)?.organizationId === organizationId) rows.delete(entryId)
        })
    })
  })
}
