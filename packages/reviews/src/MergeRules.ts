/**
 * The merge rules that apply to a space (GitBook's `mergeRules`: its own, or its organization's
 * when it inherits them) applied to a change request about to merge: the first rule it fails
 * refuses the merge, with a message that names the rule.
 */
import { Effect } from "effect"
import { ContentAccess, type MergeRule, type Space } from "@quire/content"
import { Errors, type MergeRules } from "@quire/kernel"
import { plainText } from "@quire/markdown"
import type { ChangeRequest } from "./domain/ChangeRequest.ts"
import type { Review } from "./domain/Review.ts"
import { CustomRules } from "./CustomRules.ts"
import { ReviewsRepo } from "./ReviewsRepo.ts"

/** What the rules are applied to. */
export interface MergeContext {
  readonly changeRequest: ChangeRequest
  /** Every review of the change request, oldest first. */
  readonly reviews: ReadonlyArray<Review>
  /** The space's current revision (main). */
  readonly mainRevision: string
  /** Who is merging. */
  readonly actorId: string
}

/** The rules a configuration that applies to a space asks for (ContentAccess.mergeRules resolved `inherit`). */
export const rulesOf = (configuration: MergeRules.StandaloneConfiguration): ReadonlyArray<MergeRule> =>
  configuration.type === "rules" ? configuration.rules : []

/** Whether the rules that apply to a space let a change request's author approve it (Quire's `allow_author_approval`). */
export const authorMayApprove = (configuration: MergeRules.StandaloneConfiguration): boolean =>
  rulesOf(configuration).some((rule) => rule.rule === "allow_author_approval")

/** Each reviewer's latest review, in the order of those reviews. */
export const latestReviews = (reviews: ReadonlyArray<Review>): ReadonlyArray<Review> => {
  const latest = new Map<string, Review>()
  for (const review of reviews) {
    latest.delete(review.reviewerId)
    latest.set(review.reviewerId, review)
  }
  return Array.from(latest.values())
}

/** Whether a change request's description says something: a letter or a digit in its text (not only markup, an image or blanks). */
export const hasWords = (description: string | null): boolean => description !== null && /[\p{L}\p{N}]/u.test(plainText(description))

const names = (users: ReadonlyArray<string>) => users.map((u) => JSON.stringify(u)).join(", ")

/** Why `rule` refuses the merge, or undefined when it passes. */
const refusalOf = (rule: MergeRule, context: MergeContext): string | undefined => {
  const cr = context.changeRequest
  const latest = latestReviews(context.reviews)
  // Only a review of the head counts: an approval of an earlier revision did not see the latest edits.
  const current = latest.filter((r) => r.revision === cr.revision)
  const approvers = new Set(current.filter((r) => r.status === "approved").map((r) => r.reviewerId))
  switch (rule.rule) {
    case "require_at_least_one_review":
      return current.length > 0 ? undefined : "This change request needs a review of its latest revision"
    case "require_at_least_one_approved_review":
      return approvers.size > 0 ? undefined : "This change request needs an approved review of its latest revision"
    case "require_all_reviews_approved": {
      const blocking = latest.filter((r) => r.status === "changes-requested").map((r) => r.reviewerId)
      return blocking.length === 0
        ? undefined
        : `Every review of this change request must approve it; changes were requested by ${names(blocking)}`
    }
    case "require_specific_reviewers": {
      const missing = rule.users.filter((u) => !approvers.has(u))
      return missing.length === 0
        ? undefined
        : `This change request needs an approved review of its latest revision from each of ${names(rule.users)}; missing ${names(missing)}`
    }
    case "require_one_of_specific_reviewers":
      return rule.users.some((u) => approvers.has(u))
        ? undefined
        : `This change request needs an approved review of its latest revision from one of ${names(rule.users)}`
    case "require_up_to_date_change_request":
      return cr.revisionMergedAncestor === context.mainRevision
        ? undefined
        : "This change request is not up to date with the space's content; update it, then merge"
    case "require_change_request_subject":
      return cr.subject.trim() !== "" ? undefined : "This change request needs a subject"
    case "require_change_request_description":
      return hasWords(cr.description) ? undefined : "This change request needs a description that says what it changes"
    case "require_author_to_merge":
      return cr.createdBy === context.actorId ? undefined : "Only the author of this change request may merge it"
    case "allow_bypass":
    case "allow_author_approval":
    // Evaluated in the sandbox by `enforcer` (CustomRules), in its place among the others.
    case "custom":
      return undefined
    // Refused when the rules are set (Spaces.update), so a space never holds it.
    case "require_agent_review":
      return `${rule.rule} cannot be evaluated by Quire`
  }
}

/**
 * The first refusal of `rules` for the merge (`rule: message`), or undefined when the merge may go
 * ahead. A user named by `allow_bypass` merges whatever the other rules say. Custom rules are
 * left to `enforcer`, which runs them in the sandbox.
 */
export const evaluate = (rules: ReadonlyArray<MergeRule>, context: MergeContext): { readonly rule: string; readonly message: string } | undefined => {
  const bypass = rules.some((rule) => rule.rule === "allow_bypass" && rule.users.includes(context.actorId))
  if (bypass) return undefined
  for (const rule of rules) {
    const message = refusalOf(rule, context)
    if (message !== undefined) return { rule: rule.rule, message }
  }
  return undefined
}

/**
 * What a custom rule's expression reads (GitBook's MergeRulesEvaluationContext, as plain data):
 * the change request, every review of it (oldest first, `outdated` when not of its head), the
 * space and the actor. Users are `{ id }`.
 */
export const customContext = (space: Space, context: MergeContext) => {
  const cr = context.changeRequest
  return {
    changeRequest: {
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject,
      createdBy: { id: cr.createdBy },
      createdAt: cr.createdAt.toISOString(),
      revision: cr.revision,
      revisionInitial: cr.revisionInitial,
      revisionMergedAncestor: cr.revisionMergedAncestor,
      outdated: cr.revisionMergedAncestor !== context.mainRevision,
      contributors: cr.contributors.map((id) => ({ id }))
    },
    reviews: context.reviews.map((r) => ({
      id: r.id,
      revision: r.revision,
      reviewer: { id: r.reviewerId },
      ...(r.requestedBy === null ? {} : { requestedBy: { id: r.requestedBy } }),
      status: r.status,
      outdated: r.revision !== cr.revision,
      createdAt: r.createdAt.toISOString()
    })),
    space: { id: space.id, title: space.title, organization: space.organizationId, revision: context.mainRevision },
    actor: { id: context.actorId }
  }
}

/** A rule that blocks the merge: its name, its place among the rules, and why, in words. */
export interface Blocker {
  readonly rule: string
  readonly index: number
  readonly message: string
}

/** The rules that apply to a change request's merge by an actor, and which of them block it. */
export interface MergeCheck {
  /** The rules that apply: the space's own, or its organization's when it follows them (`inherited`). */
  readonly rules: MergeRules.StandaloneConfiguration
  readonly inherited: boolean
  /** The actor is named by `allow_bypass`: no rule blocks them. */
  readonly bypass: boolean
  /** In the rules' order; empty when the merge may go ahead. */
  readonly blockers: ReadonlyArray<Blocker>
}

/**
 * Checks the rules that apply to a space (its own or its organization's) against a change request
 * and an actor, in order, each custom rule evaluated in the sandbox; with `first`, stops at the
 * first that blocks (a merge needs no more). Built once with the ReviewsRepo, ContentAccess and
 * CustomRules.
 */
export const checker = Effect.gen(function*() {
  const repo = yield* ReviewsRepo
  const access = yield* ContentAccess
  const custom = yield* CustomRules
  return Effect.fnUntraced(function*(space: Space, changeRequest: ChangeRequest, actorId: string, options: { readonly first: boolean }) {
    const configuration = yield* access.mergeRules(space)
    const rules = rulesOf(configuration)
    const inherited = space.mergeRules.type === "inherit"
    const bypass = rules.some((rule) => rule.rule === "allow_bypass" && rule.users.includes(actorId))
    if (rules.length === 0 || bypass) return { rules: configuration, inherited, bypass, blockers: [] } satisfies MergeCheck
    const reviews = yield* repo.allReviews(changeRequest.id)
    const context: MergeContext = { changeRequest, reviews, mainRevision: space.revisionId, actorId }
    const blockers: Array<Blocker> = []
    for (const [index, rule] of rules.entries()) {
      if (options.first && blockers.length > 0) break
      if (rule.rule === "custom") {
        const outcome = yield* custom.evaluate(rule.expression, customContext(space, context))
        if (outcome.passed) continue
        const message = rule.message !== undefined && rule.message.trim() !== ""
          ? `${rule.message} (${outcome.reason})`
          : `A custom merge rule is not met: ${outcome.reason}`
        blockers.push({ rule: rule.rule, index, message })
        continue
      }
      const message = refusalOf(rule, context)
      if (message !== undefined) blockers.push({ rule: rule.rule, index, message })
    }
    return { rules: configuration, inherited, bypass, blockers } satisfies MergeCheck
  })
})

/**
 * Refuses with a 400 (InvalidInput, field `mergeRules`) the merge of `changeRequest` in a space
 * whose rules (its own or its organization's) it fails, naming the first that fails; for Merges.
 */
export const enforcer = Effect.map(checker, (check) =>
  Effect.fnUntraced(function*(space: Space, changeRequest: ChangeRequest, actorId: string) {
    const first = (yield* check(space, changeRequest, actorId, { first: true })).blockers[0]
    if (first === undefined) return
    const named = first.rule === "custom" ? `custom, rules[${first.index}]` : first.rule
    return yield* new Errors.InvalidInput({ field: "mergeRules", reason: `${first.message} (merge rule ${named})` })
  }))
