/**
 * Postgres adapter of SearchIndex: full-text search over `content_search_sections`, ranked within a
 * bounded set of candidates (see "Search" in docs/content.md).
 */
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { type PageHit, SearchIndex, splitPrefix } from "./SearchIndex.ts"

/** A section that matched, with its page's score. */
const HitRow = Schema.Struct({
  space_id: Schema.String,
  page_id: Schema.String,
  page_score: Schema.Number,
  score: Schema.Number,
  section_id: Schema.String,
  page_title: Schema.String,
  section_title: Schema.String,
  path: Schema.String,
  body: Schema.String
})
const hits = Rows.decoder("content_search_sections", HitRow)

/** Matching sections ranked by body text at most (see above). */
export const candidateCap = 1_000

/** Rows per INSERT statement (8 parameters each, well under PostgreSQL's 65,535). */
const insertChunk = 1_000
/** Characters of section text per INSERT statement. */
const insertChunkText = 64 * 1024

export const layer = Layer.effect(
  SearchIndex,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SearchIndex.of({
      update: (spaceId, pages, removed) =>
        Effect.gen(function*() {
          const pageIds = [...removed, ...pages.map((page) => page.pageId)]
          if (pageIds.length > 0) {
            yield* sql`DELETE FROM content_search_sections WHERE space_id = ${spaceId} AND page_id = ANY(${pageIds})`
          }
          const rows = pages.flatMap((page) =>
            page.sections.map((section, position) => ({
              space_id: spaceId,
              page_id: page.pageId,
              position,
              section_id: section.id,
              page_title: page.title,
              section_title: section.title,
              path: page.path,
              body: section.body
            }))
          )
          // At most `insertChunk` rows and `insertChunkText` characters a statement: PGlite computes the
          // tsvectors in this thread, and one statement for a 1.5 MB page held it for 400 ms.
          let chunk: Array<(typeof rows)[number]> = []
          let text = 0
          for (const row of rows) {
            chunk.push(row)
            text += row.body.length
            if (chunk.length < insertChunk && text < insertChunkText) continue
            if (Arr.isArrayNonEmpty(chunk)) yield* sql`INSERT INTO content_search_sections ${sql.insert(chunk)}`
            chunk = []
            text = 0
          }
          if (Arr.isArrayNonEmpty(chunk)) yield* sql`INSERT INTO content_search_sections ${sql.insert(chunk)}`
        }).pipe(sql.withTransaction, Effect.orDie),
      copySpace: (fromSpaceId, toSpaceId) =>
        sql`
          INSERT INTO content_search_sections (space_id, page_id, position, section_id, page_title, section_title, path, body)
          SELECT ${toSpaceId}, page_id, position, section_id, page_title, section_title, path, body
          FROM content_search_sections WHERE space_id = ${fromSpaceId}`.pipe(Effect.orDie, Effect.asVoid),
      removeSpace: (spaceId) =>
        sql`DELETE FROM content_search_sections WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid),
      search: (query) =>
        Effect.gen(function*() {
          if (query.spaceIds.length === 0 || query.limit <= 0) return { pages: [], more: false }
          // As the user types, the last word is a prefix (`config:*`), reduced to letters and
          // digits: nothing of it can be an operator of to_tsquery.
          const typed = query.prefix === true ? splitPrefix(query.query) : { rest: query.query, word: "" }
          const tsquery = typed.word === ""
            ? sql`websearch_to_tsquery('english', ${query.query})`
            : sql`(websearch_to_tsquery('english', ${typed.rest}) && to_tsquery('english', ${`${typed.word}:*`}))`
          // Pages rank by their best section; the page's best sections come along.
          const rows = yield* sql`
            WITH q AS (SELECT ${tsquery} AS q),
            candidates AS MATERIALIZED (
              (SELECT s.space_id, s.page_id, s.position
                FROM content_search_sections s, q
                WHERE s.tsv @@ q.q AND s.space_id = ANY(${query.spaceIds})
                LIMIT ${candidateCap})
              UNION
              (SELECT s.space_id, s.page_id, s.position
                FROM content_search_sections s, q
                WHERE s.position = 0 AND s.title_tsv @@ q.q AND s.space_id = ANY(${query.spaceIds})
                LIMIT ${candidateCap})
            ),
            -- Candidates are read back by primary key; a title match still needs its section to match
            -- the whole query (other words, excluded words). The match is a column, not a WHERE
            -- condition, so that the planner does not scan the whole GIN index again.
            scored AS MATERIALIZED (
              SELECT s.space_id, s.page_id, s.position, ts_rank(s.tsv, q.q) AS score, s.tsv @@ q.q AS matches
              FROM candidates c
              JOIN content_search_sections s ON s.space_id = c.space_id AND s.page_id = c.page_id AND s.position = c.position,
              q
            ),
            hits AS (SELECT space_id, page_id, position, score FROM scored WHERE matches),
            ranked AS (
              SELECT space_id, page_id, max(score) AS page_score
              FROM hits GROUP BY space_id, page_id
              ORDER BY page_score DESC, space_id, page_id
              OFFSET ${query.offset} LIMIT ${query.limit + 1}
            ),
            best AS (
              SELECT h.space_id, h.page_id, h.position, h.score, r.page_score,
                row_number() OVER (PARTITION BY h.space_id, h.page_id ORDER BY h.score DESC, h.position) AS n
              FROM hits h JOIN ranked r ON r.space_id = h.space_id AND r.page_id = h.page_id
            )
            SELECT b.space_id, b.page_id, b.page_score, b.score, s.section_id, s.page_title, s.section_title, s.path, s.body
            FROM best b
            JOIN content_search_sections s ON s.space_id = b.space_id AND s.page_id = b.page_id AND s.position = b.position
            WHERE b.n <= ${query.sectionsPerPage}
            ORDER BY b.page_score DESC, b.space_id, b.page_id, b.n`.pipe(Effect.flatMap(hits.all))
          const pages: Array<PageHit & { sections: Array<PageHit["sections"][number]> }> = []
          for (const row of rows) {
            const spaceId = row.space_id
            const pageId = row.page_id
            let last = pages.at(-1)
            if (last === undefined || last.spaceId !== spaceId || last.pageId !== pageId) {
              last = { spaceId, pageId, title: row.page_title, path: row.path, score: row.page_score, sections: [] }
              pages.push(last)
            }
            last.sections.push({ id: row.section_id, title: row.section_title, body: row.body, score: row.score })
          }
          return { pages: pages.slice(0, query.limit), more: pages.length > query.limit }
        }).pipe(Effect.orDie)
    })
  })
)
