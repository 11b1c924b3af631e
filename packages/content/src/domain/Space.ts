/** Spaces and collections as the domain sees them. */
import { Schema } from "effect"
import { Roles } from "@quire/kernel"

/** A space's or collection's level for organization members: a role, null (no access), or inherited. */
export const DefaultLevel = Schema.Union([Roles.MemberRole, Schema.Null, Schema.Literal("inherit")])
export type DefaultLevel = typeof DefaultLevel.Type

export const Visibility = Schema.Literals(["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"])
export type Visibility = typeof Visibility.Type

export const EditMode = Schema.Literals(["live", "locked"])
export type EditMode = typeof EditMode.Type

/** The language of a space's content (GitBook's TranslationLanguage). */
export const Language = Schema.Literals([
  "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
  "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv",
  "et", "sl"
])
export type Language = typeof Language.Type

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

/** One of GitBook's MergeRules (its `custom` expressions are not supported). */
export const MergeRule = Schema.Union([
  UsersMergeRule("require_specific_reviewers"),
  UsersMergeRule("require_one_of_specific_reviewers"),
  UsersMergeRule("allow_bypass"),
  Schema.Struct({ rule: PlainMergeRuleName }),
  // Quire's extension (GitBook has no such rule): the author of a change request may approve it,
  // and that approval counts for the other rules. Without it, the author cannot review their own.
  Schema.Struct({ rule: Schema.Literal("allow_author_approval") })
])
export type MergeRule = typeof MergeRule.Type

/**
 * GitBook's MergeRulesSpaceConfiguration: inherit the organization's (which has none yet, so as
 * `none`), none, or rules that must all pass for a change request to merge.
 */
export const MergeRules = Schema.Union([
  Schema.Struct({ type: Schema.Literal("inherit") }),
  Schema.Struct({ type: Schema.Literal("none") }),
  Schema.Struct({ type: Schema.Literal("rules"), rules: Schema.Array(MergeRule).check(Schema.isMaxLength(50)) })
])
export type MergeRules = typeof MergeRules.Type

export interface Space {
  readonly id: string
  readonly organizationId: string
  /** The parent collection, if any. */
  readonly parentId: string | null
  readonly title: string
  readonly emoji: string
  readonly visibility: Visibility
  readonly editMode: EditMode
  readonly defaultLevel: DefaultLevel
  readonly language: Language | null
  /** What a change request must meet to be merged. */
  readonly mergeRules: MergeRules
  /** Order among the siblings of the same parent (smaller first). */
  readonly position: number
  /** The current revision of the space's content. */
  readonly revisionId: string
  /** Secret that resolves published URLs of share-link content. */
  readonly shareKey: string
  readonly createdAt: Date
  readonly updatedAt: Date
  /** Set when the space is in the trash (restorable for 7 days). */
  readonly deletedAt: Date | null
}

export interface Collection {
  readonly id: string
  readonly organizationId: string
  readonly parentId: string | null
  readonly title: string
  readonly description: string | null
  readonly defaultLevel: DefaultLevel
  readonly position: number
  readonly createdAt: Date
  readonly updatedAt: Date
}
