/** Postgres adapter of SiteQuestionsRepo: `sites_questions` and `sites_question_answers`. */
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { AskChannel, AskOutcome, type StoredAnswer, type StoredQuestion } from "../domain/SiteQuestion.ts"
import { SiteQuestionsRepo } from "./SiteQuestionsRepo.ts"

const questionRows = Rows.decoder(
  "sites_questions",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    site_id: Schema.String,
    key: Schema.String,
    text: Schema.String,
    created_at: Rows.Timestamp
  }),
  (row): StoredQuestion => ({
    id: row.id,
    organizationId: row.organization_id,
    siteId: row.site_id,
    key: row.key,
    text: row.text,
    createdAt: row.created_at
  })
)

const Source = Schema.Struct({
  n: Schema.Finite,
  title: Schema.String,
  spaceId: Schema.String,
  pageId: Schema.String,
  revisionId: Schema.String,
  sections: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String })),
  cited: Schema.Boolean
})

const answerRows = Rows.decoder(
  "sites_question_answers",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    site_id: Schema.String,
    question_id: Schema.String,
    at: Rows.Timestamp,
    raw: Schema.String,
    text: Schema.String,
    channel: AskChannel,
    outcome: AskOutcome,
    language: Schema.NullOr(Schema.String),
    answer: Schema.String,
    site_spaces: Rows.Json(Schema.Array(Schema.String)),
    sources: Rows.Json(Schema.Array(Source))
  }),
  (row): StoredAnswer => ({
    id: row.id,
    organizationId: row.organization_id,
    siteId: row.site_id,
    questionId: row.question_id,
    at: row.at,
    raw: row.raw,
    text: row.text,
    channel: row.channel,
    outcome: row.outcome,
    language: row.language,
    answer: row.answer,
    siteSpaces: row.site_spaces,
    sources: row.sources
  })
)

export const layer = Layer.effect(
  SiteQuestionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SiteQuestionsRepo.of({
      record: (question, answer) =>
        Effect.gen(function*() {
          yield* sql`
            INSERT INTO sites_questions ${
            sql.insert({
              id: question.id,
              organization_id: question.organizationId,
              site_id: question.siteId,
              key: question.key,
              text: question.text,
              created_at: question.createdAt
            })
          } ON CONFLICT (site_id, key) DO NOTHING`
          const found = yield* sql<{ readonly id: string }>`SELECT id FROM sites_questions WHERE site_id = ${question.siteId} AND key = ${question.key}`
          const questionId = found[0]?.id ?? question.id
          yield* sql`
            INSERT INTO sites_question_answers ${
            sql.insert({
              id: answer.id,
              organization_id: answer.organizationId,
              site_id: answer.siteId,
              question_id: questionId,
              at: answer.at,
              raw: answer.raw,
              text: answer.text,
              channel: answer.channel,
              outcome: answer.outcome,
              language: answer.language,
              answer: answer.answer,
              site_spaces: JSON.stringify(answer.siteSpaces),
              sources: JSON.stringify(answer.sources)
            })
          } ON CONFLICT (id) DO NOTHING`
          return questionId
        }).pipe(sql.withTransaction, Effect.orDie),
      questions: (siteId) =>
        sql`SELECT * FROM sites_questions WHERE site_id = ${siteId} ORDER BY created_at, id`.pipe(Effect.orDie, Effect.flatMap(questionRows.all)),
      question: (siteId, questionId) =>
        sql`SELECT * FROM sites_questions WHERE site_id = ${siteId} AND id = ${questionId}`.pipe(
          Effect.orDie,
          Effect.flatMap(questionRows.all),
          Effect.map((rows) => Option.fromNullishOr(rows[0]))
        ),
      answers: (siteId, from, to, limit) =>
        sql`
          SELECT * FROM sites_question_answers WHERE site_id = ${siteId} AND at >= ${from} AND at < ${to}
          ORDER BY at DESC, id DESC LIMIT ${limit}`.pipe(Effect.orDie, Effect.flatMap(answerRows.all)),
      answer: (siteId, answerId) =>
        sql`SELECT * FROM sites_question_answers WHERE site_id = ${siteId} AND id = ${answerId}`.pipe(
          Effect.orDie,
          Effect.flatMap(answerRows.all),
          Effect.map((rows) => Option.fromNullishOr(rows[0]))
        ),
      removeSite: (siteId) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM sites_question_answers WHERE site_id = ${siteId}`
          yield* sql`DELETE FROM sites_questions WHERE site_id = ${siteId}`
        }).pipe(sql.withTransaction, Effect.orDie),
      purgeBefore: (before) =>
        Effect.gen(function*() {
          const removed = yield* sql<{ readonly id: string }>`DELETE FROM sites_question_answers WHERE at < ${before} RETURNING id`
          if (removed.length > 0) {
            yield* sql`DELETE FROM sites_questions q WHERE NOT EXISTS (SELECT 1 FROM sites_question_answers a WHERE a.question_id = q.id)`
          }
          return removed.length
        }).pipe(sql.withTransaction, Effect.orDie)
    })
  })
)
