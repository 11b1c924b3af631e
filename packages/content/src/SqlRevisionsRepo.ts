/**
 * Postgres adapter of RevisionsRepo: a row per revision, its tree in bounded parts
 * (RevisionParts.ts; rows written before parts hold it inline); documents are rows keyed by hash.
 */
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { FileNode, PageNode, ReusableContentNode, type Revision, RevisionGit, RevisionType, Variables } from "./domain/Revision.ts"
import { defaultRevisionLimits, ownFields, partBytes, unstorableDocument } from "./domain/RevisionLimits.ts"
import { assemblePages, oversizedPart, type Part, RunCache, split } from "./RevisionParts.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"

type Row = Record<string, unknown>

const RevisionRow = Schema.Struct({
  id: Schema.String,
  space_id: Schema.String,
  parents: Rows.Json(Schema.Array(Schema.String)),
  type: RevisionType,
  pages: Rows.Json(Schema.Array(PageNode)),
  files: Rows.Json(Schema.Array(FileNode)),
  variables: Rows.Json(Variables),
  /** NULL: no reusable contents. */
  reusable_contents: Schema.NullOr(Rows.Json(Schema.Array(ReusableContentNode))),
  git: Schema.NullOr(Rows.Json(RevisionGit)),
  created_at: Rows.Timestamp,
  /** How many parts hold the tree; NULL: a row written before parts, its tree inline. */
  parts: Schema.NullOr(Schema.Number)
})

const revisions = Rows.decoder("content_revisions", RevisionRow, (row): Revision => ({
  id: row.id,
  spaceId: row.space_id,
  parents: row.parents,
  type: row.type,
  pages: row.pages,
  files: row.files,
  ...(row.reusable_contents === null || row.reusable_contents.length === 0 ? {} : { reusableContents: row.reusable_contents }),
  variables: row.variables,
  git: row.git,
  createdAt: row.created_at
}))

const parts = Rows.decoder(
  "content_revision_parts",
  Schema.Struct({ kind: Schema.Literals(["pages", "files"]), body: Rows.Json(Schema.Array(Schema.Unknown)) })
)

const documents = Rows.decoder(
  "content_documents",
  Schema.Struct({ hash: Schema.String, markdown: Schema.String }),
  (row) => [row.hash, row.markdown] as const
)

const documentLinks = Rows.decoder(
  "content_documents",
  Schema.Struct({ hash: Schema.String, links: Rows.Json(Schema.Array(Schema.Struct({ url: Schema.String, kind: Schema.Literals(["link", "image"]) }))) }),
  (row) => [row.hash, row.links] as const
)

/** Rows of one statement that writes documents: well under the 65,535 parameters a statement may carry (3 a row). */
const documentBatchRows = 1_000

/** Markdown of one statement that writes documents, unless one document alone is larger (at most `documentBytes`). */
const documentBatchBytes = 8 * 1024 * 1024

/**
 * Hashes one statement names (an array parameter of about 70 bytes each, some 700 KB): a write or a
 * link graph of 100,000 documents is several statements, none with a parameter near the client's
 * message limit, and the rows each answers are as many.
 */
const hashBatch = 10_000

/** `all` in runs of at most `size`. */
const chunks = <A>(all: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let start = 0; start < all.length; start += size) out.push(all.slice(start, start + size))
  return out
}

/**
 * The document rows of a write in statements of at most `documentBatchRows` rows and about
 * `documentBatchBytes` of markdown: an import of tens of thousands of pages is many bounded
 * messages, not one over the protocol's parameter count or near its message size.
 */
const documentBatches = <A>(rows: ReadonlyArray<A>, text: (row: A) => string): Array<Arr.NonEmptyArray<A>> => {
  const batches: Array<Arr.NonEmptyArray<A>> = []
  let batch: Array<A> = []
  let bytes = 0
  for (const row of rows) {
    const size = Buffer.byteLength(text(row))
    if (Arr.isArrayNonEmpty(batch) && (batch.length >= documentBatchRows || bytes + size > documentBatchBytes)) {
      batches.push(batch)
      batch = []
      bytes = 0
    }
    batch.push(row)
    bytes += size
  }
  if (Arr.isArrayNonEmpty(batch)) batches.push(batch)
  return batches
}

/** Least recently used revisions, bounded by their pages in all. */
class RevisionCache {
  private readonly entries = new Map<string, { readonly revision: Revision; readonly pages: number }>()
  private pages = 0

  constructor(private readonly maxPages: number, private readonly countPages: (revision: Revision) => number) {}

  get(id: string): Revision | undefined {
    const entry = this.entries.get(id)
    if (entry === undefined) return undefined
    this.entries.delete(id)
    this.entries.set(id, entry)
    return entry.revision
  }

  add(revision: Revision): void {
    const pages = this.countPages(revision) + 1
    if (pages > this.maxPages || this.entries.has(revision.id)) return
    this.entries.set(revision.id, { revision, pages })
    this.pages += pages
    // Over the bound, the space's older revisions go first (a write's parent, which its nodes
    // mostly share), then the least recently used: a large space's commits keep others cached.
    for (const sameSpace of [true, false]) {
      for (const [id, entry] of this.entries) {
        if (this.pages <= this.maxPages) return
        if (id === revision.id || (sameSpace && entry.revision.spaceId !== revision.spaceId)) continue
        this.entries.delete(id)
        this.pages -= entry.pages
      }
    }
  }

  dropSpace(spaceId: string): void {
    for (const [id, entry] of this.entries) {
      if (entry.revision.spaceId !== spaceId) continue
      this.entries.delete(id)
      this.pages -= entry.pages
    }
  }
}

/**
 * Revisions are immutable, so those read are kept, decoded, in a cache bounded by their pages in
 * all (`cachedPages`): a write reads its parent, a merge three revisions, and a large space's
 * tree is megabytes of JSON to transfer, parse and decode. A revision enters the cache once the
 * transaction that inserted or read it commits, so one that rolls back is never found. The
 * default holds the largest revision (`defaultRevisionLimits.pages`, about 130 MB decoded at
 * 100,000 pages of a Git import) and a fifth as many pages of others.
 */
export const layerWith = (options: { readonly cachedPages?: number } = {}) =>
  Layer.effect(
    RevisionsRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Nodes are immutable and a write shares its parent's: each node's JSON, each subtree's page
      // count and each run of nodes' part are made once.
      const subtreePages = new WeakMap<PageNode, number>()
      const pagesUnder = (pages: ReadonlyArray<PageNode>): number => {
        let count = 0
        for (const page of pages) {
          let known = subtreePages.get(page)
          if (known === undefined) {
            known = 1 + pagesUnder(page.pages)
            subtreePages.set(page, known)
          }
          count += known
        }
        return count
      }
      const cache = new RevisionCache(options.cachedPages ?? defaultRevisionLimits.pages * 1.2, (revision) => pagesUnder(revision.pages))
      const runs = new RunCache()
      const nodeJson = new WeakMap<PageNode, string>()
      const ownJson = (page: PageNode): string => {
        const known = nodeJson.get(page)
        if (known !== undefined) return known
        const json = JSON.stringify(ownFields(page))
        nodeJson.set(page, json)
        return json
      }

      /** Sets the links of stored documents that have none recorded, in statements of bounded size (as documents are written). */
      const recordLinks = (rows: ReadonlyArray<{ readonly hash: string; readonly links: string }>) =>
        Effect.forEach(documentBatches(rows, (row) => row.links), (batch) =>
          sql`
            UPDATE content_documents d SET links = v.links::jsonb
            FROM (SELECT unnest(${batch.map((row) => row.hash)}::text[]) AS hash, unnest(${batch.map((row) => row.links)}::text[]) AS links) v
            WHERE d.hash = v.hash AND d.links IS NULL`, { discard: true })

      /**
       * The revision row and its tree's parts (`split`, each checked to be at most `partBytes`): a
       * row per part naming its body by hash, and the bodies the space does not hold yet.
       */
      const insertRevision = Effect.fnUntraced(function*(revision: Revision, tree: ReadonlyArray<Part>) {
        yield* sql`
          INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, reusable_contents, git, created_at, parts)
          VALUES (${revision.id}, ${revision.spaceId}, ${JSON.stringify(revision.parents)}::jsonb, ${revision.type},
            '[]'::jsonb, '[]'::jsonb, ${JSON.stringify(revision.variables)}::jsonb,
            ${revision.reusableContents === undefined || revision.reusableContents.length === 0 ? null : JSON.stringify(revision.reusableContents)}::jsonb,
            ${revision.git === null ? null : JSON.stringify(revision.git)}::jsonb, ${revision.createdAt}, ${tree.length})`
        if (tree.length === 0) return
        const hashes = tree.map((part) => part.hash)
        const held = yield* sql<{ hash: string }>`
          SELECT hash FROM content_tree_parts WHERE space_id = ${revision.spaceId} AND hash = ANY(${hashes})`
        const known = new Set(held.map((row) => row.hash))
        // One statement per new body: no message to the server grows with the tree either (the
        // embedded server's socket copies its buffer for every chunk of a message it receives).
        for (const part of tree) {
          if (known.has(part.hash)) continue
          known.add(part.hash)
          yield* sql`
            INSERT INTO content_tree_parts (space_id, hash, body) VALUES (${revision.spaceId}, ${part.hash}, ${part.body})
            ON CONFLICT DO NOTHING`
        }
        yield* sql`
          INSERT INTO content_revision_parts (revision_id, kind, position, hash)
          SELECT ${revision.id}, unnest(${tree.map((part) => part.kind)}::text[]), unnest(${tree.map((part) => part.position)}::int[]), unnest(${hashes}::text[])`
      })

      /**
       * The revision of a row read, with its tree put back together from its parts (one row each);
       * none when a purge of its space removed it between the two reads.
       */
      const withTree = (row: Row): Effect.Effect<Option.Option<Revision>> =>
        Effect.gen(function*() {
          const count = row.parts
          if (typeof count !== "number" || count === 0) return Option.some(yield* Effect.sync(() => revisions.decode(row)))
          const id = String(row.id)
          const read = yield* sql<Row>`
            SELECT p.kind, COALESCE(p.body, t.body) AS body FROM content_revision_parts p
            LEFT JOIN content_tree_parts t ON t.space_id = ${String(row.space_id)} AND t.hash = p.hash
            WHERE p.revision_id = ${id} ORDER BY p.kind, p.position`.pipe(
            Effect.orDie,
            Effect.flatMap(parts.all)
          )
          const pages = assemblePages(read.flatMap((part) => part.kind === "pages" ? part.body : []))
          if (read.length !== count || pages === undefined) {
            const still = yield* Effect.orDie(sql`SELECT 1 FROM content_revisions WHERE id = ${id}`)
            if (still.length === 0) return Option.none()
            return yield* Effect.die(new Rows.InvalidRow("content_revision_parts", `revision ${id} has ${read.length} of its ${count} parts, or a page out of order`))
          }
          const files = read.flatMap((part) => part.kind === "files" ? part.body : [])
          return Option.some(yield* Effect.sync(() => revisions.decode({ ...row, pages, files })))
        })

      return RevisionsRepo.of({
        insert: (revision, documents, shared = [], links = new Map()) =>
          Effect.gen(function*() {
            const rows = Array.from(documents, ([hash, markdown]) => {
              const found = links.get(hash)
              return { hash, markdown, links: found === undefined ? null : JSON.stringify(found) }
            })
            const tree = split(revision.pages, revision.files, partBytes, ownJson, runs)
            const defect = unstorableDocument(documents) ?? oversizedPart(revision.id, tree, partBytes)
            if (defect !== undefined) return yield* Effect.die(new Error(defect))
            for (const batch of documentBatches(rows, (row) => row.markdown)) {
              // A document stored before its links were recorded gets them now.
              yield* sql`
                INSERT INTO content_documents ${sql.insert(batch)}
                ON CONFLICT (hash) DO UPDATE SET links = EXCLUDED.links
                WHERE content_documents.links IS NULL AND EXCLUDED.links IS NOT NULL`
            }
            for (const held of chunks([...documents.keys(), ...shared], hashBatch)) {
              yield* sql`
                INSERT INTO content_space_documents (space_id, hash)
                SELECT ${revision.spaceId}, unnest(${held}::text[]) ON CONFLICT DO NOTHING`
            }
            yield* insertRevision(revision, tree)
            yield* sql.afterCommit(Effect.sync(() => cache.add(revision)))
          }).pipe(sql.withTransaction, Effect.orDie),
        find: (revisionId) => {
          const cached = cache.get(revisionId)
          if (cached !== undefined) return Effect.succeed(Option.some(cached))
          return sql<Row>`SELECT * FROM content_revisions WHERE id = ${revisionId}`.pipe(
            Effect.orDie,
            Effect.flatMap((rows) => rows[0] === undefined ? Effect.succeed(Option.none<Revision>()) : withTree(rows[0])),
            Effect.tap((found) => Option.isSome(found) ? sql.afterCommit(Effect.sync(() => cache.add(found.value))) : Effect.void)
          )
        },
        history: (from, limit) =>
          sql<Row>`
            WITH RECURSIVE line (id, depth) AS (
              SELECT id, 1 FROM content_revisions WHERE id = ${from}
              UNION ALL
              SELECT r.parents->>0, line.depth + 1 FROM line JOIN content_revisions r ON r.id = line.id
              WHERE line.depth < ${limit} AND jsonb_array_length(r.parents) > 0
            )
            SELECT r.id, r.space_id, r.parents, r.type, '[]'::jsonb AS pages, '[]'::jsonb AS files, '{}'::jsonb AS variables,
              NULL::jsonb AS reusable_contents, r.git, r.created_at, NULL::integer AS parts
            FROM line JOIN content_revisions r ON r.id = line.id ORDER BY line.depth`.pipe(
            Effect.orDie,
            Effect.flatMap((rows) => Effect.sync(() => rows.map((row) => revisions.decode(row)))),
            Effect.map((found) => found.map(({ id, spaceId, parents, type, git, createdAt }) => ({ id, spaceId, parents, type, git, createdAt })))
          ),
        documents: (hashes) =>
          Effect.forEach(chunks(hashes, hashBatch), (batch) =>
            sql<Row>`SELECT hash, markdown FROM content_documents WHERE hash = ANY(${batch})`.pipe(Effect.orDie, Effect.flatMap(documents.all))).pipe(
            Effect.map((batches) => new Map(batches.flat()))
          ),
        documentLinks: (hashes) =>
          Effect.forEach(chunks(hashes, hashBatch), (batch) =>
            sql<Row>`SELECT hash, links FROM content_documents WHERE hash = ANY(${batch}) AND links IS NOT NULL`.pipe(Effect.orDie, Effect.flatMap(documentLinks.all))).pipe(
            Effect.map((batches) => new Map(batches.flat()))
          ),
        recordLinks: (links) =>
          links.size === 0 ? Effect.void : recordLinks(Array.from(links, ([hash, found]) => ({ hash, links: JSON.stringify(found) }))).pipe(Effect.orDie),
        removeForSpace: (spaceId) =>
          Effect.gen(function*() {
            cache.dropSpace(spaceId)
            yield* sql`
              DELETE FROM content_revision_parts
              WHERE revision_id IN (SELECT id FROM content_revisions WHERE space_id = ${spaceId})`
            yield* sql`DELETE FROM content_revisions WHERE space_id = ${spaceId}`
            yield* sql`DELETE FROM content_tree_parts WHERE space_id = ${spaceId}`
            // Documents are shared between spaces by hash: only those no other space holds go.
            yield* sql`
              WITH released AS (DELETE FROM content_space_documents WHERE space_id = ${spaceId} RETURNING hash)
              DELETE FROM content_documents d
              WHERE d.hash IN (SELECT hash FROM released)
                AND NOT EXISTS (SELECT 1 FROM content_space_documents s WHERE s.hash = d.hash AND s.space_id <> ${spaceId})`
          }).pipe(sql.withTransaction, Effect.orDie)
      })
    })
  )

/** The adapter with the default cache. */
export const layer = layerWith()
