/** Handlers of the style guides group (GitBook's operations, and Quire's beside them). */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import type { SpaceAccess } from "@quire/content"
import { Users } from "@quire/identity"
import { ChangeRequests } from "@quire/reviews"
import { needsModel, type StyleFinding, type StyleguideRun, Styleguides } from "@quire/sites"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import * as SitePresenters from "../SitePresenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { SpaceViews } from "../SpaceViews.ts"

const finding = (f: StyleFinding) => ({
  object: "styleguide-finding" as const,
  run: f.runId,
  position: f.position,
  space: f.spaceId,
  changeRequest: f.changeRequestId,
  page: { id: f.pageId, title: f.pageTitle },
  rule: { id: f.ruleId, title: f.ruleTitle },
  message: f.message,
  quote: f.quote,
  sentence: f.sentence,
  ...(f.fix === null ? {} : { fix: f.fix }),
  source: f.source,
  ...(f.commentId === null ? {} : { comment: f.commentId })
})

export const layer = HttpApiBuilder.group(Api, "styleguides", Effect.fn(function*(handlers) {
  const styleguides = yield* Styleguides
  const changeRequests = yield* ChangeRequests
  const views = yield* SpaceViews
  const users = yield* Users
  const urls = yield* PublicUrl
  const bare = { urls, counters: new Map() }

  /** A style guide space: GitBook's `Space` with `type: "styleguide"`. */
  const guideSpace = (access: SpaceAccess) => Effect.map(views.one(access), (space) => ({ ...space, type: "styleguide" as const }))

  const run = Effect.fnUntraced(function*(r: StyleguideRun) {
    const createdBy = yield* users.get(r.createdBy).pipe(
      Effect.map((u) => Presenters.user(urls, u, { showEmail: false })),
      Effect.catchTag("NotFound", () => Effect.succeed({ object: "user" as const, id: r.createdBy, displayName: "", urls: { location: urls.api(`/users/${r.createdBy}`) } }))
    )
    return {
      object: "styleguide-run" as const,
      id: r.id,
      site: r.siteId,
      styleguide: r.styleguideSpaceId,
      spaces: r.spaces,
      createdAt: r.createdAt.toISOString(),
      createdBy,
      status: r.status,
      target: r.target,
      changeRequests: r.checks.map((c) => ({ space: c.spaceId, changeRequest: c.changeRequestId, opened: c.opened })),
      findings: r.findings,
      model: r.model,
      ...(r.finishedAt === null ? {} : { finishedAt: r.finishedAt.toISOString() }),
      ...(r.error === null ? {} : { error: r.error })
    }
  })

  return handlers
    .handle("listStyleguideTemplates", ({ params }) =>
      styleguides.templates(params.organizationId).pipe(DomainErrors.api, Effect.map((templates) => ({ templates: templates.map((t) => ({ ...t })) }))))
    .handle("listOrganizationStyleguides", ({ params }) =>
      styleguides.listForOrganization(params.organizationId).pipe(
        DomainErrors.api,
        Effect.flatMap((guides) =>
          Effect.forEach(guides, (g) => Effect.map(guideSpace(g.space), (space) => ({ space, sites: g.sites.map((site) => SitePresenters.site(bare, site)) })))),
        Effect.map((styleguides) => ({ styleguides }))
      ))
    .handle("createSiteStyleguideById", ({ params, payload }) =>
      styleguides.ensure(params.organizationId, params.siteId, payload?.template).pipe(DomainErrors.api, Effect.flatMap(guideSpace)))
    .handle("createSiteStyleguideRun", ({ params, payload }) =>
      Effect.gen(function*() {
        const started = yield* styleguides.runOnSpaces(params.organizationId, params.siteId, payload.spaces)
        const presenter = yield* ChangeRequestPresenters.presenter
        const crs = yield* Effect.forEach(started.checks, (check) =>
          Effect.flatMap(changeRequests.get(check.spaceId, check.changeRequestId), (view) => presenter(urls, view.changeRequest, view.outdated)))
        return { run: yield* run(started), changeRequests: crs }
      }).pipe(DomainErrors.api))
    .handle("listSiteStyleguideRuns", ({ params, query }) =>
      styleguides.listRuns(params.organizationId, params.siteId, query).pipe(
        DomainErrors.api,
        Effect.flatMap((page) => Effect.map(Effect.forEach(page.items, run), (items) => Presenters.list({ ...page, items }, (x) => x)))
      ))
    .handle("getSiteStyleguide", ({ params }) =>
      styleguides.get(params.organizationId, params.siteId).pipe(
        DomainErrors.api,
        Effect.flatMap((view) =>
          Effect.map(guideSpace(view.space), (space) => ({
            object: "site-styleguide" as const,
            site: params.siteId,
            space,
            ...(view.guide.template === null ? {} : { template: view.guide.template }),
            rules: view.rules.map((r) => ({ id: r.id, title: r.title, text: r.text, checks: r.checks, needsModel: needsModel(r) })),
            model: view.model,
            ...(view.withoutModel === null ? {} : { withoutModel: view.withoutModel })
          })))
      ))
    .handle("listSiteStyleguideRunFindings", ({ params, query }) =>
      styleguides.findings(params.organizationId, params.siteId, params.runId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, finding))
      ))
    .handle("checkChangeRequestStyle", ({ params, payload }) =>
      styleguides.runOnChangeRequest(params.spaceId, params.changeRequestId, payload?.site).pipe(DomainErrors.api, Effect.flatMap(run)))
}))
