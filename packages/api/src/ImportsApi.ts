/** Imports: content brought into a space from a website or uploaded files, by runs on the queue (GitBook's imports API). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ImportedPageState, ImportFormat, ImportProgress, ImportRunStatus } from "@quire/content/domain/ImportRun"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"

/** GitBook's `ContentImportSource`; `format` is Quire's (default `auto`: told from each file). */
export const ContentImportSource = Schema.Union([
  Schema.Struct({ type: Schema.Literal("website"), url: Text.check(Schema.isMaxLength(2048)) }),
  Schema.Struct({
    type: Schema.Literal("file"),
    files: Schema.Array(EntityId).check(Schema.isMinLength(1), Schema.isMaxLength(50)),
    format: Schema.optionalKey(ImportFormat)
  })
]).annotate({ identifier: "ContentImportSource" })

/** GitBook's `ContentImportTarget`. */
export const ContentImportTarget = Schema.Struct({
  space: EntityId,
  changeRequest: Schema.optionalKey(EntityId),
  page: Schema.optionalKey(EntityId)
}).annotate({ identifier: "ContentImportTarget" })

/** GitBook's `ContentImportRun`; `progress` is Quire's. */
export const ContentImportRun = Schema.Struct({
  object: Schema.Literal("import-run"),
  id: Schema.String,
  status: ImportRunStatus,
  reason: Schema.optionalKey(Schema.String),
  source: ContentImportSource,
  target: ContentImportTarget,
  createdBy: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  startedAt: Schema.optionalKey(Timestamp),
  completedAt: Schema.optionalKey(Timestamp),
  urls: Schema.Struct({ location: Schema.String }),
  pages: Schema.Array(ImportedPageState),
  progress: ImportProgress
}).annotate({ identifier: "ContentImportRun" })
export type ContentImportRun = typeof ContentImportRun.Type

const runParams = { organizationId: EntityId, importRunId: EntityId } as const

export class ImportsApi extends HttpApiGroup.make("imports")
  .add(
    /** The organization's import runs, most recent first. */
    HttpApiEndpoint.get("listImportRuns", "/org/:organizationId/imports", {
      params: { organizationId: EntityId },
      query: {
        ...PageQuery,
        space: Schema.optional(EntityId),
        changeRequest: Schema.optional(EntityId),
        site: Schema.optional(EntityId),
        status: Schema.optional(Schema.Literals(["active", "pending", "in-progress", "completed", "failed", "cancelled"]))
      },
      success: ListOf(ContentImportRun),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List import runs",
        description: "The import runs of the organization's spaces that the caller can see, most recent first; `status=active` keeps the pending and running ones; `changeRequest` the runs into that change request."
      })),
    /** Records an import run and queues it (the space's editors). */
    HttpApiEndpoint.post("startImportRun", "/org/:organizationId/imports", {
      params: { organizationId: EntityId },
      payload: Schema.Struct({
        source: ContentImportSource,
        target: ContentImportTarget,
        site: Schema.optionalKey(EntityId),
        enhance: Schema.optionalKey(Schema.Boolean),
        /** Quire's: open a new change request and import into it. */
        newChangeRequest: Schema.optionalKey(Schema.Struct({ subject: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))) }))
      }),
      success: ContentImportRun.pipe(HttpApiSchema.status(201)),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Start an import",
        description: "Imports a website, or files uploaded with `uploadImportFile` (a Word document, a zip of a Confluence or Notion export, a zip of markdown or HTML files from MkDocs, Docusaurus, Docsify or any folder), into a space, in the background; poll `getImportRun` for its progress. The pages are added after the space's pages, or under `target.page`; with `target.changeRequest` they go into that change request, and with Quire's `newChangeRequest` (`{subject?}`) into a new draft change request opened for the import (the run's `target.changeRequest` names it), for a review before they reach the space. An archive past the bounds (size, file count, expansion, a path leading outside it) is a 400 naming the file. Needs edit rights on the space. `enhance` is accepted and ignored."
      })),
    /** One import run. */
    HttpApiEndpoint.get("getImportRun", "/org/:organizationId/imports/:importRunId", {
      params: runParams,
      success: ContentImportRun,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get an import run",
        description: "The run's status, its progress and, once completed, the pages it added."
      })),
    /** Cancels a pending or running import; the space stays as it was. */
    HttpApiEndpoint.post("cancelImportRun", "/org/:organizationId/imports/:importRunId/cancel", {
      params: runParams,
      success: ContentImportRun,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Cancel an import run",
        description: "Stops a pending or running import before it writes, leaving the space as it was. A finished run is a 400."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
