/**
 * A whole instance in one file: every table's rows, read in one snapshot, and the bytes of the
 * files those rows name, as gzipped JSON lines (the format is in docs/operations.md, "Dump and
 * restore"). `write` reads any database the client reaches, embedded or PostgreSQL; `restore`
 * loads a dump into a migrated, empty database in one transaction and checks what it loaded.
 */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { SqlClient as Sql } from "effect/sql"
import { once } from "node:events"
import { createWriteStream } from "node:fs"
import { rename, rm } from "node:fs/promises"
import { createInterface } from "node:readline"
import { createGunzip, createGzip } from "node:zlib"
import * as DumpCipher from "./DumpCipher.ts"

/** The first line's `format`: a file without it is no Quire dump. */
export const format = "quire-dump"
/** The version of the line format; a reader refuses a newer one. */
export const formatVersion = 1

/** Where file bytes are read from (dump) or written to (restore): the BlobStore, by hash. */
export interface Blobs {
  readonly get: (hash: string) => Effect.Effect<Option.Option<Uint8Array>>
  readonly put: (bytes: Uint8Array) => Effect.Effect<string>
}

/** The first line of a dump. */
export interface Manifest {
  readonly format: typeof format
  readonly version: number
  readonly createdAt: string
  /** The database dumped: `embedded` (PGlite) or `postgres`. */
  readonly source: string
  /** Each package's migrations table and the migrations it records (`<id>_<name>`), which the target must match. */
  readonly migrations: Record<string, ReadonlyArray<string>>
  /** Every table in load order (a table after those its foreign keys name) with its row count. */
  readonly tables: ReadonlyArray<{ readonly name: string; readonly rows: number }>
  /** Every sequence's state, set again on restore. */
  readonly sequences: ReadonlyArray<{ readonly name: string; readonly value: string; readonly called: boolean }>
}

/** The last line of a dump: a file without it was cut short. */
export interface Trailer {
  readonly rows: number
  readonly blobs: number
  readonly blobBytes: number
  /** Hashes that rows name as a file's `blob` but the store did not hold when the dump was made. */
  readonly missingBlobs: ReadonlyArray<string>
}

/** A dump or restore that cannot go on, in words for the person running it. */
export class DumpError extends Error {
  override readonly name = "DumpError"
}

const fail = (message: string) => Effect.die(new DumpError(message))

/** Rows fetched from the cursor at a time, and rows inserted per statement on restore. */
const batchRows = 500
/** A restore's insert is also cut when its JSON passes this many characters. */
const batchChars = 4 * 1024 * 1024

const hashPattern = /[0-9a-f]{64}/g
const blobFieldPattern = /"blob"\s*:\s*"([0-9a-f]{64})"/g

interface Table {
  readonly name: string
  readonly generated: ReadonlyArray<string>
  readonly columns: ReadonlyArray<string>
}

const quoteIdent = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`

/** The tables of the current schema (partitions are read through their parent), with their stored and generated columns. */
const listTables = Effect.fnUntraced(function*(sql: SqlClient.SqlClient) {
  const rows = yield* sql<{ readonly name: string; readonly column: string; readonly generated: boolean }>`
    SELECT c.relname AS name, a.attname AS column, a.attgenerated <> '' AS generated
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname, a.attnum`
  const tables = new Map<string, { generated: Array<string>; columns: Array<string> }>()
  for (const row of rows) {
    const table = tables.get(row.name) ?? { generated: [], columns: [] }
    tables.set(row.name, table)
    ;(row.generated ? table.generated : table.columns).push(row.column)
  }
  return [...tables].map(([name, table]): Table => ({ name, ...table }))
})

/** `tables` ordered so that a table comes after every table its foreign keys reference (a cycle is broken by name). */
const loadOrder = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, tables: ReadonlyArray<Table>) {
  const edges = yield* sql<{ readonly child: string; readonly parent: string }>`
    SELECT c.relname AS child, p.relname AS parent
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid
    JOIN pg_class p ON p.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE k.contype = 'f' AND n.nspname = current_schema()`
  const parents = new Map<string, Set<string>>()
  for (const { child, parent } of edges) {
    if (child !== parent) parents.set(child, (parents.get(child) ?? new Set()).add(parent))
  }
  const ordered: Array<Table> = []
  const done = new Set<string>()
  const visiting = new Set<string>()
  const byName = new Map(tables.map((table) => [table.name, table]))
  const visit = (name: string) => {
    if (done.has(name) || visiting.has(name)) return
    visiting.add(name)
    for (const parent of [...(parents.get(name) ?? [])].toSorted()) visit(parent)
    visiting.delete(name)
    done.add(name)
    const table = byName.get(name)
    if (table !== undefined) ordered.push(table)
  }
  for (const table of tables) visit(table.name)
  return ordered
})

/** The recorded migrations of each of `tables` that exists, as `<id>_<name>`. */
const recordedMigrations = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, tables: ReadonlyArray<string>, existing: ReadonlySet<string>) {
  const recorded: Record<string, ReadonlyArray<string>> = {}
  for (const table of tables) {
    if (!existing.has(table)) continue
    const rows = yield* sql.unsafe<{ readonly id: number; readonly name: string }>(
      `SELECT migration_id AS id, name FROM ${quoteIdent(table)} ORDER BY migration_id`
    )
    recorded[table] = rows.map((row) => `${row.id}_${row.name}`)
  }
  return recorded
})

const listSequences = Effect.fnUntraced(function*(sql: SqlClient.SqlClient) {
  const names = yield* sql<{ readonly name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'S' AND n.nspname = current_schema() ORDER BY c.relname`
  return yield* Effect.forEach(names, ({ name }) =>
    Effect.map(
      sql.unsafe<{ readonly value: string; readonly called: boolean }>(
        `SELECT last_value::text AS value, is_called AS called FROM ${quoteIdent(name)}`
      ),
      (rows) => ({ name, value: rows[0]?.value ?? "1", called: rows[0]?.called ?? false })
    ))
})

/**
 * A gzipped file of lines, written with back-pressure, encrypted when given a passphrase
 * (`DumpCipher`); `close` flushes it into place, `abort` removes it.
 */
const lineWriter = (path: string, encryption: Awaited<ReturnType<typeof DumpCipher.encrypt>> | undefined) => {
  const partial = `${path}.partial`
  const file = createWriteStream(partial, { mode: 0o600 })
  const gzip = createGzip()
  if (encryption === undefined) gzip.pipe(file)
  else {
    file.write(encryption.headerLine)
    gzip.pipe(encryption.cipher).pipe(file, { end: false })
  }
  const failed = new Promise<never>((_, reject) => {
    file.once("error", reject)
    gzip.once("error", reject)
    encryption?.cipher.once("error", reject)
  })
  failed.catch(() => undefined)
  return {
    write: (value: unknown) =>
      Effect.promise(async () => {
        if (!gzip.write(`${JSON.stringify(value)}\n`)) await Promise.race([once(gzip, "drain"), failed])
      }),
    /** A line whose JSON is already text (a row as the database printed it). */
    writeRaw: (json: string) =>
      Effect.promise(async () => {
        if (!gzip.write(`${json}\n`)) await Promise.race([once(gzip, "drain"), failed])
      }),
    close: Effect.promise(async () => {
      gzip.end()
      if (encryption !== undefined) {
        await Promise.race([once(encryption.cipher, "end"), failed])
        file.end(encryption.cipher.getAuthTag())
      }
      await Promise.race([once(file, "close"), failed])
      await rename(partial, path)
    }),
    abort: Effect.promise(async () => {
      gzip.destroy()
      encryption?.cipher.destroy()
      file.destroy()
      await rm(partial, { force: true })
    })
  }
}

/**
 * Dumps the database the client reaches to `path` (gzipped JSON lines): the manifest, each table's
 * rows in load order, read in one REPEATABLE READ, read-only transaction, then the bytes of every
 * blob the rows name (any 64-hex-digit string the store holds), and a trailer. The file appears
 * under `path` only once complete.
 */
export const write = Effect.fnUntraced(function*(path: string, options: {
  readonly source: string
  readonly migrationTables: ReadonlyArray<string>
  readonly blobs: Blobs
  /** Where the blobs are read from, in words, for the message that names the files it lacks. */
  readonly store?: string | undefined
  /** Write the dump even when files the rows name are not in the store (listed in the trailer); refused otherwise. */
  readonly allowMissingBlobs?: boolean | undefined
  /** Encrypts the file under this passphrase (`DumpCipher`). */
  readonly passphrase?: string | undefined
}) {
  const sql = yield* Sql.SqlClient
  const passphrase = options.passphrase
  const encryption = passphrase === undefined
    ? undefined
    : yield* Effect.tryPromise({ try: () => DumpCipher.encrypt(passphrase), catch: (error) => new DumpError((error as Error).message) }).pipe(Effect.orDie)
  const out = lineWriter(path, encryption)
  return yield* Effect.gen(function*() {
    const hashes = new Set<string>()
    const named = new Set<string>()
    const { manifest, rows } = yield* Effect.gen(function*() {
      yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`
      const all = yield* listTables(sql)
      const migrations = yield* recordedMigrations(sql, options.migrationTables, new Set(all.map((table) => table.name)))
      const tables = yield* loadOrder(sql, all)
      const counted = yield* Effect.forEach(tables, (table) =>
        Effect.map(
          sql.unsafe<{ readonly n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(table.name)}`),
          (rows) => ({ name: table.name, rows: rows[0]?.n ?? 0 })
        ))
      const manifest: Manifest = {
        format,
        version: formatVersion,
        createdAt: new Date().toISOString(),
        source: options.source,
        migrations,
        tables: counted,
        sequences: yield* listSequences(sql)
      }
      yield* out.write(manifest)
      let rows = 0
      for (const table of tables) {
        yield* out.write(["table", table.name])
        const generated = table.generated.length === 0 ? "" : ` - ARRAY[${table.generated.map((c) => `'${c.replaceAll("'", "''")}'`).join(", ")}]`
        yield* sql.unsafe(`DECLARE quire_dump NO SCROLL CURSOR FOR SELECT (to_jsonb(t)${generated})::text AS r FROM ${quoteIdent(table.name)} t`)
        while (true) {
          const batch = yield* sql.unsafe<{ readonly r: string }>(`FETCH ${batchRows} FROM quire_dump`)
          for (const { r } of batch) {
            for (const hash of r.match(hashPattern) ?? []) hashes.add(hash)
            for (const match of r.matchAll(blobFieldPattern)) named.add(match[1]!)
            yield* out.writeRaw(r)
          }
          rows += batch.length
          if (batch.length < batchRows) break
        }
        yield* sql`CLOSE quire_dump`
      }
      return { manifest, rows }
    }).pipe(sql.withTransaction)
    let blobs = 0
    let blobBytes = 0
    const found = new Set<string>()
    for (const hash of [...hashes].toSorted()) {
      const bytes = yield* options.blobs.get(hash)
      if (Option.isNone(bytes)) continue
      found.add(hash)
      blobs++
      blobBytes += bytes.value.byteLength
      yield* out.write(["blob", hash, Buffer.from(bytes.value).toString("base64")])
    }
    const trailer: Trailer = { rows, blobs, blobBytes, missingBlobs: [...named].filter((hash) => !found.has(hash)).toSorted() }
    if (trailer.missingBlobs.length > 0 && options.allowMissingBlobs !== true) {
      const missing = trailer.missingBlobs
      return yield* fail(
        `${missing.length} file${missing.length === 1 ? "" : "s"} the database names ${missing.length === 1 ? "is" : "are"} not in the store` +
          `${options.store === undefined ? "" : ` (${options.store})`}: ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", ..." : ""}. ` +
          `Nothing was written: point the command at the server's store (the same QUIRE_DATA_DIR, or QUIRE_S3_*), ` +
          `or pass --allow-missing-files to write a dump without them`
      )
    }
    yield* out.write(["end", trailer])
    yield* out.close
    return { manifest, trailer }
  }).pipe(Effect.onError(() => out.abort))
}, (effect) => Effect.catchTag(effect, "SqlError", (error) => Effect.die(new DumpError(`The database refused the dump: ${describeSqlError(error)}`))))

type Line =
  | { readonly kind: "table"; readonly name: string }
  | { readonly kind: "row"; readonly json: string }
  | { readonly kind: "blob"; readonly hash: string; readonly data: string }
  | { readonly kind: "end"; readonly trailer: Trailer }

/**
 * Opens the dump at `path` (encrypted under `passphrase`, or not) and reads its manifest: refused,
 * naming the file, when it is no readable Quire dump, a newer format, or the passphrase is
 * missing or wrong. `next` reads the lines after it; `close` ends the reading early.
 */
const openDump = (path: string, passphrase: string | undefined) =>
  Effect.gen(function*() {
    const source = yield* Effect.tryPromise({
      try: () => DumpCipher.openDump(path, passphrase),
      catch: (error) => new DumpError((error as Error).message)
    }).pipe(Effect.orDie)
    const lines = yield* Effect.sync(() => {
      const input = createGunzip()
      source.stream.on("error", (error) => input.destroy(error))
      source.stream.pipe(input)
      return { input, reader: createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]() }
    })
    const close = Effect.sync(() => {
      source.stream.destroy()
      lines.input.destroy()
    })
    const next = Effect.tryPromise({
      try: () => lines.reader.next(),
      catch: (error) => new DumpError(`${path} is not a readable dump (gzipped JSON lines): ${(error as Error).message}`)
    }).pipe(Effect.orDie, Effect.onError(() => close))
    const first = yield* next
    const manifest = first.done === true ? undefined : parse(first.value) as Partial<Manifest> | undefined
    if (manifest?.format !== format) {
      yield* close
      return yield* fail(`${path} is not a Quire dump: its first line has no "format": "${format}"`)
    }
    if ((manifest.version ?? 0) > formatVersion) {
      yield* close
      return yield* fail(`${path} is a dump of format ${manifest.version}, newer than this quire reads (${formatVersion}): restore it with a newer Quire`)
    }
    return { manifest: manifest as Manifest, next, close, verified: source.verified }
  })

/**
 * The manifest of the dump at `path`, read without going further: a file that is no dump, or an
 * encrypted one without its passphrase, is refused before anything is opened for a restore.
 */
export const readManifest = (path: string, passphrase: string | undefined): Effect.Effect<Manifest> =>
  Effect.gen(function*() {
    const { close, manifest } = yield* openDump(path, passphrase)
    yield* close
    return manifest
  })

/**
 * Reads the dump at `path` (encrypted under `passphrase`, or not) line by line: its manifest, then
 * each later line to `onLine`, in order; an encrypted dump fails at its end unless its tag matches.
 */
const readDump = <E, R>(
  path: string,
  passphrase: string | undefined,
  onManifest: (manifest: Manifest) => Effect.Effect<void>,
  onLine: (line: Line) => Effect.Effect<void, E, R>
) =>
  Effect.gen(function*() {
    const { manifest, next, verified } = yield* openDump(path, passphrase)
    yield* onManifest(manifest)
    let ended = false
    for (let line = yield* next; line.done !== true; line = yield* next) {
      const text = line.value
      if (text === "") continue
      if (ended) return yield* fail(`${path} goes on after its end line`)
      if (!text.startsWith("[")) {
        yield* onLine({ kind: "row", json: text })
        continue
      }
      // Rows are objects (a row's jsonb); the lines around them are arrays.
      const control = parse(text) as [string, ...Array<unknown>] | undefined
      switch (control?.[0]) {
        case "table":
          yield* onLine({ kind: "table", name: String(control[1]) })
          break
        case "blob":
          yield* onLine({ kind: "blob", hash: String(control[1]), data: String(control[2]) })
          break
        case "end":
          ended = true
          yield* onLine({ kind: "end", trailer: control[1] as Trailer })
          break
        default:
          return yield* fail(`${path} is damaged: a line is neither a row nor a table, file or end line`)
      }
    }
    if (!ended) return yield* fail(`${path} was cut short: it has no end line (copy it again, or dump again)`)
    yield* Effect.tryPromise({ try: () => verified, catch: (error) => new DumpError((error as Error).message) }).pipe(Effect.orDie)
  })

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** What `restore` loaded. */
export interface Restored {
  readonly manifest: Manifest
  readonly trailer: Trailer
  /** Rows that were in the target before and were replaced (`force`). */
  readonly replacedRows: number
}

/**
 * Loads the dump at `path` into the database the client reaches, which `migrate` has brought to
 * the dump's migrations: first every blob into `blobs` (each checked against its hash), then every
 * row in one transaction, with foreign keys dropped while loading and added back (so checked)
 * after, sequences set as dumped, and every table's count compared with the manifest's. A target
 * holding rows is refused unless `force`, which replaces them.
 */
export const restore = Effect.fnUntraced(function*(path: string, options: {
  readonly migrationTables: ReadonlyArray<string>
  readonly migrate: Effect.Effect<unknown, never, SqlClient.SqlClient>
  readonly blobs: Blobs
  readonly force: boolean
  /** The passphrase of an encrypted dump. */
  readonly passphrase?: string | undefined
}) {
  const sql = yield* Sql.SqlClient
  // Pass 1: the whole file is read and its blobs stored before the database is touched.
  let manifest: Manifest | undefined
  let trailer: Trailer | undefined
  const counts = new Map<string, number>()
  let table: string | undefined
  yield* readDump(path, options.passphrase, (m) => Effect.sync(() => void (manifest = m)), (line) =>
    Effect.gen(function*() {
      switch (line.kind) {
        case "table":
          table = line.name
          return
        case "row":
          if (table === undefined) return yield* fail(`${path} has a row before any table`)
          counts.set(table, (counts.get(table) ?? 0) + 1)
          return
        case "blob": {
          const stored = yield* options.blobs.put(Buffer.from(line.data, "base64"))
          if (stored !== line.hash) return yield* fail(`${path} is damaged: the bytes of blob ${line.hash} hash to ${stored}`)
          return
        }
        case "end":
          trailer = line.trailer
      }
    }))
  if (manifest === undefined || trailer === undefined) return yield* fail(`${path} is not a complete dump`)
  const dumped = manifest
  for (const { name, rows } of dumped.tables) {
    if ((counts.get(name) ?? 0) !== rows) return yield* fail(`${path} is damaged: ${name} has ${counts.get(name) ?? 0} rows, its manifest says ${rows}`)
  }

  yield* options.migrate
  const tables = yield* listTables(sql)
  const byName = new Map(tables.map((t) => [t.name, t]))
  const target = yield* recordedMigrations(sql, options.migrationTables, new Set(byName.keys()))
  for (const name of new Set([...Object.keys(dumped.migrations), ...Object.keys(target)])) {
    const want = dumped.migrations[name] ?? []
    const have = target[name] ?? []
    if (want.join() !== have.join()) {
      const extra = have.filter((id) => !want.includes(id))
      const unknown = want.filter((id) => !have.includes(id))
      return yield* fail(
        unknown.length > 0
          ? `The dump has migrations this Quire does not know (${name}: ${unknown.join(", ")}): restore it with the Quire that made it, or a newer one`
          : `The dump was made before migrations ${extra.join(", ")} (${name}): run \`quire db migrate\` on the source with this Quire, then dump again`
      )
    }
  }
  const data = dumped.tables.filter((t) => !(t.name in target))
  for (const { name } of data) {
    if (!byName.has(name)) return yield* fail(`The dump has a table ${name} that this database does not`)
  }
  const migrationTables = new Set(Object.keys(target))
  const loaded = tables.filter((t) => !migrationTables.has(t.name))

  return yield* Effect.gen(function*() {
    const existing = yield* Effect.forEach(loaded, (t) =>
      Effect.map(sql.unsafe<{ readonly n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(t.name)}`), (rows) => ({ name: t.name, n: rows[0]?.n ?? 0 })))
    const replacedRows = existing.reduce((sum, t) => sum + t.n, 0)
    if (replacedRows > 0) {
      if (!options.force) {
        const holding = existing.filter((t) => t.n > 0).map((t) => `${t.name} (${t.n})`).slice(0, 5).join(", ")
        return yield* fail(`The target database is not empty (${holding}${existing.filter((t) => t.n > 0).length > 5 ? ", ..." : ""}): restore into an empty database, or pass --force to replace its data`)
      }
      // Replacing the instance replaces its audit log too (its trigger refuses any other removal).
      yield* sql`SELECT set_config('quire.audit_removal', 'restore', true)`
      yield* sql.unsafe(`TRUNCATE ${loaded.map((t) => quoteIdent(t.name)).join(", ")} RESTART IDENTITY CASCADE`)
    }
    const foreignKeys = yield* sql<{ readonly table: string; readonly name: string; readonly definition: string }>`
      SELECT c.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema()`
    for (const fk of foreignKeys) yield* sql.unsafe(`ALTER TABLE ${quoteIdent(fk.table)} DROP CONSTRAINT ${quoteIdent(fk.name)}`)

    let batch: Array<string> = []
    let chars = 0
    let current: Table | undefined
    const flush = Effect.gen(function*() {
      if (current === undefined || batch.length === 0) return
      const columns = current.columns.map(quoteIdent).join(", ")
      yield* sql.unsafe(
        `INSERT INTO ${quoteIdent(current.name)} (${columns}) OVERRIDING SYSTEM VALUE
         SELECT ${columns} FROM jsonb_populate_recordset(NULL::${quoteIdent(current.name)}, $1::jsonb)`,
        [`[${batch.join(",")}]`]
      )
      batch = []
      chars = 0
    })
    yield* readDump(path, options.passphrase, () => Effect.void, (line) =>
      Effect.gen(function*() {
        if (line.kind === "table") {
          yield* flush
          current = migrationTables.has(line.name) ? undefined : byName.get(line.name)
        } else if (line.kind === "row" && current !== undefined) {
          batch.push(line.json)
          chars += line.json.length
          if (batch.length >= batchRows || chars >= batchChars) yield* flush
        }
      }))
    yield* flush

    for (const fk of foreignKeys) {
      yield* sql.unsafe(`ALTER TABLE ${quoteIdent(fk.table)} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.definition}`)
    }
    for (const sequence of dumped.sequences) {
      yield* sql`SELECT setval(${quoteIdent(sequence.name)}::regclass, ${sequence.value}::bigint, ${sequence.called})`
    }
    for (const { name, rows } of data) {
      const [row] = yield* sql.unsafe<{ readonly n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(name)}`)
      if (row?.n !== rows) return yield* fail(`Restored ${row?.n ?? 0} rows into ${name}, the dump holds ${rows}: nothing was restored`)
    }
    return { manifest: dumped, trailer: trailer!, replacedRows } satisfies Restored
  }).pipe(sql.withTransaction)
}, (effect) => Effect.catchTag(effect, "SqlError", (error) => Effect.die(new DumpError(`The database refused the restore: ${describeSqlError(error)}`))))

/** Postgres' own message along the cause chain of a SqlError. */
const describeSqlError = (error: { readonly message: string; readonly cause?: unknown }): string => {
  const cause = error.cause as { readonly message?: unknown; readonly detail?: unknown } | undefined
  const message = typeof cause?.message === "string" ? cause.message : error.message
  return typeof cause?.detail === "string" ? `${message} (${cause.detail})` : message
}
