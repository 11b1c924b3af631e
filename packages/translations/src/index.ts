/**
 * @quire/translations: domain package of translations: a translated copy of a space kept in step
 * by a pluggable translator. It declares its service interfaces here, with memory and Postgres
 * adapters beside them, and knows nothing of HTTP.
 */
export * as Instructions from "./domain/Instructions.ts"
export * from "./domain/Translation.ts"
export { migrations } from "./migrations/index.ts"
export { TranslationRuns, runTask } from "./TranslationRuns.ts"
export { Translations, permissionsOf } from "./Translations.ts"
export type { CreateTranslationInput, TranslationAccess, TranslationPermissions, TranslationsShape } from "./Translations.ts"
export { TranslationsRepo } from "./TranslationsRepo.ts"
export * as TranslationsLayers from "./TranslationsLayers.ts"
export { TranslationRunner } from "./TranslationRunner.ts"
export { Translator, TranslatorError } from "./Translator.ts"
export type { Budget, TranslateRequest, TranslatorShape } from "./Translator.ts"
export * as Segments from "./Segments.ts"
export { Glossaries } from "./glossary/Glossaries.ts"
export type { GlossariesShape, GlossaryListRequest } from "./glossary/Glossaries.ts"
export * as Glossary from "./glossary/Glossary.ts"
export type { GlossaryEntry, GlossaryOperation } from "./glossary/Glossary.ts"
export { GlossaryRepo } from "./glossary/GlossaryRepo.ts"
