/** Translations: a space's translated copy (the result space), kept in step with its source by runs on the queue. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { TranslationLanguage, TranslationStats } from "@quire/translations/domain/Translation"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, JSONDocument, ListOf, PageQuery, Timestamp } from "./Schemas.ts"

// GitBook's `JSONDocument`, every node of the instructions checked by the translations package.
export { JSONDocument }

/** GitBook's `TranslationSource`. */
export const TranslationSource = Schema.Struct({ space: EntityId, language: TranslationLanguage })

/**
 * GitBook's `Translation`. GitBook's statuses are `pending`, `running` and `completed`: a run that
 * failed is `completed` with `failure` (Quire's), which says why.
 */
export const Translation = Schema.Struct({
  object: Schema.Literal("translation"),
  id: Schema.String,
  status: Schema.Literals(["pending", "running", "completed"]),
  failure: Schema.optionalKey(Schema.String),
  source: Schema.Struct({ space: Schema.String, language: TranslationLanguage }),
  language: TranslationLanguage,
  instructions: Schema.Record(Schema.String, Schema.Unknown),
  /** The result space and the revision the last completed run wrote (absent before one). */
  result: Schema.optionalKey(Schema.Struct({ space: Schema.String, revision: Schema.String, language: TranslationLanguage })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  stats: TranslationStats,
  permissions: Schema.Struct({ view: Schema.Boolean, edit: Schema.Boolean }),
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "Translation" })
export type Translation = typeof Translation.Type

/**
 * Quire's: whether this server can translate. `configured: false` names the `setting` that enables
 * a provider and says so in `message` (the words a run without one fails with).
 */
export const TranslationsProvider = Schema.Struct({
  object: Schema.Literal("translations-provider"),
  configured: Schema.Boolean,
  setting: Schema.String,
  message: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "TranslationsProvider" })
export type TranslationsProvider = typeof TranslationsProvider.Type

const translationParams = { organizationId: EntityId, translationId: EntityId } as const

export class TranslationsApi extends HttpApiGroup.make("translations")
  .add(
    /** The organization's translations, oldest first. */
    HttpApiEndpoint.get("listTranslations", "/orgs/:organizationId/translations", {
      params: { organizationId: EntityId },
      query: PageQuery,
      success: ListOf(Translation),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List translations",
        description: "Lists the organization's translations (a source space kept translated into a target space). Any member may call it."
      })),
    /** Creates the translation with a new result space and queues its first run (admins). */
    HttpApiEndpoint.post("createTranslation", "/orgs/:organizationId/translations", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({
        source: TranslationSource,
        language: TranslationLanguage,
        instructions: Schema.optionalKey(JSONDocument)
      }),
      success: Translation.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create a translation",
        description: "Sets up a space to be translated into a language, into a new or given target space. Needs the admin role."
      })),
    HttpApiEndpoint.get("getTranslation", "/orgs/:organizationId/translations/:translationId", {
      params: translationParams,
      success: Translation,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a translation",
        description: "Answers a translation and the state of its last run."
      })),
    /** Replaces the instructions and queues a run (admins). */
    HttpApiEndpoint.put("updateTranslation", "/orgs/:organizationId/translations/:translationId", {
      params: translationParams,
      payload: Schema.Struct({ instructions: JSONDocument }),
      success: Translation,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a translation",
        description: "Changes a translation's language or instructions (at most 4000 characters of text, given to the provider as style notes, never as its rules). Needs the admin role."
      })),
    /** Queues a run now (admins): pages whose source changed since the last completed run are translated. */
    HttpApiEndpoint.post("runTranslation", "/orgs/:organizationId/translations/:translationId/run", {
      params: translationParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Run a translation",
        description: "Translates the source space's current content into the target space, in the background. Needs the admin role."
      })),
    /** Deletes the translation (its result space stays); 204 also when it does not exist. */
    HttpApiEndpoint.delete("deleteTranslation", "/orgs/:organizationId/translations/:translationId", {
      params: translationParams,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Delete a translation",
        description: "Stops translating; the target space is kept. Needs the admin role."
      })),
    /** Quire's: whether a translation provider is configured, else the setting that enables one. */
    HttpApiEndpoint.get("getTranslationsProvider", "/orgs/:organizationId/translations-provider", {
      params: { organizationId: EntityId },
      success: TranslationsProvider,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the translation provider's state",
        description: "Quire's extension (GitBook has no such operation): whether this server has a machine-translation provider configured. Without one every run fails; `setting` names the environment variable that enables it (`QUIRE_TRANSLATE_URL`) and `message` says so. Any member may call it."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
