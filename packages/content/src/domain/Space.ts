/** Spaces and collections as the domain sees them. */
import { Schema } from "effect"
import { MergeRules as MergeRules_, Roles } from "@quire/kernel"

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

/** One of GitBook's MergeRules (kernel's MergeRules, which organizations share). */
export const MergeRule = MergeRules_.MergeRule
export type MergeRule = MergeRules_.MergeRule

/** GitBook's MergeRulesSpaceConfiguration: inherit the organization's, none, or rules that must all pass. */
export const MergeRules = MergeRules_.SpaceConfiguration
export type MergeRules = MergeRules_.SpaceConfiguration

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
