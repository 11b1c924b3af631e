/**
 * `quire db`: database maintenance, run on the database host rather than through the API. The
 * database and every package's layers are imported when the command runs, not when `quire`
 * starts: the commands that talk to a server never load them (test/Startup.test.ts).
 */
import { Config, Console, Effect, Layer, Option, Redacted } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { HttpClientRequest } from "effect/http"
import { CliFailure } from "../Failure.ts"
import * as GlobalFlags from "../GlobalFlags.ts"
import { QuireHttp } from "../QuireClient.ts"

/** `@quire/db`, `@quire/platform` and `@quire/content`, loaded on first use. */
const modules = Effect.promise(() => Promise.all([import("@quire/db"), import("@quire/platform"), import("@quire/content")]))

/** A defect of the database layers or a dump (a refused migration, a damaged file) as the command's failure. */
const asFailure = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.catchDefect((defect) => Effect.fail(new CliFailure({ message: defect instanceof Error ? defect.message : String(defect) })))
  )

const migrate = Command.make(
  "migrate",
  {},
  Effect.fn("quire.db.migrate")(function*() {
    const json = yield* GlobalFlags.Json
    const [{ Database }, { Services }] = yield* modules
    const { applied, database } = yield* Effect.gen(function*() {
      const info = yield* Database.DatabaseInfo
      const results = yield* Services.migrate
      return { database: info.kind, applied: results.filter((result) => result.applied.length > 0) }
    }).pipe(
      Effect.provide(Database.layer),
      // The runner reports a failed migration as a defect naming the table; here it is the answer.
      asFailure
    )
    if (json) return yield* Console.log(JSON.stringify({ database, applied }, null, 2))
    if (applied.length === 0) return yield* Console.log(`The ${database} database is up to date.`)
    for (const { applied: names, table } of applied) yield* Console.log(`Applied migrations to ${table}: ${names.join(", ")}`)
  })
).pipe(
  Command.withDescription(
    "Apply pending migrations of every package: to DATABASE_URL, else the embedded database in QUIRE_DATA_DIR"
  )
)

/** The configured BlobStore (QUIRE_S3_BUCKET's bucket, else `${QUIRE_DATA_DIR}/blobs`) as the dump's `Blobs`. */
const configuredBlobs = Effect.gen(function*() {
  const [, { ContentPlatform }, { BlobStore }] = yield* modules
  const store = yield* Effect.provide(Effect.gen(function*() { return yield* BlobStore }), ContentPlatform.layerBlobStore)
  return { get: store.get, put: store.put }
})

/** Where `configuredBlobs` reads and writes, in words (as ContentPlatform.layerBlobStore decides it). */
const storeDescription = Effect.gen(function*() {
  const bucket = yield* Config.option(Config.String("QUIRE_S3_BUCKET")).pipe(Effect.orElseSucceed(() => Option.none<string>()))
  if (Option.isSome(bucket) && bucket.value.trim() !== "") return `the S3 bucket ${bucket.value}`
  const dataDir = yield* Config.option(Config.String("QUIRE_DATA_DIR")).pipe(Effect.orElseSucceed(() => Option.none<string>()))
  const { resolve } = yield* Effect.promise(() => import("node:path"))
  const where = resolve(process.env.INIT_CWD ?? process.cwd(), Option.getOrElse(dataDir, () => ".quire/data"), "blobs")
  return Option.isSome(dataDir) ? `${where}, from QUIRE_DATA_DIR` : `${where}: QUIRE_DATA_DIR is not set, so the default`
})

const passphraseFile = Flag.String("passphrase-file").pipe(
  Flag.withDescription(
    "A file holding the dump's passphrase (its first line): the dump is encrypted with it (scrypt, AES-256-GCM), and a restore needs it. " +
      "Else QUIRE_DUMP_PASSPHRASE; with neither, a dump is written unencrypted"
  ),
  Flag.optional
)

/** The passphrase of `--passphrase-file`, else `QUIRE_DUMP_PASSPHRASE`, else none. */
const passphraseOf = Effect.fnUntraced(function*(file: Option.Option<string>) {
  if (Option.isSome(file)) {
    const { readFile } = yield* Effect.promise(() => import("node:fs/promises"))
    const text = yield* Effect.tryPromise({
      try: () => readFile(file.value, "utf8"),
      catch: (error) => new CliFailure({ message: `--passphrase-file: cannot read ${file.value}: ${(error as Error).message}` })
    })
    const passphrase = text.split(/\r?\n/)[0] ?? ""
    if (passphrase === "") return yield* new CliFailure({ message: `--passphrase-file: ${file.value} holds no passphrase on its first line` })
    return passphrase
  }
  const configured = yield* Config.option(Config.Redacted("QUIRE_DUMP_PASSPHRASE")).pipe(Effect.orElseSucceed(() => Option.none()))
  const value = Option.map(configured, Redacted.value)
  return Option.isSome(value) && value.value !== "" ? value.value : undefined
})

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** The rows of a dump's data tables (its migrations tables' rows left out). */
const dataRows = (manifest: import("@quire/db").InstanceDump.Manifest) =>
  manifest.tables.filter((table) => !(table.name in manifest.migrations)).reduce((sum, table) => sum + table.rows, 0)

/** Dumps the database the `database` layer reaches to `out`, with the configured store's file bytes, and reports it. */
const dumpTo = Effect.fnUntraced(function*<E>(
  out: string,
  database: Layer.Layer<import("@quire/db").Database.Services, E>,
  options: { readonly source?: string; readonly allowMissingFiles: boolean; readonly passphraseFile: Option.Option<string> }
) {
  const json = yield* GlobalFlags.Json
  const [{ Database, InstanceDump }, { Services }] = yield* modules
  const blobs = yield* configuredBlobs
  const store = yield* storeDescription
  const passphrase = yield* passphraseOf(options.passphraseFile)
  const { manifest, trailer } = yield* Effect.gen(function*() {
    const info = yield* Database.DatabaseInfo
    return yield* InstanceDump.write(out, {
      source: options.source ?? info.kind,
      migrationTables: Services.migrations.map((pkg) => pkg.table),
      blobs,
      store,
      allowMissingBlobs: options.allowMissingFiles,
      passphrase
    })
  }).pipe(Effect.provide(database), asFailure)
  if (json) return yield* Console.log(JSON.stringify({ file: out, encrypted: passphrase !== undefined, ...manifest, end: trailer }, null, 2))
  yield* Console.log(
    `Dumped ${dataRows(manifest)} rows of ${manifest.tables.length} tables and ${trailer.blobs} files (${megabytes(trailer.blobBytes)}) to ${out}` +
      (passphrase === undefined ? "" : " (encrypted with the passphrase)")
  )
  if (trailer.missingBlobs.length > 0) {
    yield* Console.error(
      `Warning (--allow-missing-files): ${trailer.missingBlobs.length} files the database names were not in the store (${store}) ` +
        `and are not in the dump: ${trailer.missingBlobs.slice(0, 5).join(", ")}`
    )
  }
})

const out = Flag.String("out").pipe(Flag.withDescription("The file to write (gzipped JSON lines; written as FILE.partial, then renamed)"))
const allowMissingFiles = Flag.Boolean("allow-missing-files").pipe(
  Flag.withDescription(
    "Write the file even when files the database names are not in the store (QUIRE_DATA_DIR/blobs or QUIRE_S3_BUCKET); " +
      "without it such a dump fails and writes nothing"
  ),
  Flag.withDefault(false)
)

const dump = Command.make(
  "dump",
  { out, allowMissingFiles, passphraseFile },
  Effect.fn("quire.db.dump")(function*({ allowMissingFiles, out, passphraseFile }) {
    const [{ Database }] = yield* modules
    yield* dumpTo(out, Database.layer, { allowMissingFiles, passphraseFile })
  })
).pipe(
  Command.withDescription(
    "Write the whole instance (every table's rows, read in one snapshot, and every file's bytes) to one file: " +
      "from DATABASE_URL, else the embedded database in QUIRE_DATA_DIR. On the embedded database it refuses, naming the process, " +
      "while a server (or another command) has the directory open: for a consistent copy of a running server's, use `quire db backup`"
  )
)

const restore = Command.make(
  "restore",
  {
    file: Argument.File("file", { mustExist: true }).pipe(Argument.withDescription("A file of `quire db dump` or `quire db backup`")),
    force: Flag.Boolean("force").pipe(Flag.withDescription("Replace the data of a database that is not empty"), Flag.withDefault(false)),
    passphraseFile
  },
  Effect.fn("quire.db.restore")(function*({ file, force, passphraseFile }) {
    const json = yield* GlobalFlags.Json
    const [{ Database, InstanceDump }, { InstanceAudit, Services }] = yield* modules
    const blobs = yield* configuredBlobs
    const passphrase = yield* passphraseOf(passphraseFile)
    // A file that is no dump, or a passphrase that does not open it, is refused before the
    // database is opened: an embedded one would be created for nothing.
    yield* asFailure(InstanceDump.readManifest(file, passphrase))
    const { database, restored } = yield* Effect.gen(function*() {
      const info = yield* Database.DatabaseInfo
      const restored = yield* InstanceDump.restore(file, {
        migrationTables: Services.migrations.map((pkg) => pkg.table),
        migrate: Services.migrate,
        blobs,
        force,
        passphrase
      })
      // After the rows are in (the dump's own log among them), so the restore stays in the log.
      yield* InstanceAudit.recordFromScript({
        action: "backup.restored",
        target: { type: "instance", id: "instance" },
        payload: { file, rows: dataRows(restored.manifest), replacedRows: restored.replacedRows }
      })
      return { database: info.kind, restored }
    }).pipe(Effect.provide(Database.layer), asFailure)
    const rows = dataRows(restored.manifest)
    if (json) return yield* Console.log(JSON.stringify({ database, rows, files: restored.trailer.blobs, replacedRows: restored.replacedRows }, null, 2))
    yield* Console.log(
      `Restored ${rows} rows of ${restored.manifest.tables.length} tables and ${restored.trailer.blobs} files ` +
        `(${megabytes(restored.trailer.blobBytes)}) into the ${database} database${restored.replacedRows > 0 ? `, replacing its ${restored.replacedRows} rows` : ""}`
    )
    // The dump holds no instance secret: without the one it was made under, sessions end and sealed secrets stay shut.
    const secret = yield* Config.option(Config.String("QUIRE_SECRET")).pipe(Effect.orElseSucceed(() => Option.none<string>()))
    if (Option.isNone(secret) || secret.value === "") {
      yield* Console.error(
        "Note: a dump holds no instance secret. Start the server with the source's QUIRE_SECRET, or copy its " +
          "QUIRE_DATA_DIR/secret file here; else people sign in again, Git credentials and OIDC client secrets must " +
          "be given again, sites get new visitor keys, SAML gets a new SP key (identity providers need its metadata again), " +
          "and invite and share links are listed without their secret"
      )
    }
  })
).pipe(
  Command.withDescription(
    "Load a dump or a backup into DATABASE_URL, else the embedded database in QUIRE_DATA_DIR (migrated first; refused " +
      "unless empty or --force), its files into the configured store (QUIRE_S3_BUCKET, else QUIRE_DATA_DIR/blobs)"
  )
)

const backup = Command.make(
  "backup",
  { out, allowMissingFiles, passphraseFile },
  Effect.fn("quire.db.backup")(function*({ allowMissingFiles, out, passphraseFile }) {
    const { baseUrl, httpClient } = yield* QuireHttp
    const response = yield* httpClient.execute(HttpClientRequest.post(`${baseUrl}/admin/backup`)).pipe(
      Effect.mapError((error) => new CliFailure({ message: `Cannot reach the server at ${baseUrl}: ${error.message}` }))
    )
    if (response.status !== 200) {
      const body = yield* Effect.orElseSucceed(response.json, () => undefined)
      const message = (body as { readonly error?: { readonly message?: unknown } } | undefined)?.error?.message
      return yield* new CliFailure({ message: typeof message === "string" ? message : `The server answered ${response.status}` })
    }
    const tarball = new Uint8Array(yield* Effect.orDie(response.arrayBuffer))
    const [{ Database }] = yield* modules
    yield* dumpTo(out, Database.layerSnapshot(tarball), { source: "embedded (backup)", allowMissingFiles, passphraseFile })
  })
).pipe(
  Command.withDescription(
    "Back up a running server's embedded database: the server (QUIRE_URL, an instance administrator's QUIRE_TOKEN) " +
      "snapshots it between two statements; its rows and the files they name, read here from the server's store " +
      "(set the server's QUIRE_DATA_DIR, whose blobs/ it reads, or its QUIRE_S3_*), go to one file that `quire db restore` loads; " +
      "a file missing from that store fails the backup"
  ),
  Command.provide(QuireHttp.layer)
)

/** `quire db ...` */
export const db = Command.make("db").pipe(
  Command.withDescription("Maintain the database (runs locally, not through the API)"),
  Command.withSubcommands([migrate, dump, restore, backup])
)
