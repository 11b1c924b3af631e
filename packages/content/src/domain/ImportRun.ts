/** An import run (GitBook's `ContentImportRun`): content brought into a space from a website or uploaded files, by a queued job. */
import { Schema } from "effect"

/** GitBook's statuses of an import run. */
export const ImportRunStatus = Schema.Literals(["pending", "in-progress", "completed", "failed", "cancelled"])
export type ImportRunStatus = typeof ImportRunStatus.Type

/** What an uploaded file holds; `auto` tells from the file itself (Quire's: GitBook guesses). */
export const ImportFormat = Schema.Literals(["auto", "markdown", "confluence", "notion", "docx"])
export type ImportFormat = typeof ImportFormat.Type

/** GitBook's `ContentImportSource`; `format` is Quire's. */
export const ImportSource = Schema.Union([
  Schema.Struct({ type: Schema.Literal("website"), url: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("file"),
    files: Schema.Array(Schema.String).check(Schema.isMinLength(1), Schema.isMaxLength(50)),
    format: Schema.optionalKey(ImportFormat)
  })
])
export type ImportSource = typeof ImportSource.Type

/** GitBook's `ContentImportTarget`. */
export const ImportTarget = Schema.Struct({
  space: Schema.String,
  changeRequest: Schema.optionalKey(Schema.String),
  page: Schema.optionalKey(Schema.String)
})
export type ImportTarget = typeof ImportTarget.Type

/** A page the run imported, or will. */
export const ImportedPageState = Schema.Struct({
  id: Schema.String,
  /** Where it came from: the URL, or the path inside the uploaded file. */
  sourceURL: Schema.optionalKey(Schema.String),
  type: Schema.Literals(["page", "folder"]),
  status: Schema.Literals(["complete", "pending"])
})
export type ImportedPageState = typeof ImportedPageState.Type

/** What the run has done so far (Quire's): steps out of a known total, and what it is doing. */
export const ImportProgress = Schema.Struct({
  step: Schema.String,
  done: Schema.Finite,
  total: Schema.Finite,
  pages: Schema.Finite,
  files: Schema.Finite
})
export type ImportProgress = typeof ImportProgress.Type

export interface ImportRun {
  readonly id: string
  readonly organizationId: string
  readonly spaceId: string
  readonly source: ImportSource
  readonly target: ImportTarget
  readonly status: ImportRunStatus
  readonly reason: string | null
  readonly createdBy: string
  readonly pages: ReadonlyArray<ImportedPageState>
  readonly progress: ImportProgress
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly startedAt: Date | null
  readonly completedAt: Date | null
}

/** A file uploaded for an import: its bytes in the BlobStore under `blob`. `id` is the key `source.files` names. */
export interface ImportFile {
  readonly id: string
  readonly organizationId: string
  readonly name: string
  readonly contentType: string
  readonly size: number
  readonly blob: string
  readonly createdBy: string
  readonly createdAt: Date
}

export const initialProgress: ImportProgress = { step: "queued", done: 0, total: 0, pages: 0, files: 0 }
