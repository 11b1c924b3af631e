/** Postgres adapter of CustomFontsRepo: `sites_custom_fonts` and `sites_font_uploads`. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import type { CustomFont, FontUpload } from "./CustomFont.ts"
import { CustomFontsRepo } from "./CustomFontsRepo.ts"

const Format = Schema.Literals(["woff2", "woff"])

const FontRow = Schema.Struct({
  id: Schema.String,
  organization_id: Schema.String,
  font_family: Schema.String,
  faces: Rows.Json(Schema.Array(Schema.Struct({ weight: Schema.Number, storageKey: Schema.String, blobHash: Schema.String, format: Format }))),
  created_at: Rows.Timestamp,
  updated_at: Rows.Timestamp
})

const UploadRow = Schema.Struct({
  organization_id: Schema.String,
  storage_key: Schema.String,
  blob_hash: Schema.String,
  name: Schema.String,
  format: Format,
  size: Schema.Number,
  created_at: Rows.Timestamp
})

const fonts = Rows.decoder("sites_custom_fonts", FontRow, (row): CustomFont => ({
  id: row.id,
  organizationId: row.organization_id,
  fontFamily: row.font_family,
  faces: row.faces,
  createdAt: row.created_at,
  updatedAt: row.updated_at
}))

const uploads = Rows.decoder("sites_font_uploads", UploadRow, (row): FontUpload => ({
  organizationId: row.organization_id,
  storageKey: row.storage_key,
  blobHash: row.blob_hash,
  name: row.name,
  format: row.format,
  size: row.size,
  createdAt: row.created_at
}))

export const layer = Layer.effect(
  CustomFontsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return CustomFontsRepo.of({
      list: (organizationId) =>
        sql`SELECT * FROM sites_custom_fonts WHERE organization_id = ${organizationId} ORDER BY created_at, id`.pipe(
          Effect.orDie,
          Effect.flatMap(fonts.all)
        ),
      find: (fontId) => sql`SELECT * FROM sites_custom_fonts WHERE id = ${fontId}`.pipe(Effect.orDie, Effect.flatMap(fonts.first)),
      put: (f) =>
        sql`
          INSERT INTO sites_custom_fonts (id, organization_id, font_family, faces, created_at, updated_at)
          VALUES (${f.id}, ${f.organizationId}, ${f.fontFamily}, ${JSON.stringify(f.faces)}::jsonb, ${f.createdAt}, ${f.updatedAt})
          ON CONFLICT (id) DO UPDATE SET font_family = EXCLUDED.font_family, faces = EXCLUDED.faces, updated_at = EXCLUDED.updated_at`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      remove: (fontId) => sql`DELETE FROM sites_custom_fonts WHERE id = ${fontId}`.pipe(Effect.orDie, Effect.asVoid),
      putUpload: (u) =>
        sql`
          INSERT INTO sites_font_uploads (organization_id, storage_key, blob_hash, name, format, size, created_at)
          VALUES (${u.organizationId}, ${u.storageKey}, ${u.blobHash}, ${u.name}, ${u.format}, ${u.size}, ${u.createdAt})
          ON CONFLICT (organization_id, storage_key) DO NOTHING`.pipe(Effect.orDie, Effect.asVoid),
      findUpload: (organizationId, storageKey) =>
        sql`SELECT * FROM sites_font_uploads WHERE organization_id = ${organizationId} AND storage_key = ${storageKey}`.pipe(
          Effect.orDie,
          Effect.flatMap(uploads.first)
        )
    })
  })
)
