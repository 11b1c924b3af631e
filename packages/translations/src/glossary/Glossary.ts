/**
 * An organization's translation glossary (GitBook's `GlossaryEntry`): a term in several languages.
 * A run from one language to another takes the entries that name both, and the translator never
 * sees those terms: each is a placeholder it keeps, put back as the glossary's word afterwards.
 */
import { Schema } from "effect"
import { TranslationLanguage } from "../domain/Translation.ts"

/** One word of a glossary entry: 1 to 255 characters on one line. */
export const GlossaryWord = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(255), Schema.isPattern(/^[^\n\r]*$/))

/** GitBook's `GlossaryTranslations`: a word by language code (the codes are checked by `languageProblem`). */
export const GlossaryTranslations = Schema.Record(Schema.String, GlossaryWord)
export type GlossaryTranslations = typeof GlossaryTranslations.Type

const isLanguage = Schema.is(TranslationLanguage)

/** The first key of `translations` that is not one of GitBook's language codes, if any; or "" when it has none at all. */
export const languageProblem = (translations: GlossaryTranslations): string | undefined => {
  const keys = Object.keys(translations)
  if (keys.length === 0) return ""
  return keys.find((key) => !isLanguage(key))
}

export interface GlossaryEntry {
  readonly id: string
  readonly organizationId: string
  readonly translations: GlossaryTranslations
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** GitBook's `GlossaryBatchOperation`. */
export type GlossaryOperation =
  | { readonly type: "insert"; readonly translations: GlossaryTranslations }
  | { readonly type: "update"; readonly id: string; readonly translations: GlossaryTranslations }
  | { readonly type: "delete"; readonly id: string }

/** A term as a run uses it: the source language's word and the target language's. */
export interface GlossaryTerm {
  readonly source: string
  readonly target: string
}

/** The entries' terms from `source` into `target`, longest first (so "API key" wins over "API"). */
export const termsFor = (entries: ReadonlyArray<GlossaryEntry>, source: string, target: string): ReadonlyArray<GlossaryTerm> =>
  entries
    .flatMap((entry) => {
      const from = (entry.translations as Record<string, string | undefined>)[source]
      const to = (entry.translations as Record<string, string | undefined>)[target]
      return from === undefined || to === undefined || from.trim() === "" ? [] : [{ source: from.trim(), target: to }]
    })
    .sort((a, b) => b.source.length - a.source.length)

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The placeholder of the i-th term: a shape neither markdown nor the segments' numbered tags use. */
const placeholder = (i: number) => `⟦G${i}⟧`

/**
 * The text with each whole-word occurrence of a term (any case) replaced by its placeholder, which
 * the translator is told to keep as it is.
 */
export const protect = (text: string, terms: ReadonlyArray<GlossaryTerm>): string => {
  if (terms.length === 0) return text
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${terms.map((t) => escape(t.source)).join("|")})(?![\\p{L}\\p{N}_])`, "giu")
  return text.replace(pattern, (found) => {
    const i = terms.findIndex((t) => t.source.toLowerCase() === found.toLowerCase())
    return i === -1 ? found : placeholder(i)
  })
}

/** The translated text with each placeholder the translator kept replaced by the glossary's target term. */
export const restore = (text: string, terms: ReadonlyArray<GlossaryTerm>): string =>
  terms.length === 0 ? text : text.replace(/⟦G(\d+)⟧/g, (found, i: string) => terms[Number(i)]?.target ?? found)

/** What the prompt says of placeholders, when a request has any terms. */
export const promptNote =
  "Tokens such as ⟦G0⟧ stand for glossary terms whose translation is fixed: keep each token exactly as it is."
