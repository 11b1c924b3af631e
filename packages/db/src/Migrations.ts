/**
 * The migration runner. Each domain package owns its migrations and records them in its own
 * table, so packages evolve their schemas independently; `run` applies whatever is pending.
 */
import { Effect, Predicate } from "effect"
import { Migrator, type SqlClient } from "effect/sql"

/** One package's migrations, keyed `<id>_<name>` (e.g. `0001_create_users`), and the table recording them. */
export interface PackageMigrations {
  readonly table: string
  readonly migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>
}

const migrate = Migrator.make({})

const migrationKey = /^\d+_.+$/

/** The messages along an error's `cause` chain, so a failed migration shows Postgres' own message. */
const describe = (error: unknown): string => {
  const parts: Array<string> = []
  let current = error
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    if (!Predicate.isObject(current)) {
      parts.push(String(current))
      break
    }
    if (Predicate.isString(current.message)) {
      const code = Predicate.isString(current.code) ? ` [${current.code}]` : ""
      const part = `${current.message}${code}`
      if (!parts.includes(part)) parts.push(part)
    }
    current = current.cause
  }
  return parts.join(": ")
}

const runPackage = Effect.fnUntraced(function*(pkg: PackageMigrations) {
  // `Migrator.fromRecord` silently skips keys it cannot parse; a typo must not lose a migration.
  const badKeys = Object.keys(pkg.migrations).filter((key) => !migrationKey.test(key))
  if (badKeys.length > 0) {
    return yield* Effect.die(
      new Error(`Migrations for table "${pkg.table}" have keys not shaped <id>_<name>: ${badKeys.join(", ")}`)
    )
  }
  const applied = yield* migrate({ loader: Migrator.fromRecord(pkg.migrations), table: pkg.table }).pipe(
    Effect.catch((error) =>
      Effect.die(new Error(`Migrations for table "${pkg.table}" failed: ${describe(error)}`, { cause: error }))
    )
  )
  const names = applied.map(([id, name]) => `${id}_${name}`)
  if (names.length > 0) yield* Effect.logInfo(`Applied migrations to ${pkg.table}: ${names.join(", ")}`)
  return { table: pkg.table, applied: names }
})

/** What one package's migration run did: the migrations applied now (`<id>_<name>`), in order. */
export interface Applied {
  readonly table: string
  readonly applied: ReadonlyArray<string>
}

/**
 * Applies the pending migrations of each package in order, each in one transaction that locks
 * the package's table. Idempotent; a failure is a defect naming the table and the migration.
 */
export const run = (
  ...packages: ReadonlyArray<PackageMigrations>
): Effect.Effect<ReadonlyArray<Applied>, never, SqlClient.SqlClient> => {
  const tables = packages.map((pkg) => pkg.table)
  const duplicates = tables.filter((table, index) => tables.indexOf(table) !== index)
  if (duplicates.length > 0) {
    return Effect.die(new Error(`Several packages share the migrations table(s): ${duplicates.join(", ")}`))
  }
  return Effect.forEach(packages, runPackage).pipe(Effect.withSpan("Migrations.run"))
}
