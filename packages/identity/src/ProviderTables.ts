/**
 * What the single sign-on provider stores share (SAML's and OpenID Connect's): providers scoped to
 * their organization, listed oldest first by (created, id), patched field by field. The memory form
 * over a `TxMap`; the SQL form over a table whose columns the caller names for each field.
 */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { MemoryStore, Pagination, type Rows } from "@quire/kernel"

/** A provider as the stores see it. */
export interface ProviderRecord {
  readonly id: string
  readonly organizationId: string
  readonly createdAt: Date
}

/** The operations every provider store has. */
export interface ProviderStore<P extends ProviderRecord, Patch> {
  readonly insert: (provider: P) => Effect.Effect<void>
  readonly find: (organizationId: string, providerId: string) => Effect.Effect<Option.Option<P>>
  readonly list: (organizationId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<P>>
  readonly update: (organizationId: string, providerId: string, patch: Patch) => Effect.Effect<Option.Option<P>>
  readonly remove: (organizationId: string, providerId: string) => Effect.Effect<void>
}

/** The cursor key of a provider: oldest first. */
export const providerKey = (p: ProviderRecord): Pagination.CursorKey => [p.createdAt.toISOString(), p.id]
export const providerKeyShape: Pagination.KeyShape = ["timestamp", "string"]

/** The memory store; `removed` runs (in the same journal) after a provider is removed. */
export const memoryProviders = <P extends ProviderRecord, Patch extends Partial<P>>(
  removed: (providerId: string) => void = () => undefined
): ProviderStore<P, Patch> => {
  const providers = new MemoryStore.TxMap<string, P>()
  const scoped = (organizationId: string, providerId: string) => {
    const provider = providers.get(providerId)
    return provider?.organizationId === organizationId ? provider : undefined
  }
  return {
    insert: (provider) => Effect.sync(() => void providers.set(provider.id, provider)),
    find: (organizationId, providerId) => Effect.sync(() => Option.fromNullishOr(scoped(organizationId, providerId))),
    list: (organizationId, after, limit) =>
      Effect.suspend(() =>
        Pagination.paginateArray(
          Array.from(providers.values()).filter((p) => p.organizationId === organizationId),
          providerKey,
          { order: "asc", after, limit }
        )
      ),
    update: (organizationId, providerId, patch) =>
      Effect.sync(() => {
        const provider = scoped(organizationId, providerId)
        if (provider === undefined) return Option.none()
        const next: P = { ...provider, ...patch }
        providers.set(providerId, next)
        return Option.some(next)
      }),
    remove: (organizationId, providerId) =>
      Effect.sync(() => {
        if (scoped(organizationId, providerId) === undefined) return
        providers.delete(providerId)
        removed(providerId)
      })
  }
}

/** A column of a provider table: the field it holds and how a value is written (default: as it is). */
export interface ProviderColumn<P> {
  readonly column: string
  readonly field: keyof P & string
  readonly write?: (value: never) => unknown
}

/**
 * The SQL store of `table`, whose columns `columns` lists for every field but `id`,
 * `organizationId` and `createdAt` (`id`, `organization_id`, `created_at`); rows read by `rows`.
 */
export const sqlProviders = <P extends ProviderRecord, Patch extends Partial<P>>(
  sql: SqlClient.SqlClient,
  table: string,
  columns: ReadonlyArray<ProviderColumn<P>>,
  rows: Rows.RowDecoder<P>
): ProviderStore<P, Patch> => {
  const written = (column: ProviderColumn<P>, value: unknown) =>
    column.write === undefined ? value : column.write(value as never)
  return {
    insert: (p) => {
      const row: Record<string, unknown> = { id: p.id, organization_id: p.organizationId, created_at: p.createdAt }
      for (const c of columns) row[c.column] = written(c, p[c.field])
      return sql`INSERT INTO ${sql(table)} ${sql.insert(row as never)}`.pipe(Effect.orDie, Effect.asVoid)
    },
    find: (organizationId, providerId) =>
      sql<Record<string, unknown>>`SELECT * FROM ${sql(table)} WHERE organization_id = ${organizationId} AND id = ${providerId}`.pipe(
        Effect.orDie,
        Effect.flatMap(rows.first)
      ),
    list: (organizationId, after, limit) => {
      const range = after === undefined ? sql`true` : sql`(created_at, id) > (${String(after[0])}::timestamptz, ${String(after[1])})`
      return sql<Record<string, unknown>>`
        SELECT * FROM ${sql(table)} WHERE organization_id = ${organizationId} AND ${range}
        ORDER BY created_at, id LIMIT ${limit + 1}`.pipe(
        Effect.orDie,
        Effect.flatMap(rows.all),
        Effect.flatMap((items) => Pagination.pageFromRows(items, limit, providerKey))
      )
    },
    update: (organizationId, providerId, patch) => {
      const given = patch as Partial<Record<string, unknown>>
      const sets = columns.flatMap((c) =>
        given[c.field] === undefined ? [] : [sql`${sql(c.column)} = ${written(c, given[c.field]) as never}`]
      )
      const set = sets.length === 0 ? sql`id = id` : sql.csv(sets)
      return sql<Record<string, unknown>>`
        UPDATE ${sql(table)} SET ${set}
        WHERE organization_id = ${organizationId} AND id = ${providerId} RETURNING *`.pipe(
        Effect.orDie,
        Effect.flatMap(rows.first)
      )
    },
    remove: (organizationId, providerId) =>
      sql`DELETE FROM ${sql(table)} WHERE organization_id = ${organizationId} AND id = ${providerId}`.pipe(Effect.orDie, Effect.asVoid)
  }
}
