/** Postgres adapter of SpaceCountersRepo: one row per space, upserted by each change. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { noCounters, type SpaceCounters } from "./domain/SpaceCounters.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"

const CountersRow = Schema.Struct({
  space_id: Schema.String,
  comments: Schema.Number,
  change_requests: Schema.Number,
  change_requests_open: Schema.Number,
  change_requests_draft: Schema.Number
})
const counters = Rows.decoder("reviews_space_counters", CountersRow, (row) => [row.space_id, {
  comments: row.comments,
  changeRequests: row.change_requests,
  changeRequestsOpen: row.change_requests_open,
  changeRequestsDraft: row.change_requests_draft
} satisfies SpaceCounters] as const)

export const layer = Layer.effect(
  SpaceCountersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SpaceCountersRepo.of({
      add: (spaceId, delta) => {
        const d = { ...noCounters, ...delta }
        return sql`
          INSERT INTO reviews_space_counters AS c (space_id, comments, change_requests, change_requests_open, change_requests_draft)
          VALUES (${spaceId}, GREATEST(0, ${d.comments}::integer), GREATEST(0, ${d.changeRequests}::integer),
            GREATEST(0, ${d.changeRequestsOpen}::integer), GREATEST(0, ${d.changeRequestsDraft}::integer))
          ON CONFLICT (space_id) DO UPDATE SET
            comments = GREATEST(0, c.comments + ${d.comments}::integer),
            change_requests = GREATEST(0, c.change_requests + ${d.changeRequests}::integer),
            change_requests_open = GREATEST(0, c.change_requests_open + ${d.changeRequestsOpen}::integer),
            change_requests_draft = GREATEST(0, c.change_requests_draft + ${d.changeRequestsDraft}::integer)`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
      },
      forSpaces: (spaceIds) =>
        (spaceIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT * FROM reviews_space_counters WHERE ${sql.in("space_id", spaceIds)}`.pipe(
            Effect.orDie,
            Effect.flatMap(counters.all)
          )).pipe(
            Effect.map((rows) => {
              const found = new Map<string, SpaceCounters>(rows)
              return new Map(spaceIds.map((id) => [id, found.get(id) ?? noCounters]))
            })
          ),
      removeSpace: (spaceId) => sql`DELETE FROM reviews_space_counters WHERE space_id = ${spaceId}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
