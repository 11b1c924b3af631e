/**
 * Use cases on sites' style guides (GitBook's): the starter templates, the organization's guides,
 * a site's guide (a space whose `##` headings are its rules, made blank or from a template), and
 * check runs. A run checks spaces (each in a draft change request it opens, or the check still open
 * on that space, taken over: GitBook's run) or one change request (Quire's "Check style"), in a
 * queued job: each sentence that breaks a rule becomes a review comment on its page and block,
 * naming the rule and proposing a fix, and a finding of the run. The rules that name words, terms,
 * lengths and the passive voice run without a model; with one, it checks the rest and proposes
 * rewrites. Members who see a site read its guide and runs; its editors make the guide and run
 * checks on spaces; whoever may comment on a change request checks its style.
 */
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { ContentAccess, flattenPages, type PageNode, type SpaceAccess, Spaces, SpaceContent, documentHash } from "@quire/content"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { JobQueue } from "@quire/queue"
import type { SiteAccess } from "../SiteAccess.ts"
import * as SiteGuard from "../SiteGuard.ts"
import { SiteStructureRepo } from "../SiteStructureRepo.ts"
import { anchorOf, blocksOf, checkBlock, type StyleHit } from "./StyleCheck.ts"
import { type RunCheck, runBounds, type SiteStyleguide, type StyleFinding, type StyleguideRun } from "./Styleguide.ts"
import { findingKeyShape, runKeyShape, StyleguideRepo } from "./StyleguideRepo.ts"
import { StyleguideModel, modelHits, withoutModel } from "./StyleguideModel.ts"
import { type ReviewPage, StyleguideReviews } from "./StyleguideReviews.ts"
import { parseRules, type StyleRule } from "./StyleRules.ts"
import { styleguideTemplate, styleguideTemplates, type StyleguideTemplate } from "./StyleguideTemplates.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** The task name of a run on the durable queue. */
export const runTask = "styleguide.run"
export const RunJob = Schema.Struct({ runId: Schema.String })

/** A site's guide as a screen shows it: its space, its rules, and what a model adds. */
export interface StyleguideView {
  readonly guide: SiteStyleguide
  readonly space: SpaceAccess
  readonly rules: ReadonlyArray<StyleRule>
  /** Whether a model checks the prose rules on this server. */
  readonly model: boolean
  /** What a model would add, when there is none; null when there is one. */
  readonly withoutModel: string | null
}

export interface OrganizationStyleguide {
  readonly space: SpaceAccess
  readonly sites: ReadonlyArray<SiteAccess>
}

export interface StartedRun {
  readonly run: StyleguideRun
}

export interface StyleguidesShape {
  readonly templates: (organizationId: string) => Effect.Effect<ReadonlyArray<StyleguideTemplate>, Errors.NotFound, Actor.Actor>
  /** The organization's guides the caller may see, each with the sites (the caller sees) using it. */
  readonly listForOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<OrganizationStyleguide>, Errors.NotFound, Actor.Actor>
  /** The site's guide space, made (blank, or from `template`) when it has none: idempotent (site editors). */
  readonly ensure: (organizationId: string, siteId: string, template: string | undefined) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** The site's guide and its rules; NotFound when it has none. */
  readonly get: (organizationId: string, siteId: string) => Effect.Effect<StyleguideView, Errors.NotFound, Actor.Actor>
  /** Starts a run over 1 to 3 of the site's spaces (site editors). */
  readonly runOnSpaces: (organizationId: string, siteId: string, spaces: ReadonlyArray<string>) => Effect.Effect<StyleguideRun, Denied | Errors.InvalidInput, Actor.Actor>
  /** Starts a run on one change request, with the guide of `siteId` or else of the first site showing the space that has one. */
  readonly runOnChangeRequest: (spaceId: string, ref: string, siteId: string | undefined) => Effect.Effect<StyleguideRun, Denied | Errors.InvalidInput, Actor.Actor>
  readonly listRuns: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<StyleguideRun>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly getRun: (organizationId: string, siteId: string, runId: string) => Effect.Effect<StyleguideRun, Errors.NotFound, Actor.Actor>
  readonly findings: (organizationId: string, siteId: string, runId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<StyleFinding>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Does a run (the job): checks its change requests, comments and records the findings. */
  readonly execute: (runId: string) => Effect.Effect<void>
}

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })
const noGuide = (siteId: string) => new Errors.NotFound({ resource: "Styleguide", id: siteId })

/** A finding as its review comment says it: plain lines (the review shows comments as text, mentions aside). */
export const commentOf = (hit: StyleHit, source: "rule" | "model"): string =>
  [
    `Style guide · ${hit.ruleTitle}: ${hit.message}`,
    `“${hit.sentence.replace(/\s*\n\s*/g, " ")}”`,
    ...(hit.fix === null ? [] : [`Suggested: ${hit.fix}`]),
    source === "model" ? "(Found by the style guide check, with the model.)" : "(Found by the style guide check.)"
  ].join("\n")

export class Styleguides extends Context.Service<Styleguides, StyleguidesShape>()("@quire/sites/Styleguides") {
  static readonly layer = Layer.effect(
    Styleguides,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const repo = yield* StyleguideRepo
      const structure = yield* SiteStructureRepo
      const access = yield* ContentAccess
      const spaces = yield* Spaces
      const content = yield* SpaceContent
      const reviews = yield* StyleguideReviews
      const { model } = yield* StyleguideModel
      const queue = yield* JobQueue
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const templates = Effect.fn("Styleguides.templates")(function*(organizationId: string) {
        yield* guard.member(organizationId)
        return styleguideTemplates
      })

      /** The guide's space when it is still there (a trashed or purged space is no guide). */
      const spaceOf = (guide: SiteStyleguide) =>
        spaces.get(guide.spaceId).pipe(
          Effect.map((found) => (found.space.deletedAt === null ? Option.some(found) : Option.none<SpaceAccess>())),
          Effect.catchTag("NotFound", () => Effect.succeed(Option.none<SpaceAccess>()))
        )

      const listForOrganization = Effect.fn("Styleguides.listForOrganization")(function*(organizationId: string) {
        yield* guard.member(organizationId)
        const bySpace = new Map<string, { space: SpaceAccess; sites: Array<SiteAccess> }>()
        for (const guide of yield* repo.guidesOf(organizationId)) {
          const site = yield* guard.site(organizationId, guide.siteId).pipe(Effect.option)
          const space = bySpace.get(guide.spaceId)?.space ?? Option.getOrUndefined(yield* spaceOf(guide))
          if (space === undefined) continue
          const entry = bySpace.get(guide.spaceId) ?? { space, sites: [] }
          if (Option.isSome(site)) entry.sites.push(site.value)
          bySpace.set(guide.spaceId, entry)
        }
        return Array.from(bySpace.values())
      })

      const ensure = Effect.fn("Styleguides.ensure")(function*(organizationId: string, siteId: string, template: string | undefined) {
        const { site } = yield* guard.editor(organizationId, siteId, "make this site's style guide")
        const chosen = template === undefined ? undefined : styleguideTemplate(template)
        if (template !== undefined && chosen === undefined) {
          return yield* bad("template", `is not a style guide template; the templates are ${styleguideTemplates.map((t) => t.id).join(", ")}`)
        }
        const existing = yield* repo.guideOf(siteId)
        if (Option.isSome(existing)) {
          const space = yield* spaceOf(existing.value)
          if (Option.isSome(space)) return space.value
        }
        const made = yield* spaces.create(organizationId, { title: `${site.title} style guide`, emoji: chosen?.emoji ?? "✍️" })
        const markdown = chosen?.markdown ?? "# Style guide\n\nWrite each rule under a `##` heading. A line such as `Avoid: \"simply\".`, `Use \"sign in\", not \"log in\".` or `Sentences: at most 25 words.` is checked without a model.\n"
        yield* content.commit(made.space.id, (parent) =>
          Effect.gen(function*() {
            const at = (yield* now).toISOString()
            const document = documentHash(markdown)
            const page: PageNode = { id: yield* ids.make, type: "document", title: "Style guide", slug: "style-guide", document, createdAt: at, updatedAt: at, pages: [] }
            return { pages: [...parent.pages, page], documents: new Map([[document, markdown]]) }
          }))
        const { userId } = yield* Actor.Actor
        yield* repo.putGuide({ siteId, organizationId, spaceId: made.space.id, template: chosen?.id ?? null, createdAt: yield* now, createdBy: userId })
        return yield* spaces.get(made.space.id)
      }, transactor.transaction)

      /** The rules of a guide's space: every document page's markdown, in the tree's order. */
      const rulesOf = Effect.fnUntraced(function*(spaceId: string) {
        const current = yield* content.revision(spaceId)
        const texts: Array<string> = []
        for (const { page } of flattenPages(current.revision.pages)) {
          if (page.type !== "document") continue
          const entry = yield* content.pageEntryIn(current.revision, page.id)
          texts.push((yield* content.pageMarkdown(entry)) ?? "")
        }
        return parseRules(texts.join("\n\n"))
      })

      const guideOf = Effect.fnUntraced(function*(siteId: string) {
        const guide = yield* repo.guideOf(siteId)
        if (Option.isNone(guide)) return yield* noGuide(siteId)
        const space = yield* spaceOf(guide.value)
        if (Option.isNone(space)) return yield* noGuide(siteId)
        return { guide: guide.value, space: space.value }
      })

      const get = Effect.fn("Styleguides.get")(function*(organizationId: string, siteId: string) {
        yield* guard.site(organizationId, siteId)
        const { guide, space } = yield* guideOf(siteId)
        const rules = yield* rulesOf(space.space.id)
        return { guide, space, rules, model: Option.isSome(model), withoutModel: Option.isSome(model) ? null : withoutModel }
      })

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

      /** The findings of one page: the rules' own, then the model's on what they did not already flag. */
      const checkPage = Effect.fnUntraced(function*(rules: ReadonlyArray<StyleRule>, page: ReviewPage) {
        const blocks = blocksOf(page.markdown)
        const own = blocks.flatMap((b) => checkBlock(b, rules)).map((hit) => ({ hit, source: "rule" as const }))
        if (Option.isNone(model)) return { hits: own, error: null }
        const byModel = yield* modelHits(model.value, rules, blocks).pipe(
          Effect.map((hits) => ({ hits, error: null as string | null })),
          Effect.catch((error) => Effect.succeed({ hits: [] as ReadonlyArray<StyleHit>, error }))
        )
        const seen = new Set(own.map(({ hit }) => `${hit.block}:${hit.offset}:${hit.ruleId}`))
        const added = byModel.hits.filter((hit) => !seen.has(`${hit.block}:${hit.offset}:${hit.ruleId}`)).map((hit) => ({ hit, source: "model" as const }))
        return { hits: [...own, ...added].sort((a, b) => a.hit.block - b.hit.block || a.hit.offset - b.hit.offset), error: byModel.error }
      })

      const perform = Effect.fnUntraced(function*(run: StyleguideRun) {
        const rules = yield* rulesOf(run.styleguideSpaceId)
        const found: Array<StyleFinding> = []
        const errors: Array<string> = []
        for (const check of run.checks) {
          const pages = yield* reviews.pages(check.spaceId, check.changeRequestId, run.target === "change-request" ? "changed" : "all")
          for (const page of pages) {
            if (found.length >= runBounds.findingsPerRun) break
            const { hits, error } = yield* checkPage(rules, page)
            if (error !== null && !errors.includes(error)) errors.push(error)
            for (const { hit, source } of hits.slice(0, runBounds.findingsPerPage)) {
              if (found.length >= runBounds.findingsPerRun) break
              const commentId = yield* reviews.comment(check.spaceId, check.changeRequestId, { page: page.id, node: anchorOf(hit), markdown: commentOf(hit, source) }).pipe(
                Effect.map((id): string | null => id),
                Effect.catch(() => Effect.succeed(null))
              )
              found.push({
                runId: run.id,
                position: found.length,
                spaceId: check.spaceId,
                changeRequestId: check.changeRequestId,
                pageId: page.id,
                pageTitle: page.title,
                ruleId: hit.ruleId,
                ruleTitle: hit.ruleTitle,
                message: hit.message,
                quote: hit.quote,
                sentence: hit.sentence,
                fix: hit.fix,
                source,
                commentId
              })
            }
          }
          yield* repo.putCheck({ changeRequestId: check.changeRequestId, siteId: run.siteId, spaceId: check.spaceId, runId: run.id, checkedAt: yield* now })
        }
        return { found, error: errors.length === 0 ? null : errors.join("; ") }
      })

      const execute = Effect.fn("Styleguides.execute")(function*(runId: string) {
        const stored = yield* repo.findRun(runId)
        if (Option.isNone(stored) || stored.value.status !== "running") return
        const run = stored.value
        const outcome = yield* perform(run).pipe(
          Effect.provideService(Actor.Actor, { userId: run.createdBy, instanceAdmin: false }),
          Effect.map((r) => ({ ...r, failed: false })),
          Effect.catch((error) => Effect.succeed({ found: [] as Array<StyleFinding>, error: "reason" in error ? String(error.reason) : error.message, failed: true })),
          // A defect is recorded too: a run is never left running.
          Effect.catchDefect((defect) => Effect.succeed({ found: [] as Array<StyleFinding>, error: `The check stopped: ${String(defect)}`, failed: true }))
        )
        yield* transactor.transaction(Effect.andThen(
          repo.insertFindings(outcome.found),
          Effect.flatMap(now, (at) =>
            repo.updateRun({ ...run, status: outcome.failed ? "failed" : "done", findings: outcome.found.length, error: outcome.error, finishedAt: at }))
        ))
      })

      return Styleguides.of({ templates, listForOrganization, ensure, get, runOnSpaces, runOnChangeRequest, listRuns, getRun, findings, execute })
    })
  )
}
