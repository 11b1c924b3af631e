/** Postgres adapter of StyleguideRepo: `sites_styleguides`, `sites_styleguide_runs`, `sites_styleguide_findings`, `sites_styleguide_checks`. */
import { Array as Arr, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Pagination, Rows } from "@quire/kernel"
import { FindingSource, RunCheck, RunStatus, RunTarget, type SiteStyleguide, type StyleFinding, type StyleguideCheck, type StyleguideRun } from "./Styleguide.ts"
import { findingKey, runKey, StyleguideRepo } from "./StyleguideRepo.ts"

type Row = Record<string, unknown>

const guideRows = Rows.decoder(
  "sites_styleguides",
  Schema.Struct({
    site_id: Schema.String,
    organization_id: Schema.String,
    space_id: Schema.String,
    template: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    created_by: Schema.String
  }),
  (row): SiteStyleguide => ({
    siteId: row.site_id,
    organizationId: row.organization_id,
    spaceId: row.space_id,
    template: row.template,
    createdAt: row.created_at,
    createdBy: row.created_by
  })
)

const runRows = Rows.decoder(
  "sites_styleguide_runs",
  Schema.Struct({
    id: Schema.String,
    organization_id: Schema.String,
    site_id: Schema.String,
    styleguide_space_id: Schema.String,
    spaces: Rows.Json(Schema.Array(Schema.String)),
    target: RunTarget,
    checks: Rows.Json(Schema.Array(RunCheck)),
    status: RunStatus,
    model: Schema.Boolean,
    findings: Schema.Number,
    error: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    created_by: Schema.String,
    finished_at: Schema.NullOr(Rows.Timestamp)
  }),
  (row): StyleguideRun => ({
    id: row.id,
    organizationId: row.organization_id,
    siteId: row.site_id,
    styleguideSpaceId: row.styleguide_space_id,
    spaces: row.spaces,
    target: row.target,
    checks: row.checks,
    status: row.status,
    model: row.model,
    findings: row.findings,
    error: row.error,
    createdAt: row.created_at,
    createdBy: row.created_by,
    finishedAt: row.finished_at
  })
)

const findingRows = Rows.decoder(
  "sites_styleguide_findings",
  Schema.Struct({
    run_id: Schema.String,
    position: Schema.Number,
    space_id: Schema.String,
    change_request_id: Schema.String,
    page_id: Schema.String,
    page_title: Schema.String,
    rule_id: Schema.String,
    rule_title: Schema.String,
    message: Schema.String,
    quote: Schema.String,
    sentence: Schema.String,
    fix: Schema.NullOr(Schema.String),
    source: FindingSource,
    comment_id: Schema.NullOr(Schema.String)
  }),
  (row): StyleFinding => ({
    runId: row.run_id,
    position: row.position,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    pageId: row.page_id,
    pageTitle: row.page_title,
    ruleId: row.rule_id,
    ruleTitle: row.rule_title,
    message: row.message,
    quote: row.quote,
    sentence: row.sentence,
    fix: row.fix,
    source: row.source,
    commentId: row.comment_id
  })
)

const checkRows = Rows.decoder(
  "sites_styleguide_checks",
  Schema.Struct({
    change_request_id: Schema.String,
    site_id: Schema.String,
    space_id: Schema.String,
    run_id: Schema.String,
    checked_at: Schema.NullOr(Rows.Timestamp)
  }),
  (row): StyleguideCheck => ({
    changeRequestId: row.change_request_id,
    siteId: row.site_id,
    spaceId: row.space_id,
    runId: row.run_id,
    checkedAt: row.checked_at
  })
)

const exec = (statement: Effect.Effect<unknown, unknown>) => statement.pipe(Effect.orDie, Effect.asVoid)

export const layer = Layer.effect(
  StyleguideRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const runValues = (r: StyleguideRun) => sql`
      ${r.organizationId}, ${r.siteId}, ${r.styleguideSpaceId}, ${JSON.stringify(r.spaces)}::jsonb, ${r.target},
      ${JSON.stringify(r.checks)}::jsonb, ${r.status}, ${r.model}, ${r.findings}, ${r.error}, ${r.createdAt}, ${r.createdBy}, ${r.finishedAt}`
    return StyleguideRepo.of({
      guideOf: (siteId) =>
        sql<Row>`SELECT * FROM sites_styleguides WHERE site_id = ${siteId}`.pipe(Effect.orDie, Effect.flatMap(guideRows.first)),
      guidesOf: (organizationId) =>
        sql<Row>`SELECT * FROM sites_styleguides WHERE organization_id = ${organizationId} ORDER BY created_at, site_id`.pipe(
          Effect.orDie,
          Effect.flatMap(guideRows.all)
        ),
      putGuide: (g) =>
        exec(sql`
          INSERT INTO sites_styleguides (site_id, organization_id, space_id, template, created_at, created_by)
          VALUES (${g.siteId}, ${g.organizationId}, ${g.spaceId}, ${g.template}, ${g.createdAt}, ${g.createdBy})
          ON CONFLICT (site_id) DO UPDATE SET organization_id = EXCLUDED.organization_id, space_id = EXCLUDED.space_id,
            template = EXCLUDED.template, created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by`),
      insertRun: (r) =>
        exec(sql`
          INSERT INTO sites_styleguide_runs (id, organization_id, site_id, styleguide_space_id, spaces, target, checks, status,
            model, findings, error, created_at, created_by, finished_at)
          VALUES (${r.id}, ${runValues(r)})`),
      updateRun: (r) =>
        exec(sql`
          UPDATE sites_styleguide_runs SET checks = ${JSON.stringify(r.checks)}::jsonb, status = ${r.status}, model = ${r.model},
            findings = ${r.findings}, error = ${r.error}, finished_at = ${r.finishedAt}
          WHERE id = ${r.id}`),
      findRun: (runId) =>
        sql<Row>`SELECT * FROM sites_styleguide_runs WHERE id = ${runId}`.pipe(Effect.orDie, Effect.flatMap(runRows.first)),
      listRuns: (siteId, after, limit) =>
        sql<Row>`
          SELECT * FROM sites_styleguide_runs
          WHERE site_id = ${siteId}
            AND ${after === undefined ? sql`true` : sql`(created_at, id) < (${String(after[0])}::timestamptz, ${String(after[1])})`}
          ORDER BY created_at DESC, id DESC
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(runRows.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, runKey))
        ),
      insertFindings: (items) =>
        !Arr.isReadonlyArrayNonEmpty(items) ? Effect.void : exec(sql`INSERT INTO sites_styleguide_findings ${sql.insert(Arr.map(items, (f): Record<string, unknown> => ({
          run_id: f.runId,
          position: f.position,
          space_id: f.spaceId,
          change_request_id: f.changeRequestId,
          page_id: f.pageId,
          page_title: f.pageTitle,
          rule_id: f.ruleId,
          rule_title: f.ruleTitle,
          message: f.message,
          quote: f.quote,
          sentence: f.sentence,
          fix: f.fix,
          source: f.source,
          comment_id: f.commentId
        })))}`),
      findings: (runId, after, limit) =>
        sql<Row>`
          SELECT * FROM sites_styleguide_findings
          WHERE run_id = ${runId} AND ${after === undefined ? sql`true` : sql`position > ${Number(after[0])}`}
          ORDER BY position
          LIMIT ${limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(findingRows.all),
          Effect.flatMap((items) => Pagination.pageFromRows(items, limit, findingKey))
        ),
      putCheck: (c) =>
        exec(sql`
          INSERT INTO sites_styleguide_checks (change_request_id, site_id, space_id, run_id, checked_at)
          VALUES (${c.changeRequestId}, ${c.siteId}, ${c.spaceId}, ${c.runId}, ${c.checkedAt})
          ON CONFLICT (change_request_id) DO UPDATE SET site_id = EXCLUDED.site_id, space_id = EXCLUDED.space_id,
            run_id = EXCLUDED.run_id, checked_at = EXCLUDED.checked_at, seq = nextval(pg_get_serial_sequence('sites_styleguide_checks', 'seq'))`),
      checksOfSpace: (siteId, spaceId) =>
        sql<Row>`SELECT * FROM sites_styleguide_checks WHERE site_id = ${siteId} AND space_id = ${spaceId} ORDER BY seq DESC`.pipe(
          Effect.orDie,
          Effect.flatMap(checkRows.all)
        ),
      checkOf: (changeRequestId) =>
        sql<Row>`SELECT * FROM sites_styleguide_checks WHERE change_request_id = ${changeRequestId}`.pipe(Effect.orDie, Effect.flatMap(checkRows.first)),
      removeSite: (siteId) =>
        Effect.all([
          exec(sql`DELETE FROM sites_styleguide_findings WHERE run_id IN (SELECT id FROM sites_styleguide_runs WHERE site_id = ${siteId})`),
          exec(sql`DELETE FROM sites_styleguide_runs WHERE site_id = ${siteId}`),
          exec(sql`DELETE FROM sites_styleguide_checks WHERE site_id = ${siteId}`),
          exec(sql`DELETE FROM sites_styleguides WHERE site_id = ${siteId}`)
        ], { discard: true })
    })
  })
)
