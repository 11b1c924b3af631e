/** Port: a site's context records, connections, topics, scans and findings. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { StoredConnection, StoredFinding, StoredRecord, StoredScan, StoredTopic } from "../domain/Findings.ts"

export interface SiteContextRepoShape {
  /** Stores records (one transaction), each replacing the one of the same id. */
  readonly putRecords: (records: ReadonlyArray<StoredRecord>) => Effect.Effect<void>
  /** A site's records, oldest first. */
  readonly records: (siteId: string) => Effect.Effect<ReadonlyArray<StoredRecord>>
  readonly record: (siteId: string, id: string) => Effect.Effect<Option.Option<StoredRecord>>
  /** A site's connections, oldest first. */
  readonly connections: (siteId: string) => Effect.Effect<ReadonlyArray<StoredConnection>>
  readonly connection: (siteId: string, id: string) => Effect.Effect<Option.Option<StoredConnection>>
  readonly putConnection: (connection: StoredConnection) => Effect.Effect<void>
  /** Connections of every site whose last sync started (or, never tried, was made) before `before`, the longest waiting first. */
  readonly dueConnections: (before: string, limit: number) => Effect.Effect<ReadonlyArray<StoredConnection>>
  /** Forgets a connection and its records (one transaction). */
  readonly removeConnection: (siteId: string, id: string) => Effect.Effect<void>
  /** A site's topics, oldest first. */
  readonly topics: (siteId: string) => Effect.Effect<ReadonlyArray<StoredTopic>>
  readonly topic: (siteId: string, id: string) => Effect.Effect<Option.Option<StoredTopic>>
  readonly putTopic: (topic: StoredTopic) => Effect.Effect<void>
  /** A site's scans, oldest first. */
  readonly scans: (siteId: string) => Effect.Effect<ReadonlyArray<StoredScan>>
  readonly scan: (siteId: string, id: string) => Effect.Effect<Option.Option<StoredScan>>
  readonly putScan: (scan: StoredScan) => Effect.Effect<void>
  /** A site's findings, oldest first. */
  readonly findings: (siteId: string) => Effect.Effect<ReadonlyArray<StoredFinding>>
  readonly finding: (siteId: string, id: string) => Effect.Effect<Option.Option<StoredFinding>>
  readonly putFinding: (finding: StoredFinding) => Effect.Effect<void>
  /** A scan's outcome: the scan, its topics, its findings and the records it read, in one transaction. */
  readonly saveScan: (
    scan: StoredScan,
    topics: ReadonlyArray<StoredTopic>,
    findings: ReadonlyArray<StoredFinding>,
    records: ReadonlyArray<StoredRecord>
  ) => Effect.Effect<void>
  /** Forgets a topic's findings; answers how many. */
  readonly removeTopicFindings: (siteId: string, topicId: string) => Effect.Effect<number>
  /** Forgets everything of a site (the site deleted). */
  readonly removeSite: (siteId: string) => Effect.Effect<void>
}

interface Row {
  readonly id: string
  readonly siteId: string
  readonly createdAt: string
}

const oldestFirst = (a: Row, b: Row) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** One kind of row in memory, rolled back with the transaction like the database's. */
const table = <A extends Row>() => {
  const rows = new MemoryStore.TxMap<string, A>()
  return {
    rows,
    all: (siteId: string) => Effect.sync(() => Array.from(rows.values()).filter((r) => r.siteId === siteId).toSorted(oldestFirst)),
    one: (siteId: string, id: string) => Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((r) => r.siteId === siteId))),
    put: (row: A) => Effect.sync(() => void rows.set(row.id, row)),
    removeSite: (siteId: string) => {
      for (const row of Array.from(rows.values())) if (row.siteId === siteId) rows.delete(row.id)
    }
  }
}

export class SiteContextRepo extends Context.Service<SiteContextRepo, SiteContextRepoShape>()("@quire/sites/SiteContextRepo") {
  static readonly layerMemory = Layer.sync(SiteContextRepo, () => {
    const records = table<StoredRecord>()
    const connections = table<StoredConnection>()
    const topics = table<StoredTopic>()
    const scans = table<StoredScan>()
    const findings = table<StoredFinding>()
    return SiteContextRepo.of({
      putRecords: (batch) => Effect.sync(() => batch.forEach((r) => records.rows.set(r.id, r))),
      records: records.all,
      record: records.one,
      connections: connections.all,
      connection: connections.one,
      putConnection: connections.put,
      dueConnections: (before, limit) =>
        Effect.sync(() =>
          Array.from(connections.rows.values())
            .map((c) => ({ c, at: c.attemptedAt ?? c.syncedAt ?? "" }))
            .filter(({ at }) => at < before)
            .toSorted((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.c.id < b.c.id ? -1 : a.c.id > b.c.id ? 1 : 0))
            .slice(0, limit)
            .map(({ c }) => c)),
      removeConnection: (siteId, id) =>
        Effect.sync(() => {
          const found = connections.rows.get(id)
          if (found === undefined || found.siteId !== siteId) return
          connections.rows.delete(id)
          for (const r of Array.from(records.rows.values())) if (r.siteId === siteId && r.connectionId === id) records.rows.delete(r.id)
        }),
      topics: topics.all,
      topic: topics.one,
      putTopic: topics.put,
      scans: scans.all,
      scan: scans.one,
      putScan: scans.put,
      findings: findings.all,
      finding: findings.one,
      putFinding: findings.put,
      saveScan: (scan, topicRows, findingRows, recordRows) =>
        Effect.sync(() => {
          scans.rows.set(scan.id, scan)
          topicRows.forEach((t) => topics.rows.set(t.id, t))
          findingRows.forEach((f) => findings.rows.set(f.id, f))
          recordRows.forEach((r) => records.rows.set(r.id, r))
        }),
      removeTopicFindings: (siteId, topicId) =>
        Effect.sync(() => {
          let removed = 0
          for (const f of Array.from(findings.rows.values())) {
            if (f.siteId === siteId && f.topicId === topicId) {
              findings.rows.delete(f.id)
              removed++
            }
          }
          return removed
        }),
      removeSite: (siteId) =>
        Effect.sync(() => {
          for (const t of [records, connections, topics, scans, findings] as const) t.removeSite(siteId)
        })
    })
  })
}
