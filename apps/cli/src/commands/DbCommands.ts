/**
 * `quire db`: database maintenance, run on the database host rather than through the API. The
 * database and every package's layers are imported when the command runs, not when `quire`
 * starts: the commands that talk to a server never load them (test/Startup.test.ts).
 */
import { Console, Effect } from "effect"
import { Command } from "effect/cli"
import { CliFailure } from "../Failure.ts"
import * as GlobalFlags from "../GlobalFlags.ts"

/** `@quire/db` and `@quire/platform`, loaded on first use. */
const modules = Effect.promise(() => Promise.all([import("@quire/db"), import("@quire/platform")]))

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
      Effect.catchDefect((defect) =>
        Effect.fail(new CliFailure({ message: defect instanceof Error ? defect.message : String(defect) }))
      )
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

/** `quire db ...` */
export const db = Command.make("db").pipe(
  Command.withDescription("Maintain the database (runs locally, not through the API)"),
  Command.withSubcommands([migrate])
)
