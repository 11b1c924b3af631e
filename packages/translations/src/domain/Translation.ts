/** A translation: a result space kept as the translated copy of a source space, with its run's state. */
import { Schema } from "effect"
import { Language } from "@quire/content/domain/Space"

/** GitBook's `TranslationLanguage`: content's `Language`, one literal set. */
export const TranslationLanguage = Language
export type TranslationLanguage = typeof TranslationLanguage.Type

/** GitBook's `pending`, `running`, `completed`; `failed` is Quire's: the last run stopped, `failure` says why. */
export const TranslationStatus = Schema.Literals(["pending", "running", "completed", "failed"])
export type TranslationStatus = typeof TranslationStatus.Type

export const TranslationStats = Schema.Struct({
  runs: Schema.Finite,
  totalWords: Schema.Finite,
  totalPages: Schema.Finite,
  totalDuration: Schema.Finite,
  latestRunDuration: Schema.Finite,
  latestPages: Schema.Finite,
  latestWords: Schema.Finite
})
export type TranslationStats = typeof TranslationStats.Type

export const emptyStats: TranslationStats = {
  runs: 0,
  totalWords: 0,
  totalPages: 0,
  totalDuration: 0,
  latestRunDuration: 0,
  latestPages: 0,
  latestWords: 0
}

/** GitBook's `JSONDocument` as stored: checked by `Instructions.validate` before it gets here. */
export type InstructionsDocument = Readonly<Record<string, unknown>>

export interface Translation {
  readonly id: string
  readonly organizationId: string
  readonly sourceSpaceId: string
  readonly sourceLanguage: TranslationLanguage
  readonly language: TranslationLanguage
  readonly instructions: InstructionsDocument
  readonly resultSpaceId: string
  /** Who created the translation or last changed its instructions: its runs read and write as them. */
  readonly actorId: string
  /** The revision the last successful run wrote; null before one. */
  readonly resultRevisionId: string | null
  readonly status: TranslationStatus
  /** Why the last run failed; null otherwise. */
  readonly failure: string | null
  readonly stats: TranslationStats
  /** Hash of each source page's translated content at the last successful run, by source page id. */
  readonly pageHashes: Readonly<Record<string, string>>
  readonly createdAt: Date
  readonly updatedAt: Date
}
