/** A site's style guide, its check runs and their findings: records, no I/O. */
import { Schema } from "effect"

/** A site's style guide: the space holding its rules (GitBook's `Site.styleguide`). */
export interface SiteStyleguide {
  readonly siteId: string
  readonly organizationId: string
  readonly spaceId: string
  /** The built-in template it started from; null: blank. */
  readonly template: string | null
  readonly createdAt: Date
  readonly createdBy: string
}

/** What a run checks: spaces (each in its change request, GitBook's run) or one change request (Quire's "Check style"). */
export const RunTarget = Schema.Literals(["spaces", "change-request"])
export type RunTarget = typeof RunTarget.Type

export const RunStatus = Schema.Literals(["running", "done", "failed"])
export type RunStatus = typeof RunStatus.Type

/** A change request a run checks, and whether the run opened it (false: taken over, or the target). */
export const RunCheck = Schema.Struct({
  spaceId: Schema.String,
  changeRequestId: Schema.String,
  opened: Schema.Boolean
})
export interface RunCheck extends Schema.Schema.Type<typeof RunCheck> {}

export interface StyleguideRun {
  readonly id: string
  readonly organizationId: string
  readonly siteId: string
  /** The style guide space checked against. */
  readonly styleguideSpaceId: string
  /** The spaces asked for (the intent, as GitBook's `spaces`). */
  readonly spaces: ReadonlyArray<string>
  readonly target: RunTarget
  readonly checks: ReadonlyArray<RunCheck>
  readonly status: RunStatus
  /** Whether a model checked the prose rules (false: only the rules checked without one ran). */
  readonly model: boolean
  readonly findings: number
  /** Why it failed; null unless `failed`. */
  readonly error: string | null
  readonly createdAt: Date
  readonly createdBy: string
  readonly finishedAt: Date | null
}

export const FindingSource = Schema.Literals(["rule", "model"])
export type FindingSource = typeof FindingSource.Type

/** One sentence that breaks a rule, found by a run, and the comment that says so. */
export interface StyleFinding {
  readonly runId: string
  /** Its order in the run, from 0. */
  readonly position: number
  readonly spaceId: string
  readonly changeRequestId: string
  readonly pageId: string
  readonly pageTitle: string
  readonly ruleId: string
  readonly ruleTitle: string
  readonly message: string
  readonly quote: string
  readonly sentence: string
  readonly fix: string | null
  readonly source: FindingSource
  /** The review comment posted for it; null when it could not be posted. */
  readonly commentId: string | null
}

/** A change request a style guide check ran in: the run that opened it (or last took it over) and when it was last checked. */
export interface StyleguideCheck {
  readonly changeRequestId: string
  readonly siteId: string
  readonly spaceId: string
  readonly runId: string
  readonly checkedAt: Date | null
}

export const runBounds = { spaces: 3, findingsPerRun: 500, findingsPerPage: 40 } as const
