/** GitBook's translation glossary of an organization: a term by language, which translation runs keep as given. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { TranslationLanguage } from "@quire/translations/domain/Translation"
import { GlossaryTranslations } from "@quire/translations/Glossary"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"

/** GitBook's `GlossaryEntry`. */
export const GlossaryEntry = Schema.Struct({
  object: Schema.Literal("glossary-entry"),
  id: Schema.String,
  translations: Schema.Record(Schema.String, Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Schema.Struct({ location: Schema.String })
}).annotate({ identifier: "GlossaryEntry" })
export type GlossaryEntry = typeof GlossaryEntry.Type

/** GitBook's `GlossaryBatchOperation`. */
export const GlossaryBatchOperation = Schema.Union([
  Schema.Struct({ type: Schema.Literal("insert"), translations: GlossaryTranslations }),
  Schema.Struct({ type: Schema.Literal("update"), id: Text, translations: GlossaryTranslations }),
  Schema.Struct({ type: Schema.Literal("delete"), id: Text })
]).annotate({ identifier: "GlossaryBatchOperation" })

export class TranslationsGlossaryApi extends HttpApiGroup.make("translationsGlossary")
  .add(
    /** The organization's glossary entries. */
    HttpApiEndpoint.get("listGlossaryEntries", "/orgs/:organizationId/translations-glossary", {
      params: { organizationId: EntityId },
      query: { ...PageQuery, orderBy: Schema.optional(TranslationLanguage) },
      success: ListOf(GlossaryEntry),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List glossary entries",
        description: "Lists the organization's translation glossary: each entry is a term by language code. `orderBy` sorts by the term in that language. Any member may call it."
      })),
    /** Applies inserts, updates and deletes to the glossary, all or nothing (admins). */
    HttpApiEndpoint.put("updateGlossaryEntries", "/orgs/:organizationId/translations-glossary", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({ operations: Schema.Array(GlossaryBatchOperation).check(Schema.isMaxLength(1000)) }),
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update glossary entries",
        description: "Inserts, updates and deletes glossary entries in one batch: all of them apply or none. Translation runs then translate each term as its entry says. Needs the admin role.",
        transform: requestExample({ operations: [{ type: "insert", translations: { en: "workspace", fr: "espace de travail" } }] })
      })),
    HttpApiEndpoint.get("getGlossaryEntry", "/orgs/:organizationId/translations-glossary/:glossaryEntryId", {
      params: { organizationId: EntityId, glossaryEntryId: EntityId },
      success: GlossaryEntry,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a glossary entry",
        description: "Answers one entry of the organization's translation glossary. Any member may call it."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
