/** The use cases that start check runs (on a site's spaces, on one change request) and read them. */
import { Effect, Option } from "effect"
import { Actor, Errors, Pagination } from "@quire/kernel"
import type { SiteAccess } from "../SiteAccess.ts"
import type { StyleguideContext } from "./StyleguideContext.ts"
import { type RunCheck, runBounds, type SiteStyleguide, type StyleguideRun } from "./Styleguide.ts"
import { findingKeyShape, runKeyShape } from "./StyleguideRepo.ts"
import { RunJob, runTask } from "./StyleguideJob.ts"

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

export const runs = (ctx: StyleguideContext) => {
  const { guard, repo, structure, access, reviews, model, queue, ids, transactor, now, spaceOf, guideOf } = ctx

  const start = Effect.fnUntraced(function*(run: StyleguideRun) {
    yield* repo.insertRun(run)
    for (const check of run.checks) {
      yield* repo.putCheck({ changeRequestId: check.changeRequestId, siteId: run.siteId, spaceId: check.spaceId, runId: run.id, checkedAt: null })
    }
  })

  /** Queued once the run is stored (committed): a runner in this process may start it at once. */
  const enqueue = (run: StyleguideRun) =>
    queue.enqueue(runTask, { runId: run.id } satisfies typeof RunJob.Type, { jobKey: `${runTask}:${run.id}` }).pipe(Effect.orDie, Effect.as(run))

  const newRun = Effect.fnUntraced(function*(site: SiteAccess, guide: SiteStyleguide, target: StyleguideRun["target"], asked: ReadonlyArray<string>, checks: ReadonlyArray<RunCheck>) {
    const { userId } = yield* Actor.Actor
    return {
      id: yield* ids.make,
      organizationId: site.site.organizationId,
      siteId: site.site.id,
      styleguideSpaceId: guide.spaceId,
      spaces: asked,
      target,
      checks,
      status: "running",
      model: Option.isSome(model),
      findings: 0,
      error: null,
      createdAt: yield* now,
      createdBy: userId,
      finishedAt: null
    } satisfies StyleguideRun
  })

  const prepareOnSpaces = Effect.fnUntraced(function*(organizationId: string, siteId: string, asked: ReadonlyArray<string>) {
    const site = yield* guard.editor(organizationId, siteId, "run a style guide check")
    if (asked.length === 0 || asked.length > runBounds.spaces) return yield* bad("spaces", `names 1 to ${runBounds.spaces} spaces`)
    const { guide } = yield* guideOf(siteId)
    const ofSite = new Set((yield* structure.siteSpaces(siteId)).map((s) => s.spaceId))
    const unique = Array.from(new Set(asked))
    for (const [i, spaceId] of unique.entries()) {
      if (spaceId === guide.spaceId) return yield* bad(`spaces[${i}]`, "is the style guide itself")
      if (!ofSite.has(spaceId)) return yield* bad(`spaces[${i}]`, "is not a space of this site")
      const found = yield* access.space(spaceId).pipe(Effect.catchTag("NotFound", () => Effect.fail(bad(`spaces[${i}]`, "is not a space of this site"))))
      if (!found.permissions.edit) return yield* bad(`spaces[${i}]`, "is not a space you may edit")
    }
    const checks: Array<RunCheck> = []
    for (const spaceId of unique) {
      // The check still open on this space is taken over; otherwise a new draft is opened.
      let taken: RunCheck | undefined
      for (const earlier of yield* repo.checksOfSpace(siteId, spaceId)) {
        const cr = yield* reviews.changeRequest(spaceId, earlier.changeRequestId).pipe(Effect.option)
        if (Option.isSome(cr) && cr.value.open) {
          taken = { spaceId, changeRequestId: cr.value.id, opened: false }
          break
        }
      }
      if (taken === undefined) {
        const opened = yield* reviews.open(spaceId, `Style guide check: ${site.site.title}`)
        taken = { spaceId, changeRequestId: opened.id, opened: true }
      }
      checks.push(taken)
    }
    const run = yield* newRun(site, guide, "spaces", unique, checks)
    yield* start(run)
    return run
  }, transactor.transaction)

  const runOnSpaces = Effect.fn("Styleguides.runOnSpaces")(function*(organizationId: string, siteId: string, asked: ReadonlyArray<string>) {
    return yield* enqueue(yield* prepareOnSpaces(organizationId, siteId, asked))
  })

  const prepareOnChangeRequest = Effect.fnUntraced(function*(spaceId: string, ref: string, siteId: string | undefined) {
    const cr = yield* reviews.changeRequest(spaceId, ref)
    if (!cr.canComment) return yield* new Errors.Forbidden({ reason: "You need to be allowed to comment on this change request to check its style" })
    if (!cr.open) return yield* bad("changeRequestId", "is merged or archived: a style check comments only on a draft or open change request")
    const { space } = yield* access.space(spaceId)
    const candidates = siteId !== undefined
      ? [siteId]
      : Array.from(new Set((yield* structure.siteSpacesOfSpace(spaceId)).map((s) => s.siteId)))
    for (const candidate of candidates) {
      const site = yield* guard.site(space.organizationId, candidate).pipe(Effect.option)
      if (Option.isNone(site)) continue
      const guide = yield* repo.guideOf(candidate)
      if (Option.isNone(guide) || Option.isNone(yield* spaceOf(guide.value))) continue
      if (siteId === undefined || (yield* structure.siteSpacesOfSpace(spaceId)).some((s) => s.siteId === candidate)) {
        const run = yield* newRun(site.value, guide.value, "change-request", [spaceId], [{ spaceId, changeRequestId: cr.id, opened: false }])
        yield* start(run)
        return run
      }
    }
    return yield* bad(siteId === undefined ? "site" : "site", siteId === undefined
      ? "no site showing this space has a style guide: make one in the site's Style guide tab"
      : "is not a site showing this space with a style guide")
  }, transactor.transaction)

  const runOnChangeRequest = Effect.fn("Styleguides.runOnChangeRequest")(function*(spaceId: string, ref: string, siteId: string | undefined) {
    return yield* enqueue(yield* prepareOnChangeRequest(spaceId, ref, siteId))
  })

  const runOf = Effect.fnUntraced(function*(siteId: string, runId: string) {
    const run = yield* repo.findRun(runId)
    if (Option.isNone(run) || run.value.siteId !== siteId) return yield* new Errors.NotFound({ resource: "StyleguideRun", id: runId })
    return run.value
  })

  const listRuns = Effect.fn("Styleguides.listRuns")(function*(organizationId: string, siteId: string, page: Pagination.PageRequest) {
    yield* guard.site(organizationId, siteId)
    const after = yield* Pagination.afterOf(page, runKeyShape)
    return yield* repo.listRuns(siteId, after, Pagination.limitOf(page))
  })

  const getRun = Effect.fn("Styleguides.getRun")(function*(organizationId: string, siteId: string, runId: string) {
    yield* guard.site(organizationId, siteId)
    return yield* runOf(siteId, runId)
  })

  const findings = Effect.fn("Styleguides.findings")(function*(organizationId: string, siteId: string, runId: string, page: Pagination.PageRequest) {
    yield* guard.site(organizationId, siteId)
    yield* runOf(siteId, runId)
    const after = yield* Pagination.afterOf(page, findingKeyShape)
    return yield* repo.findings(runId, after, Pagination.limitOf(page))
  })

  return { runOnSpaces, runOnChangeRequest, listRuns, getRun, findings }
}
