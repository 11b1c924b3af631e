/** What the sites SQL adapters share: a patch of a record as the `SET` list of an UPDATE. */
import type { SqlClient } from "effect/sql"

const column = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** `col = value, ...` for the defined fields of `patch` (camelCase fields, snake_case columns). */
export const setList = (sql: SqlClient.SqlClient, patch: Readonly<Record<string, unknown>>) => {
  const sets = Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => sql`${sql(column(key))} = ${value as string | number | boolean | Date | null}`)
  return sets.length === 0 ? sql`id = id` : sql.csv(sets)
}
