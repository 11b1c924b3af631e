/** Layers that assemble the translations package: its port, adapters and use cases. */
import { Layer } from "effect"
import { Glossaries } from "./glossary/Glossaries.ts"
import { GlossaryRepo } from "./glossary/GlossaryRepo.ts"
import * as SqlGlossaryRepo from "./glossary/SqlGlossaryRepo.ts"
import * as SourceChanges from "./SourceChanges.ts"
import * as SpaceRemoval from "./SpaceRemoval.ts"
import * as SqlTranslationsRepo from "./SqlTranslationsRepo.ts"
import { Translator } from "./Translator.ts"
import { TranslationRunner } from "./TranslationRunner.ts"
import { TranslationRuns } from "./TranslationRuns.ts"
import { Translations } from "./Translations.ts"
import { TranslationsRepo } from "./TranslationsRepo.ts"

/** The translations port in memory. */
export const layerReposMemory = Layer.mergeAll(TranslationsRepo.layerMemory, GlossaryRepo.layerMemory)

/** The translations port on Postgres (needs only a SqlClient). */
export const layerReposSql = Layer.mergeAll(SqlTranslationsRepo.layer, SqlGlossaryRepo.layer)

/** How runs are queued (needs a JobQueue), shared by the use cases and content's observer. */
export const layerInfrastructure = TranslationRuns.layer

/**
 * The use cases and the runner; need content's ContentAccess, Spaces, SpaceContent, RevisionWriter
 * and PublishedContent, the repo, TranslationRuns and a Translator.
 */
export const layerServices = Layer.mergeAll(Translations.layer, TranslationRunner.layer, Glossaries.layer)

/** The Translator from the environment (QUIRE_TRANSLATE_*): the OpenAI-compatible adapter, or none. */
export const layerTranslator = Translator.layerConfig

/** Content's MainObservers: a change of a source space queues its translations' runs. */
export const layerMainObservers = SourceChanges.layer

/** The observer itself, for a platform that composes several. */
export const makeMainObserver = SourceChanges.make

/** Content's SpaceDependents port: a purged source or result space takes its translations with it. */
export const layerSpaceDependents = SpaceRemoval.layer
