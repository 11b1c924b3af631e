/** Postgres adapter of ImportedLayoutRepo: `gitsync_imported_layouts` and `gitsync_imported_layout_files`. */
import { Array as Arr, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Rows } from "@quire/kernel"
import { ImportedLayoutRepo, type LayoutFile } from "./ImportedLayoutRepo.ts"

const layouts = Rows.decoder("gitsync_imported_layouts", Schema.Struct({ project_directory: Schema.String, commit: Schema.String }))

const files = Rows.decoder(
  "gitsync_imported_layout_files",
  Schema.Struct({ path: Schema.String, oid: Schema.String, content: Schema.String }),
  (row): readonly [string, LayoutFile] => [row.path, { oid: row.oid, bytes: new Uint8Array(Buffer.from(row.content, "base64")) }]
)

/** Rows per INSERT, well under PostgreSQL's 65,535 parameters. */
const batch = 1000

export const layer = Layer.effect(
  ImportedLayoutRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const remove = (spaceId: string) =>
      Effect.all([
        sql`DELETE FROM gitsync_imported_layout_files WHERE space_id = ${spaceId}`,
        sql`DELETE FROM gitsync_imported_layouts WHERE space_id = ${spaceId}`
      ])
    return ImportedLayoutRepo.of({
      find: (spaceId) =>
        Effect.gen(function*() {
          const found = yield* layouts.first(yield* sql`SELECT project_directory, commit FROM gitsync_imported_layouts WHERE space_id = ${spaceId}`)
          if (Option.isNone(found)) return Option.none()
          const rows = yield* files.all(yield* sql`SELECT path, oid, content FROM gitsync_imported_layout_files WHERE space_id = ${spaceId} ORDER BY path`)
          return Option.some({ projectDirectory: found.value.project_directory, commit: found.value.commit, files: new Map(rows) })
        }).pipe(Effect.orDie),
      header: (spaceId) =>
        sql`SELECT project_directory, commit FROM gitsync_imported_layouts WHERE space_id = ${spaceId}`.pipe(
          Effect.flatMap(layouts.first),
          Effect.map(Option.map((row) => ({ projectDirectory: row.project_directory, commit: row.commit }))),
          Effect.orDie
        ),
      file: (spaceId, path) =>
        sql`SELECT path, oid, content FROM gitsync_imported_layout_files WHERE space_id = ${spaceId} AND path = ${path}`.pipe(
          Effect.flatMap(files.first),
          Effect.map(Option.map(([, file]) => file)),
          Effect.orDie
        ),
      save: (spaceId, layout) =>
        Effect.gen(function*() {
          yield* remove(spaceId)
          yield* sql`INSERT INTO gitsync_imported_layouts (space_id, project_directory, commit)
            VALUES (${spaceId}, ${layout.projectDirectory}, ${layout.commit})`
          const rows = [...layout.files].map(([path, file]) => ({
            space_id: spaceId,
            path,
            oid: file.oid,
            content: Buffer.from(file.bytes).toString("base64")
          }))
          for (const chunk of Arr.chunksOf(rows, batch)) yield* sql`INSERT INTO gitsync_imported_layout_files ${sql.insert(chunk)}`
        }).pipe(sql.withTransaction, Effect.orDie, Effect.asVoid),
      remove: (spaceId) => remove(spaceId).pipe(sql.withTransaction, Effect.orDie, Effect.asVoid)
    })
  })
)
