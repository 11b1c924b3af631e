/**
 * GitBook's merge rules: what a change request must meet to be merged, as a space (which may
 * inherit) and an organization (whose rules are its spaces' defaults) set them, and the checks a
 * configuration passes before it is stored. Identity stores an organization's, content a space's.
 */
import { Schema } from "effect"

/** GitBook's merge rules that name users: every one of them, one of them, or who may merge without the rules. */
const UsersMergeRule = <R extends string>(rule: R) =>
  Schema.Struct({
    rule: Schema.Literal(rule),
    users: Schema.Array(Schema.String.check(Schema.isPattern(/^[a-zA-Z0-9_-]+$/), Schema.isMaxLength(100))).check(Schema.isMaxLength(100))
  })

/** GitBook's merge rules without settings. */
export const PlainMergeRuleName = Schema.Literals([
  "require_at_least_one_review",
  "require_at_least_one_approved_review",
  "require_all_reviews_approved",
  "require_agent_review",
  "require_up_to_date_change_request",
  "require_change_request_subject",
  "require_change_request_description",
  "require_author_to_merge"
])

/** The longest `custom` expression (GitBook's Expression) and message, in characters. */
export const maxExpressionLength = 1024

/**
 * GitBook's `custom` rule: a JavaScript expression over `changeRequest`, `reviews`, `space` and
 * `actor` that must be true for the change request to merge, and the message shown when it is not.
 * Its length is checked by `refusal`, so that a 400 names the field and the limit.
 */
export const CustomMergeRule = Schema.Struct({
  rule: Schema.Literal("custom"),
  expression: Schema.String.annotate({ description: `Expression to evaluate (at most ${maxExpressionLength} characters)` }),
  message: Schema.optionalKey(Schema.String.annotate({ description: "Message shown when the expression is not true" }))
})

/** One of GitBook's MergeRules. */
export const MergeRule = Schema.Union([
  UsersMergeRule("require_specific_reviewers"),
  UsersMergeRule("require_one_of_specific_reviewers"),
  UsersMergeRule("allow_bypass"),
  Schema.Struct({ rule: PlainMergeRuleName }),
  CustomMergeRule,
  // Quire's extension (GitBook has no such rule): the author of a change request may approve it,
  // and that approval counts for the other rules. Without it, the author cannot review their own.
  Schema.Struct({ rule: Schema.Literal("allow_author_approval") })
])
export type MergeRule = typeof MergeRule.Type

const RulesConfiguration = Schema.Struct({ type: Schema.Literal("rules"), rules: Schema.Array(MergeRule).check(Schema.isMaxLength(50)) })
const NoneConfiguration = Schema.Struct({ type: Schema.Literal("none") })

/** GitBook's MergeRulesStandaloneConfiguration (an organization's): none, or rules that must all pass. */
export const StandaloneConfiguration = Schema.Union([NoneConfiguration, RulesConfiguration])
export type StandaloneConfiguration = typeof StandaloneConfiguration.Type

/** GitBook's MergeRulesSpaceConfiguration: inherit the organization's, none, or rules that must all pass. */
export const SpaceConfiguration = Schema.Union([Schema.Struct({ type: Schema.Literal("inherit") }), NoneConfiguration, RulesConfiguration])
export type SpaceConfiguration = typeof SpaceConfiguration.Type

/** The rules that apply to a space: its own, or with `inherit` its organization's. */
export const effective = (space: SpaceConfiguration, organization: StandaloneConfiguration): StandaloneConfiguration =>
  space.type === "inherit" ? organization : space

/** GitBook's merge rules that Quire cannot evaluate: there are no agents. */
const unsupported: Readonly<Record<string, string>> = {
  require_agent_review: "Quire has no review agents"
}

/**
 * Why a configuration cannot be stored, naming the field under `mergeRules` (`mergeRules.rules[1]`),
 * or undefined when Quire can enforce it: each rule once (custom ones as many as wanted), rules
 * Quire evaluates, users where needed, expressions and messages of at most 1,024 characters.
 */
export const refusal = (configuration: SpaceConfiguration): { readonly field: string; readonly reason: string } | undefined => {
  if (configuration.type !== "rules") return undefined
  const seen = new Set<string>()
  for (const [index, rule] of configuration.rules.entries()) {
    const field = `mergeRules.rules[${index}]`
    const why = unsupported[rule.rule]
    if (why !== undefined) return { field, reason: `${rule.rule} is not supported: ${why}` }
    if (rule.rule === "custom") {
      if (rule.expression.trim() === "") return { field: `${field}.expression`, reason: "a custom rule needs an expression" }
      if (rule.expression.length > maxExpressionLength) {
        return { field: `${field}.expression`, reason: `a custom rule's expression is at most ${maxExpressionLength} characters; this one has ${rule.expression.length}` }
      }
      if (rule.message !== undefined && rule.message.length > maxExpressionLength) {
        return { field: `${field}.message`, reason: `a custom rule's message is at most ${maxExpressionLength} characters` }
      }
      continue
    }
    if (seen.has(rule.rule)) return { field, reason: `${rule.rule} is given twice` }
    seen.add(rule.rule)
    if ("users" in rule && rule.rule !== "allow_bypass" && rule.users.length === 0) {
      return { field: `${field}.users`, reason: `${rule.rule} needs at least one user` }
    }
  }
  return undefined
}
