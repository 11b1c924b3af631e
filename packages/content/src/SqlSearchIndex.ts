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
            yield* sql`DELETE FROM content_search_titles WHERE space_id = ${spaceId} AND page_id = ANY(${pageIds})`
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
          // tsvectors in this thread, so one statement for a whole large page would hold the event loop.
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
          // Each page's title row, with its first section's tsvector as just computed.
          const written = pages.filter((page) => page.sections.length > 0).map((page) => page.pageId)
          if (written.length > 0) {
            yield* sql`
              INSERT INTO content_search_titles (space_id, page_id, title_tsv, tsv)
              SELECT space_id, page_id, to_tsvector('english', page_title), tsv FROM content_search_sections
              WHERE space_id = ${spaceId} AND page_id = ANY(${written}) AND position = 0`
          }
        }).pipe(sql.withTransaction, Effect.orDie),
      copySpace: (fromSpaceId, toSpaceId) =>
        Effect.gen(function*() {
          yield* sql`
            INSERT INTO content_search_sections (space_id, page_id, position, section_id, page_title, section_title, path, body)
            SELECT ${toSpaceId}, page_id, position, section_id, page_title, section_title, path, body
            FROM content_search_sections WHERE space_id = ${fromSpaceId}`
          yield* sql`
            INSERT INTO content_search_titles (space_id, page_id, title_tsv, tsv)
            SELECT ${toSpaceId}, page_id, title_tsv, tsv FROM content_search_titles WHERE space_id = ${fromSpaceId}`
        }).pipe(sql.withTransaction, Effect.orDie),
      removeSpace: (spaceId) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM content_search_sections WHERE space_id = ${spaceId}`
          yield* sql`DELETE FROM content_search_titles WHERE space_id = ${spaceId}`
        }).pipe(sql.withTransaction, Effect.orDie),
      search: (query) =>
        Effect.gen(function*() {
          if (query.spaceIds.length === 0 || query.limit <= 0) return { pages: [], more: false }
          // As the user types, the last word is a prefix (`config:*`), reduced to letters and
          // digits: nothing of it can be an operator of to_tsquery.
          const typed = query.prefix === true ? splitPrefix(query.query) : { rest: query.query, word: "" }
          const tsquery = typed.word === ""
            ? sql`websearch_to_tsquery('english', ${query.query})`
            : sql`(websearch_to_tsquery('english', ${typed.rest}) && to_tsquery('english', ${`${typed.word}:*`}))`
          // The query is written out where it is used, not taken from a CTE, so that the planner
          // sees it and knows from the statistics how many sections match: a frequent word is
          // read from the table in order until the cap is reached (a GIN bitmap scan would collect
          // every match first), a rarer one from the index. Pages rank by their best section; the
          // page's best sections come along, in one pass over the candidates.
          const search = sql`
            WITH hits AS MATERIALIZED (
              (SELECT s.space_id, s.page_id, s.position, ts_rank(s.tsv, ${tsquery}) AS score, true AS matches
                FROM content_search_sections s
                WHERE s.tsv @@ ${tsquery} AND s.space_id = ANY(${query.spaceIds}) AND s.ctid >= '(0,0)'::tid
                LIMIT ${candidateCap})
              UNION
              -- Title matches come from their own narrow table (one row per page: the title's and the
              -- first section's tsvectors), dense enough that 1,000 of them are a few blocks. A title
              -- match still needs its first section to match the whole query (other words, excluded
              -- words). That is a column, not a WHERE condition, so that the planner does not scan
              -- the whole GIN index again.
              (SELECT t.space_id, t.page_id, 0 AS position, ts_rank(t.tsv, ${tsquery}) AS score, t.tsv @@ ${tsquery} AS matches
                FROM content_search_titles t
                WHERE t.title_tsv @@ ${tsquery} AND t.space_id = ANY(${query.spaceIds}) AND t.ctid >= '(0,0)'::tid
                LIMIT ${candidateCap})
            ),
            ranked AS (
              SELECT space_id, page_id, max(score) AS page_score,
                (array_agg(position ORDER BY score DESC, position))[1:${query.sectionsPerPage}] AS positions,
                (array_agg(score ORDER BY score DESC, position))[1:${query.sectionsPerPage}] AS scores
              FROM hits WHERE matches
              GROUP BY space_id, page_id
              ORDER BY page_score DESC, space_id, page_id
              OFFSET ${query.offset} LIMIT ${query.limit + 1}
            )
            SELECT r.space_id, r.page_id, r.page_score, b.score, s.section_id, s.page_title, s.section_title, s.path, s.body
            FROM ranked r
            CROSS JOIN LATERAL unnest(r.positions, r.scores) WITH ORDINALITY AS b(position, score, n)
            JOIN content_search_sections s ON s.space_id = r.space_id AND s.page_id = r.page_id AND s.position = b.position
            ORDER BY r.page_score DESC, r.space_id, r.page_id, b.n`
          // Unprepared: PostgreSQL plans an unnamed statement for its parameters, these words, where a
          // prepared one would go generic after five runs. The candidates, hence every page of
          // results, are the same from one request to the next, because a table is read from its
          // start by one process: `ctid >= '(0,0)'` lets the planner read it with a TID range scan
          // where it would scan it all, and that scan, unlike a sequential one, never starts where
          // another scan of the table is (synchronized scans); both tables have parallel_workers 0.
          const rows = yield* Effect.flatMap(search.unprepared, hits.all)
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
