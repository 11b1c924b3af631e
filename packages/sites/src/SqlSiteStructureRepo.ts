/** Postgres adapter of SiteStructureRepo: `sites_sections`, `sites_section_groups`, `sites_site_spaces`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { SiteCustomization } from "./domain/Customization.ts"
import type { SiteSection, SiteSectionGroup, SiteSpace } from "./domain/Structure.ts"
import type { SiteExternalLink, SiteSpaceCustomizationRecord } from "./domain/StructureExtras.ts"
import { SiteStructureRepo } from "./SiteStructureRepo.ts"
import { setList } from "./SqlRows.ts"

type Row = Record<string, unknown>

const sections = Rows.decoder(
  "sites_sections",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    title: Schema.String,
    description: Schema.NullOr(Schema.String),
    path: Schema.String,
    condition: Schema.NullOr(Schema.String),
    icon: Schema.NullOr(Schema.String),
    group_id: Schema.NullOr(Schema.String),
    position: Schema.Number,
    default_site_space_id: Schema.NullOr(Schema.String),
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): SiteSection => ({
    id: row.id,
    siteId: row.site_id,
    title: row.title,
    description: row.description,
    path: row.path,
    condition: row.condition,
    icon: row.icon,
    groupId: row.group_id,
    position: row.position,
    defaultSiteSpaceId: row.default_site_space_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const groups = Rows.decoder(
  "sites_section_groups",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    title: Schema.String,
    icon: Schema.NullOr(Schema.String),
    position: Schema.Number,
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): SiteSectionGroup => ({
    id: row.id,
    siteId: row.site_id,
    title: row.title,
    icon: row.icon,
    position: row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const siteSpaces = Rows.decoder(
  "sites_site_spaces",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    section_id: Schema.NullOr(Schema.String),
    space_id: Schema.String,
    path: Schema.String,
    condition: Schema.NullOr(Schema.String),
    position: Schema.Number,
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): SiteSpace => ({
    id: row.id,
    siteId: row.site_id,
    sectionId: row.section_id,
    spaceId: row.space_id,
    path: row.path,
    condition: row.condition,
    position: row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const links = Rows.decoder(
  "sites_external_links",
  Schema.Struct({
    id: Schema.String,
    site_id: Schema.String,
    title: Schema.String,
    description: Schema.NullOr(Schema.String),
    icon: Schema.NullOr(Schema.String),
    url: Schema.String,
    group_id: Schema.NullOr(Schema.String),
    draft: Schema.Boolean,
    condition: Schema.NullOr(Schema.String),
    position: Schema.Number,
    created_at: Rows.Timestamp,
    updated_at: Rows.Timestamp
  }),
  (row): SiteExternalLink => ({
    id: row.id,
    siteId: row.site_id,
    title: row.title,
    description: row.description,
    icon: row.icon,
    url: row.url,
    groupId: row.group_id,
    draft: row.draft,
    condition: row.condition,
    position: row.position,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  })
)

const customizations = Rows.decoder(
  "sites_site_space_customizations",
  Schema.Struct({
    site_space_id: Schema.String,
    site_id: Schema.String,
    settings: Rows.Json(SiteCustomization),
    updated_at: Rows.Timestamp
  }),
  (row): SiteSpaceCustomizationRecord => ({
    siteSpaceId: row.site_space_id,
    siteId: row.site_id,
    settings: row.settings,
    updatedAt: row.updated_at
  })
)

const run = <A>(statement: Effect.Effect<ReadonlyArray<Row>, unknown>, decode: (rows: ReadonlyArray<unknown>) => Effect.Effect<A>) =>
  statement.pipe(Effect.orDie, Effect.flatMap(decode))
const exec = (statement: Effect.Effect<unknown, unknown>) => statement.pipe(Effect.orDie, Effect.asVoid)

export const layer = Layer.effect(
  SiteStructureRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return SiteStructureRepo.of({
      sections: (siteId) => run(sql<Row>`SELECT * FROM sites_sections WHERE site_id = ${siteId} ORDER BY position, created_at, id`, sections.all),
      groups: (siteId) => run(sql<Row>`SELECT * FROM sites_section_groups WHERE site_id = ${siteId} ORDER BY position, created_at, id`, groups.all),
      siteSpaces: (siteId) => run(sql<Row>`SELECT * FROM sites_site_spaces WHERE site_id = ${siteId} ORDER BY position, created_at, id`, siteSpaces.all),
      insertSection: (s) =>
        exec(sql`
          INSERT INTO sites_sections (id, site_id, title, description, path, condition, icon, group_id, position,
            default_site_space_id, created_at, updated_at)
          VALUES (${s.id}, ${s.siteId}, ${s.title}, ${s.description}, ${s.path}, ${s.condition}, ${s.icon}, ${s.groupId},
            ${s.position}, ${s.defaultSiteSpaceId}, ${s.createdAt}, ${s.updatedAt})`),
      updateSection: (id, patch) => run(sql<Row>`UPDATE sites_sections SET ${setList(sql, patch)} WHERE id = ${id} RETURNING *`, sections.first),
      removeSection: (id) => exec(sql`DELETE FROM sites_sections WHERE id = ${id}`),
      insertGroup: (g) =>
        exec(sql`
          INSERT INTO sites_section_groups (id, site_id, title, icon, position, created_at, updated_at)
          VALUES (${g.id}, ${g.siteId}, ${g.title}, ${g.icon}, ${g.position}, ${g.createdAt}, ${g.updatedAt})`),
      updateGroup: (id, patch) => run(sql<Row>`UPDATE sites_section_groups SET ${setList(sql, patch)} WHERE id = ${id} RETURNING *`, groups.first),
      removeGroup: (id) => exec(sql`DELETE FROM sites_section_groups WHERE id = ${id}`),
      insertSiteSpace: (s) =>
        exec(sql`
          INSERT INTO sites_site_spaces (id, site_id, section_id, space_id, path, condition, position, created_at, updated_at)
          VALUES (${s.id}, ${s.siteId}, ${s.sectionId}, ${s.spaceId}, ${s.path}, ${s.condition}, ${s.position},
            ${s.createdAt}, ${s.updatedAt})`),
      updateSiteSpace: (id, patch) => run(sql<Row>`UPDATE sites_site_spaces SET ${setList(sql, patch)} WHERE id = ${id} RETURNING *`, siteSpaces.first),
      removeSiteSpace: (id) =>
        exec(Effect.all([
          sql`DELETE FROM sites_site_spaces WHERE id = ${id}`,
          sql`DELETE FROM sites_site_space_customizations WHERE site_space_id = ${id}`
        ])),
      externalLinks: (siteId) => run(sql<Row>`SELECT * FROM sites_external_links WHERE site_id = ${siteId} ORDER BY position, created_at, id`, links.all),
      insertExternalLink: (l) =>
        exec(sql`
          INSERT INTO sites_external_links (id, site_id, title, description, icon, url, group_id, draft, condition, position,
            created_at, updated_at)
          VALUES (${l.id}, ${l.siteId}, ${l.title}, ${l.description}, ${l.icon}, ${l.url}, ${l.groupId}, ${l.draft},
            ${l.condition}, ${l.position}, ${l.createdAt}, ${l.updatedAt})`),
      updateExternalLink: (id, patch) => run(sql<Row>`UPDATE sites_external_links SET ${setList(sql, patch)} WHERE id = ${id} RETURNING *`, links.first),
      removeExternalLink: (id) => exec(sql`DELETE FROM sites_external_links WHERE id = ${id}`),
      siteSpaceCustomizations: (siteId) =>
        run(sql<Row>`SELECT * FROM sites_site_space_customizations WHERE site_id = ${siteId} ORDER BY site_space_id`, customizations.all),
      putSiteSpaceCustomization: (r) =>
        exec(sql`
          INSERT INTO sites_site_space_customizations (site_space_id, site_id, settings, updated_at)
          VALUES (${r.siteSpaceId}, ${r.siteId}, ${JSON.stringify(r.settings)}::jsonb, ${r.updatedAt})
          ON CONFLICT (site_space_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`),
      removeSiteSpaceCustomization: (id) =>
        sql<Row>`DELETE FROM sites_site_space_customizations WHERE site_space_id = ${id} RETURNING site_space_id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      removeSite: (siteId) =>
        exec(Effect.all([
          sql`DELETE FROM sites_external_links WHERE site_id = ${siteId}`,
          sql`DELETE FROM sites_site_space_customizations WHERE site_id = ${siteId}`,
          sql`DELETE FROM sites_site_spaces WHERE site_id = ${siteId}`,
          sql`DELETE FROM sites_sections WHERE site_id = ${siteId}`,
          sql`DELETE FROM sites_section_groups WHERE site_id = ${siteId}`
        ])),
      siteSpacesOfSpace: (spaceId) =>
        run(sql<Row>`SELECT * FROM sites_site_spaces WHERE space_id = ${spaceId} ORDER BY position, created_at, id`, siteSpaces.all),
      countSiteSpaces: (siteIds) =>
        siteIds.length === 0
          ? Effect.succeed(new Map())
          : sql<{ readonly site_id: string; readonly n: number | string }>`
            SELECT site_id, count(*)::integer AS n FROM sites_site_spaces WHERE ${sql.in("site_id", siteIds)} GROUP BY site_id`.pipe(
            Effect.orDie,
            Effect.map((rows) => {
              const counts = new Map(siteIds.map((id) => [id, 0]))
              for (const row of rows) counts.set(row.site_id, Number(row.n))
              return counts
            })
          )
    })
  })
)
