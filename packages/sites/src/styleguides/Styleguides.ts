/**
 * Use cases on sites' style guides (GitBook's): the starter templates, the organization's guides,
 * a site's guide (a space whose `##` headings are its rules, made blank or from a template), and
 * check runs. A run checks spaces (each in a draft change request it opens, or the check still open
 * on that space, taken over: GitBook's run) or one change request (Quire's "Check style"), in a
 * queued job: each sentence that breaks a rule becomes a review comment on its page and block,
 * naming the rule and proposing a fix, and a finding of the run. The rules that name words, terms,
 * lengths and the passive voice run without a model; with one, it checks the rest and proposes
 * rewrites. Members who see a site read its guide and runs; its editors make the guide and run
 * checks on spaces; whoever may comment on a change request checks its style.
 */
import { Context, Effect, Layer } from "effect"
import type { SpaceAccess } from "@quire/content"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import type { SiteAccess } from "../SiteAccess.ts"
import type { SiteStyleguide, StyleFinding, StyleguideRun } from "./Styleguide.ts"
import * as StyleguideContext from "./StyleguideContext.ts"
import { execution } from "./StyleguideExecution.ts"
import { guides } from "./StyleguideGuides.ts"
import { runs } from "./StyleguideRuns.ts"
import type { StyleRule } from "./StyleRules.ts"
import type { StyleguideTemplate } from "./StyleguideTemplates.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** A site's guide as a screen shows it: its space, its rules, and what a model adds. */
export interface StyleguideView {
  readonly guide: SiteStyleguide
  readonly space: SpaceAccess
  readonly rules: ReadonlyArray<StyleRule>
  /** Whether a model checks the prose rules on this server. */
  readonly model: boolean
  /** What a model would add, when there is none; null when there is one. */
  readonly withoutModel: string | null
}

export interface OrganizationStyleguide {
  readonly space: SpaceAccess
  readonly sites: ReadonlyArray<SiteAccess>
}

export interface StartedRun {
  readonly run: StyleguideRun
}

export interface StyleguidesShape {
  readonly templates: (organizationId: string) => Effect.Effect<ReadonlyArray<StyleguideTemplate>, Errors.NotFound, Actor.Actor>
  /** The organization's guides the caller may see, each with the sites (the caller sees) using it. */
  readonly listForOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<OrganizationStyleguide>, Errors.NotFound, Actor.Actor>
  /** The site's guide space, made (blank, or from `template`) when it has none: idempotent (site editors). */
  readonly ensure: (organizationId: string, siteId: string, template: string | undefined) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** The site's guide and its rules; NotFound when it has none. */
  readonly get: (organizationId: string, siteId: string) => Effect.Effect<StyleguideView, Errors.NotFound, Actor.Actor>
  /** Starts a run over 1 to 3 of the site's spaces (site editors). */
  readonly runOnSpaces: (organizationId: string, siteId: string, spaces: ReadonlyArray<string>) => Effect.Effect<StyleguideRun, Denied | Errors.InvalidInput, Actor.Actor>
  /** Starts a run on one change request, with the guide of `siteId` or else of the first site showing the space that has one. */
  readonly runOnChangeRequest: (spaceId: string, ref: string, siteId: string | undefined) => Effect.Effect<StyleguideRun, Denied | Errors.InvalidInput, Actor.Actor>
  readonly listRuns: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<StyleguideRun>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly getRun: (organizationId: string, siteId: string, runId: string) => Effect.Effect<StyleguideRun, Errors.NotFound, Actor.Actor>
  readonly findings: (organizationId: string, siteId: string, runId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<StyleFinding>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** Does a run (the job): checks its change requests, comments and records the findings. */
  readonly execute: (runId: string) => Effect.Effect<void>
}

export { commentOf } from "./StyleguideExecution.ts"
export { RunJob, runTask } from "./StyleguideJob.ts"

export class Styleguides extends Context.Service<Styleguides, StyleguidesShape>()("@quire/sites/Styleguides") {
  static readonly layer = Layer.effect(
    Styleguides,
    Effect.map(StyleguideContext.make, (ctx) => Styleguides.of({ ...guides(ctx), ...runs(ctx), ...execution(ctx) }))
  )
}
