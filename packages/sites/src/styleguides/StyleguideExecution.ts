/** Doing a run (the queued job): checking its change requests' pages, commenting, recording the findings. */
import { Effect, Option } from "effect"
import { Actor } from "@quire/kernel"
import { aiForConversation, aiForOrganization } from "@quire/outbound"
import { anchorOf, blocksOf, checkBlock, type StyleHit } from "./StyleCheck.ts"
import { runBounds, type StyleFinding, type StyleguideRun } from "./Styleguide.ts"
import type { StyleguideContext } from "./StyleguideContext.ts"
import { modelHits } from "./StyleguideModel.ts"
import type { ReviewPage } from "./StyleguideReviews.ts"
import type { StyleRule } from "./StyleRules.ts"

/** A finding as its review comment says it: plain lines (the review shows comments as text, mentions aside). */
export const commentOf = (hit: StyleHit, source: "rule" | "model"): string =>
  [
    `Style guide · ${hit.ruleTitle}: ${hit.message}`,
    `“${hit.sentence.replace(/\s*\n\s*/g, " ")}”`,
    ...(hit.fix === null ? [] : [`Suggested: ${hit.fix}`]),
    source === "model" ? "(Found by the style guide check, with the model.)" : "(Found by the style guide check.)"
  ].join("\n")

export const execution = (ctx: StyleguideContext) => {
  const { repo, reviews, model, transactor, now, rulesOf } = ctx

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
        // The model's checks spend the organization's AI budget.
        const { hits, error } = yield* checkPage(rules, page).pipe(aiForOrganization(run.organizationId), aiForConversation(run.id, "styleguide"))
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

  return { execute }
}
