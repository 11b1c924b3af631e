/**
 * Postgres adapter of RevisionsRepo: a row per revision, its tree in bounded parts
 * (RevisionParts.ts; rows written before parts hold it inline); documents are rows keyed by hash.
 */
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { BoundedCache, Rows } from "@quire/kernel"
import { FileNode, PageNode, ReusableContentNode, type Revision, RevisionGit, RevisionType, Variables } from "./domain/Revision.ts"
import { defaultRevisionLimits, ownFields, partBytes, unstorableDocument } from "./domain/RevisionLimits.ts"
import { assemblePages, layoutTree, oversizedPart, type PartList, RunCache, type TreeLayout } from "./RevisionParts.ts"
import { type DocumentLinks, keptLinkGraphs, RevisionsRepo, type RevisionsRepoShape } from "./RevisionsRepo.ts"

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

const HashLists = Schema.Struct({ pages: Schema.Array(Schema.String), files: Schema.Array(Schema.String) })

/** A revision's parts by the hash of their body (`content_tree_parts`), pages then files, in order: rows written before part lists. */
const partHashes = Rows.decoder("content_revisions", Schema.Struct({ part_hashes: Rows.Json(HashLists) }), (row) => row.part_hashes)

/** A revision's part lists by the hash of their body (`content_tree_part_lists`), pages then files, in order. */
const partListHashes = Rows.decoder("content_revisions", Schema.Struct({ part_lists: Rows.Json(HashLists) }), (row) => row.part_lists)

const listBodies = Rows.decoder(
  "content_tree_part_lists",
  Schema.Struct({ hash: Schema.String, body: Rows.Json(Schema.Array(Schema.String)) }),
  (row) => [row.hash, row.body] as const
)

const bodies = Rows.decoder("content_tree_parts", Schema.Struct({ hash: Schema.String, body: Schema.String }), (row) => [row.hash, row.body] as const)

const parts = Rows.decoder(
  "content_revision_parts",
  Schema.Struct({ kind: Schema.Literals(["pages", "files"]), body: Rows.Json(Schema.Array(Schema.Unknown)) })
)

const documents = Rows.decoder(
  "content_documents",
  Schema.Struct({ hash: Schema.String, markdown: Schema.String }),
  (row) => [row.hash, row.markdown] as const
)

/**
 * `content_documents.links` (migration 0016): a JSON array whose first element holds a letter per
 * link (`l` a link, `i` an image) and the others the links' URLs as written, in order
 * (`["li","guide.md","chart.png"]`). A revision's graph reads every document's: strings parse
 * without an object each, and PostgreSQL sends text as it is stored.
 */
const encodeLinks = (links: DocumentLinks): string =>
  JSON.stringify([links.map(({ kind }) => (kind === "image" ? "i" : "l")).join(""), ...links.map(({ url }) => url)])

const invalidLinks = (detail: string) => new Rows.InvalidRow("content_documents", `links: ${detail}`)

const decodeLinks = (text: string): DocumentLinks => {
  let list: unknown
  try {
    list = JSON.parse(text)
  } catch {
    throw invalidLinks("not JSON")
  }
  if (!Array.isArray(list) || typeof list[0] !== "string" || list[0].length !== list.length - 1) {
    throw invalidLinks("not a list of kinds followed by as many URLs")
  }
  const kinds: string = list[0]
  const links: Array<{ url: string; kind: "link" | "image" }> = []
  for (let i = 1; i < list.length; i++) {
    const url: unknown = list[i]
    const kind = kinds[i - 1]
    if (typeof url !== "string" || (kind !== "l" && kind !== "i")) throw invalidLinks(`link ${i - 1} is not a kind (l, i) and a URL`)
    links.push({ url, kind: kind === "i" ? "image" : "link" })
  }
  return links
}

const documentLinks = Rows.decoder(
  "content_documents",
  Schema.Struct({ hash: Schema.String, links: Schema.String }),
  (row) => [row.hash, decodeLinks(row.links)] as const
)

const linkGraphParts = Rows.decoder(
  "content_link_graphs",
  Schema.Struct({ part: Schema.Number, parts: Schema.Number, body: Schema.String })
)

/**
 * Characters of one part of a stored link graph: at most 768 KB of UTF-8, under the bound of a row
 * (a 16th of the client's message limit) and of a statement's parameter.
 */
const linkGraphPartChars = 256 * 1024

/** `text` in parts of at most `size` characters, none ending between the two halves of a surrogate pair. */
const textParts = (text: string, size: number): Array<string> => {
  const out: Array<string> = []
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + size)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--
    out.push(text.slice(start, end))
    start = end
  }
  return out.length === 0 ? [""] : out
}

/** Stored link graphs (migration 0019): a graph in parts of `linkGraphPartChars`, written in one transaction. */
const linkGraphStorage = (sql: SqlClient.SqlClient): Pick<RevisionsRepoShape, "linkGraph" | "recordLinkGraph"> => ({
  linkGraph: (revisionId, appBaseUrl, format) =>
    sql<Row>`
      SELECT part, parts, body FROM content_link_graphs
      WHERE revision_id = ${revisionId} AND app_base_url = ${appBaseUrl} AND format = ${format} ORDER BY part`.pipe(
      Effect.orDie,
      Effect.flatMap(linkGraphParts.all),
      // Every part or none: a graph is written in one transaction, but a space's newer graphs may be removing it.
      Effect.map((rows) =>
        rows.length > 0 && rows.every((row, i) => row.part === i && row.parts === rows.length)
          ? Option.some(rows.map((row) => row.body).join(""))
          : Option.none()
      )
    ),
  recordLinkGraph: ({ revisionId, spaceId, appBaseUrl, format, graph }) =>
    Effect.gen(function*() {
      const bodies = textParts(graph, linkGraphPartChars)
      for (const [part, body] of bodies.entries()) {
        yield* sql`
          INSERT INTO content_link_graphs (revision_id, app_base_url, format, part, parts, space_id, body)
          VALUES (${revisionId}, ${appBaseUrl}, ${format}, ${part}, ${bodies.length}, ${spaceId}, ${body})
          ON CONFLICT DO NOTHING`
      }
      yield* sql`
        DELETE FROM content_link_graphs
        WHERE space_id = ${spaceId} AND revision_id NOT IN (
          SELECT revision_id FROM content_link_graphs WHERE space_id = ${spaceId}
          GROUP BY revision_id ORDER BY max(stored_at) DESC LIMIT ${keptLinkGraphs})`
    }).pipe(sql.withTransaction, Effect.orDie)
})

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

/** Characters from which a document already stored is looked up rather than sent again (see `storedWithLinks`). */
const resendBytes = 64 * 1024

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

/** Revisions a server keeps at most, whatever their pages. */
const cachedRevisions = 10_000

/** The tree of the parts read, in order; undefined when a page is out of order. */
const fromParts = (read: ReadonlyArray<{ readonly kind: "pages" | "files"; readonly body: ReadonlyArray<unknown> }>) => {
  const pages = assemblePages(read.flatMap((part) => part.kind === "pages" ? part.body : []))
  return pages === undefined ? undefined : { pages, files: read.flatMap((part) => part.kind === "files" ? part.body : []) }
}

/**
 * The large documents of `rows` stored already with their links: `insert` would only
 * lock their rows, after sending and parsing megabytes (a large page saved again in another
 * change request). Their rows are locked here instead, so that no purge deletes them meanwhile.
 */
const storedWithLinks = (sql: SqlClient.SqlClient, rows: ReadonlyArray<{ readonly hash: string; readonly markdown: string }>) => {
  const large = rows.filter((row) => row.markdown.length >= resendBytes).map((row) => row.hash)
  if (large.length === 0) return Effect.succeed(new Set<string>())
  return sql<{ hash: string }>`
    SELECT hash FROM content_documents WHERE hash = ANY(${large}) AND links IS NOT NULL FOR SHARE`.pipe(
    Effect.map((found) => new Set(found.map((row) => row.hash)))
  )
}

/** A layout's part lists, pages then files. */
const allLists = (tree: TreeLayout): ReadonlyArray<PartList> => [...tree.lists.pages, ...tree.lists.files]

/**
 * How the adapter stores a revision's tree: its row naming its part lists by hash, each list naming
 * parts by hash (rows written before name every part in the row, or a row each, or hold their
 * bodies), and the list and part bodies a space holds once each.
 */
const treeStorage = (sql: SqlClient.SqlClient) => {
  /**
   * The bodies of `bodies` (by hash) that the space does not hold yet, into `table`: those of
   * `stored` (the parent's) it holds, the others are looked up. One statement per new body: no
   * message to the server grows with the tree (the embedded server's socket copies its buffer for
   * every chunk of a message it receives).
   */
  const insertBodies = Effect.fnUntraced(function*(
    table: "content_tree_parts" | "content_tree_part_lists",
    spaceId: string,
    bodies: ReadonlyArray<{ readonly hash: string; readonly body: string }>,
    stored: ReadonlyArray<{ readonly hash: string }>
  ) {
    const known = new Set(stored.map((body) => body.hash))
    const fresh = bodies.filter((body) => !known.has(body.hash))
    if (fresh.length === 0) return
    for (const batch of chunks(Array.from(new Set(fresh.map((body) => body.hash))), hashBatch)) {
      const held = yield* sql<{ hash: string }>`SELECT hash FROM ${sql(table)} WHERE space_id = ${spaceId} AND hash = ANY(${batch})`
      for (const row of held) known.add(row.hash)
    }
    for (const body of fresh) {
      if (known.has(body.hash)) continue
      known.add(body.hash)
      yield* sql`INSERT INTO ${sql(table)} (space_id, hash, body) VALUES (${spaceId}, ${body.hash}, ${body.body}) ON CONFLICT DO NOTHING`
    }
  })

  /**
   * The revision row, naming its part lists (`layoutTree`; its parts each checked to be at most
   * `partBytes`), and the part and list bodies the space does not hold yet: a write that shares
   * its parent's nodes adds the parts and lists around its changes, and a row whose list of lists
   * is one hash per about 32 parts.
   */
  const insertRevision = Effect.fnUntraced(function*(revision: Revision, layout: TreeLayout, previous: TreeLayout | undefined) {
    const lists = JSON.stringify({ pages: layout.lists.pages.map((list) => list.hash), files: layout.lists.files.map((list) => list.hash) })
    yield* sql`
      INSERT INTO content_revisions (id, space_id, parents, type, pages, files, variables, reusable_contents, git, created_at, parts, part_lists)
      VALUES (${revision.id}, ${revision.spaceId}, ${JSON.stringify(revision.parents)}::jsonb, ${revision.type},
        '[]'::jsonb, '[]'::jsonb, ${JSON.stringify(revision.variables)}::jsonb,
        ${revision.reusableContents === undefined || revision.reusableContents.length === 0 ? null : JSON.stringify(revision.reusableContents)}::jsonb,
        ${revision.git === null ? null : JSON.stringify(revision.git)}::jsonb, ${revision.createdAt}, ${layout.parts.length}, ${lists})`
    yield* insertBodies("content_tree_parts", revision.spaceId, layout.parts, previous?.parts ?? [])
    yield* insertBodies("content_tree_part_lists", revision.spaceId, allLists(layout), previous === undefined ? [] : allLists(previous))
  })

  /** The bodies of a revision's parts named in its row, in order; undefined when one is missing. */
  const listedParts = Effect.fnUntraced(function*(spaceId: string, list: { readonly pages: ReadonlyArray<string>; readonly files: ReadonlyArray<string> }) {
    const found = new Map<string, string>()
    for (const batch of chunks(Array.from(new Set([...list.pages, ...list.files])), hashBatch)) {
      const rows = yield* sql<Row>`SELECT hash, body FROM content_tree_parts WHERE space_id = ${spaceId} AND hash = ANY(${batch})`.pipe(
        Effect.flatMap(bodies.all)
      )
      for (const [hash, body] of rows) found.set(hash, body)
    }
    const read: Array<{ readonly kind: "pages" | "files"; readonly body: string }> = []
    for (const kind of ["pages", "files"] as const) {
      for (const hash of list[kind]) {
        const body = found.get(hash)
        if (body === undefined) return undefined
        read.push({ kind, body })
      }
    }
    return read
  }, Effect.orDie)

  /** The part hashes of a revision's part lists, in order; "missing" when a list is. */
  const listedHashes = Effect.fnUntraced(function*(spaceId: string, lists: { readonly pages: ReadonlyArray<string>; readonly files: ReadonlyArray<string> }) {
    const found = new Map<string, ReadonlyArray<string>>()
    for (const batch of chunks(Array.from(new Set([...lists.pages, ...lists.files])), hashBatch)) {
      const rows = yield* sql<Row>`SELECT hash, body FROM content_tree_part_lists WHERE space_id = ${spaceId} AND hash = ANY(${batch})`.pipe(
        Effect.flatMap(listBodies.all)
      )
      for (const [hash, body] of rows) found.set(hash, body)
    }
    const hashesOf = (names: ReadonlyArray<string>): Array<string> | undefined => {
      const out: Array<string> = []
      for (const name of names) {
        const list = found.get(name)
        if (list === undefined) return undefined
        out.push(...list)
      }
      return out
    }
    const pages = hashesOf(lists.pages)
    const files = hashesOf(lists.files)
    return pages === undefined || files === undefined ? "missing" as const : { pages, files }
  }, Effect.orDie)

  /** None when a purge of the revision's space removed it between the reads; otherwise its parts are corrupt. */
  const missingParts = (id: string, detail: string) =>
    Effect.gen(function*() {
      const still = yield* Effect.orDie(sql`SELECT 1 FROM content_revisions WHERE id = ${id}`)
      if (still.length === 0) return Option.none<Revision>()
      return yield* Effect.die(new Rows.InvalidRow("content_revision_parts", detail))
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
      const hashes = row.part_lists !== null && row.part_lists !== undefined
        ? yield* listedHashes(String(row.space_id), yield* Effect.sync(() => partListHashes.decode(row)))
        : row.part_hashes !== null && row.part_hashes !== undefined
        ? yield* Effect.sync(() => partHashes.decode(row))
        : undefined
      if (hashes !== undefined) {
        const listed = hashes === "missing" ? undefined : yield* listedParts(String(row.space_id), hashes)
        const assembled = listed === undefined ? undefined : yield* Effect.sync(() => fromParts(listed.map((part) => ({ kind: part.kind, body: JSON.parse(part.body) as Array<unknown> }))))
        if (assembled === undefined) return yield* missingParts(id, `parts of revision ${id} are missing, or a page is out of order`)
        return Option.some(yield* Effect.sync(() => revisions.decode({ ...row, ...assembled })))
      }
      const read = yield* sql<Row>`
        SELECT p.kind, COALESCE(p.body, t.body) AS body FROM content_revision_parts p
        LEFT JOIN content_tree_parts t ON t.space_id = ${String(row.space_id)} AND t.hash = p.hash
        WHERE p.revision_id = ${id} ORDER BY p.kind, p.position`.pipe(
        Effect.orDie,
        Effect.flatMap(parts.all)
      )
      const assembled = read.length === count ? fromParts(read) : undefined
      if (assembled === undefined) return yield* missingParts(id, `revision ${id} has ${read.length} of its ${count} parts, or a page out of order`)
      return Option.some(yield* Effect.sync(() => revisions.decode({ ...row, ...assembled })))
    })

  return { insertRevision, withTree }
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
      const pagesIn = (page: PageNode): number => {
        let known = subtreePages.get(page)
        if (known === undefined) {
          known = 1 + pagesUnder(page.pages)
          subtreePages.set(page, known)
        }
        return known
      }
      const pagesUnder = (pages: ReadonlyArray<PageNode>): number => {
        let count = 0
        for (const page of pages) count += pagesIn(page)
        return count
      }
      // Over the bound, the space's older revisions go first (a write's parent, which its nodes
      // mostly share), then the least recently used: a large space's commits keep others cached.
      const cache = yield* BoundedCache.make<string, Revision>({
        name: "revisions",
        capacity: cachedRevisions,
        maxWeight: options.cachedPages ?? defaultRevisionLimits.pages * 1.2,
        weigh: (revision) => pagesUnder(revision.pages) + 1,
        evictFirst: (candidate, added) => candidate.spaceId === added.spaceId
      })
      const keep = (revision: Revision) => {
        if (!cache.has(revision.id)) cache.set(revision.id, revision)
      }
      const runs = new RunCache()
      // How each revision this adapter stored was split: a write on top of it looks only at the runs it changed.
      const layouts = new WeakMap<Revision, TreeLayout>()
      const { insertRevision, withTree } = treeStorage(sql)
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
            UPDATE content_documents d SET links = v.links
            FROM (SELECT unnest(${batch.map((row) => row.hash)}::text[]) AS hash, unnest(${batch.map((row) => row.links)}::text[]) AS links) v
            WHERE d.hash = v.hash AND d.links IS NULL`, { discard: true })

      return RevisionsRepo.of({
        insert: (revision, documents, shared = [], links = new Map()) =>
          Effect.gen(function*() {
            const rows = Array.from(documents, ([hash, markdown]) => {
              const found = links.get(hash)
              return { hash, markdown, links: found === undefined ? null : encodeLinks(found) }
            })
            const parent = revision.parents[0] === undefined ? undefined : cache.get(revision.parents[0])
            const previous = parent === undefined || parent.spaceId !== revision.spaceId ? undefined : layouts.get(parent)
            const layout = layoutTree(revision.pages, revision.files, partBytes, ownJson, runs, previous === undefined ? undefined : { layout: previous, size: pagesIn })
            const tree = layout.parts
            const defect = unstorableDocument(documents) ?? oversizedPart(revision.id, tree, partBytes)
            if (defect !== undefined) return yield* Effect.die(new Error(defect))
            const stored = yield* storedWithLinks(sql, rows)
            const unsent = stored.size === 0 ? rows : rows.filter((row) => !stored.has(row.hash))
            for (const batch of documentBatches(unsent, (row) => row.markdown)) {
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
            yield* insertRevision(revision, layout, previous)
            yield* sql.afterCommit(Effect.sync(() => {
              keep(revision)
              layouts.set(revision, layout)
            }))
          }).pipe(sql.withTransaction, Effect.orDie),
        find: (revisionId) => {
          const cached = cache.get(revisionId)
          if (cached !== undefined) return Effect.succeed(Option.some(cached))
          return sql<Row>`SELECT * FROM content_revisions WHERE id = ${revisionId}`.pipe(
            Effect.orDie,
            Effect.flatMap((rows) => rows[0] === undefined ? Effect.succeed(Option.none<Revision>()) : withTree(rows[0])),
            Effect.tap((found) => Option.isSome(found) ? sql.afterCommit(Effect.sync(() => keep(found.value))) : Effect.void)
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
          links.size === 0 ? Effect.void : recordLinks(Array.from(links, ([hash, found]) => ({ hash, links: encodeLinks(found) }))).pipe(Effect.orDie),
        ...linkGraphStorage(sql),
        removeForSpace: (spaceId) =>
          Effect.gen(function*() {
            cache.deleteWhere((revision) => revision.spaceId === spaceId)
            yield* sql`DELETE FROM content_link_graphs WHERE space_id = ${spaceId}`
            yield* sql`
              DELETE FROM content_revision_parts
              WHERE revision_id IN (SELECT id FROM content_revisions WHERE space_id = ${spaceId})`
            yield* sql`DELETE FROM content_revisions WHERE space_id = ${spaceId}`
            yield* sql`DELETE FROM content_tree_parts WHERE space_id = ${spaceId}`
            yield* sql`DELETE FROM content_tree_part_lists WHERE space_id = ${spaceId}`
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
