/** Port: immutable revisions and the content-addressed markdown documents they point to. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { Revision } from "./domain/Revision.ts"
import { partBytes, unstorableDocument } from "./domain/RevisionLimits.ts"
import { oversizedPart, RunCache, split } from "./RevisionParts.ts"

/** What a listing of revisions shows of each: no tree, files, variables or reusable contents. */
export type RevisionHeader = Pick<Revision, "id" | "spaceId" | "parents" | "type" | "git" | "createdAt">

const headerOf = (revision: Revision): RevisionHeader => ({
  id: revision.id,
  spaceId: revision.spaceId,
  parents: revision.parents,
  type: revision.type,
  git: revision.git,
  createdAt: revision.createdAt
})

/** A document's outgoing links as written (before they are resolved against a revision). */
export type DocumentLinks = ReadonlyArray<{ readonly url: string; readonly kind: "link" | "image" }>

/** A revision's link graph as `ContentLinks` encodes it, for one app URL and graph format. */
export interface StoredLinkGraph {
  readonly revisionId: string
  readonly spaceId: string
  readonly appBaseUrl: string
  readonly format: number
  readonly graph: string
}

/** How many revisions of a space keep their stored link graphs: the current one and a few before it (change requests, open listings). */
export const keptLinkGraphs = 4

export interface RevisionsRepoShape {
  /**
   * Stores a revision with the documents it introduces (documents already stored are kept), and the
   * outgoing links of those `links` names. `shared` names documents it points to that only other
   * spaces' revisions introduced (a duplicate): the space now holds them too, so that purging the
   * other space keeps them.
   */
  readonly insert: (
    revision: Revision,
    documents: ReadonlyMap<string, string>,
    shared?: Iterable<string>,
    links?: ReadonlyMap<string, DocumentLinks>
  ) => Effect.Effect<void>
  readonly find: (revisionId: string) => Effect.Effect<Option.Option<Revision>>
  /** `from` and its first parents, newest first, at most `limit`: a line of history (empty when `from` is unknown). */
  readonly history: (from: string, limit: number) => Effect.Effect<ReadonlyArray<RevisionHeader>>
  /** The markdown of the given document hashes (unknown hashes are absent from the map). */
  readonly documents: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
  /** The recorded outgoing links of the given documents (those not recorded, or unknown, are absent). */
  readonly documentLinks: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, DocumentLinks>>
  /** Records the outgoing links of stored documents that have none recorded (others are left as they are). */
  readonly recordLinks: (links: ReadonlyMap<string, DocumentLinks>) => Effect.Effect<void>
  /** The link graph of a revision stored by `recordLinkGraph` for the app URL and graph format, if it is still kept. */
  readonly linkGraph: (revisionId: string, appBaseUrl: string, format: number) => Effect.Effect<Option.Option<string>>
  /**
   * Stores the link graph of a revision (a graph stored already is kept): a space keeps those of the
   * `keptLinkGraphs` revisions whose graphs were stored last, any app URL or format.
   */
  readonly recordLinkGraph: (graph: StoredLinkGraph) => Effect.Effect<void>
  /** Deletes every revision of a space, and the documents no other space's revisions point to. */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

const graphKey = (revisionId: string, appBaseUrl: string, format: number) => JSON.stringify([revisionId, appBaseUrl, format])

export class RevisionsRepo extends Context.Service<RevisionsRepo, RevisionsRepoShape>()("@quire/content/RevisionsRepo") {
  static readonly layerMemory = Layer.sync(RevisionsRepo, () => {
    const revisions = new MemoryStore.TxMap<string, Revision>()
    const documents = new MemoryStore.TxMap<string, string>()
    const linksOf = new MemoryStore.TxMap<string, DocumentLinks>()
    /** Stored link graphs by revision, app URL and format, in the order they were stored. */
    const graphs = new MemoryStore.TxMap<string, StoredLinkGraph>()
    /** The documents each space's revisions point to. */
    const held = new MemoryStore.TxMap<string, ReadonlySet<string>>()
    const runs = new RunCache()
    return RevisionsRepo.of({
      insert: (revision, introduced, shared = [], links = new Map()) =>
        Effect.sync(() => {
          // What the SQL adapter cannot store, this one refuses as well.
          const defect = unstorableDocument(introduced) ?? oversizedPart(revision.id, split(revision.pages, revision.files, partBytes, undefined, runs), partBytes)
          if (defect !== undefined) throw new Error(defect)
          for (const [hash, markdown] of introduced) {
            if (!documents.has(hash)) documents.set(hash, markdown)
            // A document stored before its links were recorded gets them now.
            const found = links.get(hash)
            if (found !== undefined && !linksOf.has(hash)) linksOf.set(hash, found)
          }
          held.set(revision.spaceId, new Set([...(held.get(revision.spaceId) ?? []), ...introduced.keys(), ...shared]))
          revisions.set(revision.id, revision)
        }),
      find: (revisionId) => Effect.sync(() => Option.fromNullishOr(revisions.get(revisionId))),
      history: (from, limit) =>
        Effect.sync(() => {
          const line: Array<RevisionHeader> = []
          let next: string | undefined = from
          while (next !== undefined && line.length < limit) {
            const found = revisions.get(next)
            if (found === undefined) break
            line.push(headerOf(found))
            next = found.parents[0]
          }
          return line
        }),
      documents: (hashes) =>
        Effect.sync(() => {
          const found = new Map<string, string>()
          for (const hash of hashes) {
            const markdown = documents.get(hash)
            if (markdown !== undefined) found.set(hash, markdown)
          }
          return found
        }),
      documentLinks: (hashes) =>
        Effect.sync(() => {
          const found = new Map<string, DocumentLinks>()
          for (const hash of hashes) {
            const links = linksOf.get(hash)
            if (links !== undefined) found.set(hash, links)
          }
          return found
        }),
      recordLinks: (links) =>
        Effect.sync(() => {
          for (const [hash, found] of links) if (documents.has(hash) && !linksOf.has(hash)) linksOf.set(hash, found)
        }),
      linkGraph: (revisionId, appBaseUrl, format) => Effect.sync(() => Option.map(Option.fromNullishOr(graphs.get(graphKey(revisionId, appBaseUrl, format))), (stored) => stored.graph)),
      recordLinkGraph: (graph) =>
        Effect.sync(() => {
          const key = graphKey(graph.revisionId, graph.appBaseUrl, graph.format)
          if (graphs.has(key)) return
          graphs.set(key, graph)
          // The space's revisions whose graphs were stored last (a map iterates in the order of insertion).
          const kept = new Set<string>()
          for (const stored of Array.from(graphs.values()).toReversed()) {
            if (stored.spaceId === graph.spaceId && kept.size < keptLinkGraphs) kept.add(stored.revisionId)
          }
          for (const [k, stored] of graphs) if (stored.spaceId === graph.spaceId && !kept.has(stored.revisionId)) graphs.delete(k)
        }),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const [id, revision] of revisions) if (revision.spaceId === spaceId) revisions.delete(id)
          for (const [key, stored] of graphs) if (stored.spaceId === spaceId) graphs.delete(key)
          const released = held.get(spaceId) ?? new Set<string>()
          held.delete(spaceId)
          const stillHeld = new Set<string>()
          for (const hashes of held.values()) for (const hash of hashes) if (released.has(hash)) stillHeld.add(hash)
          for (const hash of released) {
            if (stillHeld.has(hash)) continue
            documents.delete(hash)
            linksOf.delete(hash)
          }
        })
    })
  })
}
