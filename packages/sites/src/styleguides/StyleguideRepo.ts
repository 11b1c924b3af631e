/** Port: sites' style guides, their runs, findings and the change requests checks ran in. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { SiteStyleguide, StyleFinding, StyleguideCheck, StyleguideRun } from "./Styleguide.ts"

export interface StyleguideRepoShape {
  readonly guideOf: (siteId: string) => Effect.Effect<Option.Option<SiteStyleguide>>
  /** The organization's guides, oldest first. */
  readonly guidesOf: (organizationId: string) => Effect.Effect<ReadonlyArray<SiteStyleguide>>
  /** Sets the site's guide (replacing one it had). */
  readonly putGuide: (guide: SiteStyleguide) => Effect.Effect<void>
  readonly insertRun: (run: StyleguideRun) => Effect.Effect<void>
  /** Replaces the stored run of the same id. */
  readonly updateRun: (run: StyleguideRun) => Effect.Effect<void>
  readonly findRun: (runId: string) => Effect.Effect<Option.Option<StyleguideRun>>
  /** The site's runs, newest first, keyed by `runKey`. */
  readonly listRuns: (siteId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<StyleguideRun>>
  readonly insertFindings: (findings: ReadonlyArray<StyleFinding>) => Effect.Effect<void>
  /** A run's findings in order, keyed by `findingKey`. */
  readonly findings: (runId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<StyleFinding>>
  /** Records (or moves to another run) the check of a change request. */
  readonly putCheck: (check: StyleguideCheck) => Effect.Effect<void>
  /** The checks of a site's space, the latest first. */
  readonly checksOfSpace: (siteId: string, spaceId: string) => Effect.Effect<ReadonlyArray<StyleguideCheck>>
  readonly checkOf: (changeRequestId: string) => Effect.Effect<Option.Option<StyleguideCheck>>
  /** Forgets the site's guide, runs, findings and checks (the site is deleted). */
  readonly removeSite: (siteId: string) => Effect.Effect<void>
}

/** Sort key of a site's runs: newest first. */
export const runKey = (r: StyleguideRun): Pagination.CursorKey => [r.createdAt.toISOString(), r.id]
export const runKeyShape: Pagination.KeyShape = ["timestamp", "string"]
/** Sort key of a run's findings: in order. */
export const findingKey = (f: StyleFinding): Pagination.CursorKey => [f.position]
export const findingKeyShape: Pagination.KeyShape = ["number"]

const withoutSeq = (c: StyleguideCheck): StyleguideCheck =>
  ({ changeRequestId: c.changeRequestId, siteId: c.siteId, spaceId: c.spaceId, runId: c.runId, checkedAt: c.checkedAt })

export class StyleguideRepo extends Context.Service<StyleguideRepo, StyleguideRepoShape>()("@quire/sites/StyleguideRepo") {
  static readonly layerMemory = Layer.sync(StyleguideRepo, () => {
    const guides = new MemoryStore.TxMap<string, SiteStyleguide>()
    const runs = new MemoryStore.TxMap<string, StyleguideRun>()
    const findings = new MemoryStore.TxMap<string, StyleFinding>()
    const checks = new MemoryStore.TxMap<string, StyleguideCheck & { readonly seq: number }>()
    let seq = 0
    const findingId = (f: Pick<StyleFinding, "runId" | "position">) => `${f.runId}\n${f.position}`
    return StyleguideRepo.of({
      guideOf: (siteId) => Effect.sync(() => Option.fromNullishOr(guides.get(siteId))),
      guidesOf: (organizationId) =>
        Effect.sync(() =>
          Array.from(guides.values())
            .filter((g) => g.organizationId === organizationId)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.siteId < b.siteId ? -1 : 1))
        ),
      putGuide: (guide) => Effect.sync(() => void guides.set(guide.siteId, guide)),
      insertRun: (run) => Effect.sync(() => void runs.set(run.id, run)),
      updateRun: (run) =>
        Effect.sync(() => {
          if (runs.has(run.id)) runs.set(run.id, run)
        }),
      findRun: (runId) => Effect.sync(() => Option.fromNullishOr(runs.get(runId))),
      listRuns: (siteId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(Array.from(runs.values()).filter((r) => r.siteId === siteId), runKey, { order: "desc", after, limit })
        ),
      insertFindings: (items) => Effect.sync(() => items.forEach((f) => void findings.set(findingId(f), f))),
      findings: (runId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(Array.from(findings.values()).filter((f) => f.runId === runId), findingKey, { order: "asc", after, limit })
        ),
      putCheck: (check) => Effect.sync(() => void checks.set(check.changeRequestId, { ...check, seq: ++seq })),
      checksOfSpace: (siteId, spaceId) =>
        Effect.sync(() =>
          Array.from(checks.values())
            .filter((c) => c.siteId === siteId && c.spaceId === spaceId)
            .sort((a, b) => b.seq - a.seq)
            .map(withoutSeq)
        ),
      checkOf: (changeRequestId) =>
        Effect.sync(() => Option.map(Option.fromNullishOr(checks.get(changeRequestId)), withoutSeq)),
      removeSite: (siteId) =>
        Effect.sync(() => {
          guides.delete(siteId)
          const gone = new Set<string>()
          for (const r of Array.from(runs.values())) {
            if (r.siteId === siteId) {
              runs.delete(r.id)
              gone.add(r.id)
            }
          }
          for (const [key, f] of Array.from(findings.entries())) if (gone.has(f.runId)) findings.delete(key)
          for (const [key, c] of Array.from(checks.entries())) if (c.siteId === siteId) checks.delete(key)
        })
    })
  })
}
