/**
 * Style guides (GitBook's): the built-in starter templates, the organization's guides, a site's
 * guide space, and its check runs; and Quire's own operations beside them, named as Quire's: a
 * site's guide with its rules read (`getSiteStyleguide`), a run's findings
 * (`listSiteStyleguideRunFindings`), and the check of one change request (`checkChangeRequestStyle`).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { FindingSource, RunStatus, RunTarget } from "@quire/sites/domain/Styleguide"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { ChangeRequest, changeRequestParams } from "./ChangeRequestsApi.ts"
import { requestExample } from "./RequestExample.ts"
import { EntityId, ListOf, PageQuery, Text, Timestamp, User } from "./Schemas.ts"
import { siteParams } from "./SiteSchemas.ts"
import { Site } from "./SitesApi.ts"
import { Space } from "./SpacesApi.ts"

/** GitBook's `StyleguideTemplate`. */
export const StyleguideTemplate = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  subtitle: Schema.optionalKey(Schema.String),
  emoji: Schema.optionalKey(Schema.String),
  markdown: Schema.String
}).annotate({ identifier: "StyleguideTemplate" })

export const StyleguideTemplates = Schema.Struct({ templates: Schema.Array(StyleguideTemplate) }).annotate({ identifier: "StyleguideTemplates" })

/** GitBook's `OrganizationStyleguide`: a style guide space and the sites using it. */
export const OrganizationStyleguide = Schema.Struct({ space: Space, sites: Schema.Array(Site) }).annotate({ identifier: "OrganizationStyleguide" })
export const OrganizationStyleguides = Schema.Struct({ styleguides: Schema.Array(OrganizationStyleguide) }).annotate({ identifier: "OrganizationStyleguides" })

/** GitBook's `SiteStyleguideRun`, with Quire's outcome of it (`status`, `findings`, `model`, `target`, `changeRequests`, `finishedAt`, `error`). */
export const SiteStyleguideRun = Schema.Struct({
  object: Schema.Literal("styleguide-run"),
  id: Schema.String,
  site: Schema.String,
  styleguide: Schema.String,
  spaces: Schema.Array(Schema.String),
  createdAt: Timestamp,
  createdBy: User,
  status: RunStatus,
  target: RunTarget,
  /** The change requests the run checks, each `{space, changeRequest, opened}`. */
  changeRequests: Schema.Array(Schema.Struct({ space: Schema.String, changeRequest: Schema.String, opened: Schema.Boolean })),
  /** How many findings it made (0 while running). */
  findings: Schema.Finite,
  /** Whether a model checked the prose rules. */
  model: Schema.Boolean,
  finishedAt: Schema.optionalKey(Timestamp),
  error: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "SiteStyleguideRun" })
export type SiteStyleguideRun = typeof SiteStyleguideRun.Type

/** A rule of a site's guide as Quire reads it (Quire's). */
export const StyleguideRule = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  text: Schema.String,
  /** What is checked without a model; empty: a rule only a model checks. */
  checks: Schema.Array(Schema.Union([
    Schema.Struct({ kind: Schema.Literal("avoid"), phrases: Schema.Array(Schema.String) }),
    Schema.Struct({ kind: Schema.Literal("prefer"), use: Schema.String, not: Schema.Array(Schema.String) }),
    Schema.Struct({ kind: Schema.Literal("sentence-length"), max: Schema.Finite }),
    Schema.Struct({ kind: Schema.Literal("passive-voice") })
  ])),
  /** Whether the rule says more than its checks (a model checks it). */
  needsModel: Schema.Boolean
}).annotate({ identifier: "QuireStyleguideRule" })

/** A site's guide with its rules (Quire's). */
export const SiteStyleguide = Schema.Struct({
  object: Schema.Literal("site-styleguide"),
  site: Schema.String,
  space: Space,
  template: Schema.optionalKey(Schema.String),
  rules: Schema.Array(StyleguideRule),
  /** Whether a model checks the prose rules on this server. */
  model: Schema.Boolean,
  /** What a model would add and how to set one, when there is none. */
  withoutModel: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "QuireSiteStyleguide" })

/** One sentence a run found breaking a rule, and the review comment that says so (Quire's). */
export const StyleguideFinding = Schema.Struct({
  object: Schema.Literal("styleguide-finding"),
  run: Schema.String,
  position: Schema.Finite,
  space: Schema.String,
  changeRequest: Schema.String,
  page: Schema.Struct({ id: Schema.String, title: Schema.String }),
  rule: Schema.Struct({ id: Schema.String, title: Schema.String }),
  message: Schema.String,
  quote: Schema.String,
  sentence: Schema.String,
  fix: Schema.optionalKey(Schema.String),
  source: FindingSource,
  comment: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "QuireStyleguideFinding" })

const prefix = "/orgs/:organizationId/sites/:siteId/styleguide"

export class StyleguidesApi extends HttpApiGroup.make("styleguides")
  .add(
    /** The built-in starter templates. */
    HttpApiEndpoint.get("listStyleguideTemplates", "/orgs/:organizationId/styleguide-templates", {
      params: { organizationId: EntityId },
      success: StyleguideTemplates,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the style guide templates",
        description: "The built-in templates a site's style guide can start from, each with its markdown: each `##` heading is a rule. Any member of the organization may list them."
      })),
    /** The organization's style guides, each with the sites using it. */
    HttpApiEndpoint.get("listOrganizationStyleguides", "/orgs/:organizationId/styleguides", {
      params: { organizationId: EntityId },
      success: OrganizationStyleguides,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List the organization's style guides",
        description: "Every style guide space of the organization the caller may see, with the sites (that the caller sees) using it."
      })),
    /** Makes the site's style guide space (blank or from a template), or answers the one it has. */
    HttpApiEndpoint.post("createSiteStyleguideById", prefix, {
      params: siteParams,
      // GitBook's body is optional: no body makes a blank guide.
      payload: [Schema.Struct({ template: Schema.optionalKey(Text) }), Schema.Null],
      success: Space,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Create (or get) a site's style guide",
        description: "Makes the site's style guide: a space whose page holds the rules, each under a `##` heading, started from the built-in template given (`listStyleguideTemplates`) or blank. When the site has one, answers it unchanged. Needs the editor role on the site.",
        transform: requestExample({ template: "plain-language" })
      })),
    /** Starts a check of 1 to 3 of the site's spaces, each in a change request. */
    HttpApiEndpoint.post("createSiteStyleguideRun", `${prefix}/runs`, {
      params: siteParams,
      payload: Schema.Struct({ spaces: Schema.Array(EntityId).check(Schema.isMinLength(1), Schema.isMaxLength(3)) }),
      success: Schema.Struct({ run: SiteStyleguideRun, changeRequests: Schema.Array(ChangeRequest) }).pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Start a style guide check",
        description: "Checks each space given (1 to 3 editable spaces of the site, not the guide itself) against the site's style guide, in the background: in a new draft change request, or in the one an earlier check opened on that space while it is still open. Each sentence that breaks a rule becomes a review comment on its page and block, naming the rule and proposing a fix. The rules that name words, terms, sentence lengths and the passive voice are checked without a model; with a model (QUIRE_AI_URL) the guide's other rules too. 404 when the site has no style guide. Needs the editor role on the site.",
        transform: requestExample({ spaces: ["space-id"] })
      })),
    /** The site's check runs, newest first. */
    HttpApiEndpoint.get("listSiteStyleguideRuns", `${prefix}/runs`, {
      params: siteParams,
      query: PageQuery,
      success: ListOf(SiteStyleguideRun),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site's style guide checks",
        description: "The site's style guide check runs, newest first, each with its outcome (`status`, `findings`). Any member who sees the site may list them."
      })),
    /** Quire's: the site's style guide with its rules read. */
    HttpApiEndpoint.get("getSiteStyleguide", prefix, {
      params: siteParams,
      success: SiteStyleguide,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's style guide and its rules (Quire)",
        description: "Quire's operation: the site's style guide space and the rules read from it, each with what is checked without a model, and whether this server has a model for the rest. 404 when the site has none."
      })),
    /** Quire's: a run's findings, in order. */
    HttpApiEndpoint.get("listSiteStyleguideRunFindings", `${prefix}/runs/:runId/findings`, {
      params: { ...siteParams, runId: EntityId },
      query: PageQuery,
      success: ListOf(StyleguideFinding),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a style guide check's findings (Quire)",
        description: "Quire's operation: each sentence the run found breaking a rule, with the rule, the fix proposed, the page, and the review comment posted for it."
      })),
    /** Quire's: checks one change request against a site's style guide. */
    HttpApiEndpoint.post("checkChangeRequestStyle", "/spaces/:spaceId/change-requests/:changeRequestId/styleguide-check", {
      params: changeRequestParams,
      payload: [Schema.Struct({ site: Schema.optionalKey(EntityId) }), Schema.Null],
      success: SiteStyleguideRun.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Check a change request's style (Quire)",
        description: "Quire's operation: checks the pages a draft or open change request changes against the style guide of `site` (or of the first site showing the space that has one), in the background; each finding becomes a review comment on its page and block. Answers the run (`listSiteStyleguideRuns`). Needs the comment permission on the space."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
