/** Handlers of GitBook's site-context group (findings): records, scans, topics, findings and connections. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { markdownDocument } from "@quire/content"
import { ChangeRequests, isOutdated } from "@quire/reviews"
import { type ConnectionView, type FindingView, type QuestionView, type RecordView, type ScanView, SiteContextConnections, SiteFindings, type TopicView } from "@quire/sites"
import * as ChangeRequestPresenters from "../ChangeRequestPresenters.ts"
import * as DomainErrors from "../DomainErrors.ts"
import { list } from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

type Site = { readonly organizationId: string; readonly siteId: string }
const sitePath = (site: Site) => `/orgs/${site.organizationId}/sites/${site.siteId}`

/** A repeatable query parameter as a list. */
const listOf = <A>(value: A | ReadonlyArray<A> | undefined): ReadonlyArray<A> | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value as A]
const booleanOf = (value: "true" | "false" | undefined) => (value === undefined ? undefined : value === "true")

const documentOf = (markdown: string) =>
  markdownDocument(markdown) as unknown as { readonly object: "document"; readonly data: Record<string, unknown>; readonly nodes: ReadonlyArray<Record<string, unknown>> }

export const layer = HttpApiBuilder.group(Api, "siteContext", Effect.fn(function*(handlers) {
  const findings = yield* SiteFindings
  const connections = yield* SiteContextConnections
  const changeRequests = yield* ChangeRequests
  const urls = yield* PublicUrl

  const record = (site: Site) => ({ source, ...view }: RecordView) => ({
    ...view,
    urls: { location: urls.api(`${sitePath(site)}/context-records/${view.id}`), ...(source === undefined ? {} : { source }) }
  })
  const scan = (site: Site) => (view: ScanView) => ({ ...view, urls: { location: urls.api(`${sitePath(site)}/scans/${view.id}`) } })
  const finding = (site: Site) => (view: FindingView) => ({
    ...view,
    description: documentOf(view.description),
    urls: { location: urls.api(`${sitePath(site)}/findings/${view.id}`) }
  })
  const topic = (site: Site) => (view: TopicView) => ({
    ...view,
    summary: documentOf(view.summary),
    urls: { location: urls.api(`${sitePath(site)}/topics/${view.id}`) }
  })
  const question = (site: Site) => (view: QuestionView) => ({ ...view, urls: { location: urls.api(`${sitePath(site)}/questions/${view.id}`) } })
  const connection = (site: Site) => (view: ConnectionView) => {
    const { failureMessage, failureReason, filter, label, syncedAt, usage, ...rest } = view
    return {
      ...rest,
      object: "context-connection" as const,
      usageSettings: usage,
      ...(label === null ? {} : { label }),
      ...(filter === null ? {} : { filter }),
      ...(syncedAt === null ? {} : { syncedAt }),
      ...(failureMessage === null ? {} : { failureMessage }),
      ...(failureReason === null ? {} : { failureReason }),
      urls: { location: urls.api(`${sitePath(site)}/context-connections/${view.id}`) }
    }
  }

  return handlers
    .handle("listSiteContextRecords", ({ params, query }) =>
      findings.listRecords(params.organizationId, params.siteId, query).pipe(Effect.map((page) => list(page, record(params))), DomainErrors.api))
    .handle("upsertSiteContextRecords", ({ params, payload }) =>
      findings.upsertRecords(params.organizationId, params.siteId, payload).pipe(Effect.as("upserted" as const), DomainErrors.api))
    .handle("getSiteContextRecordById", ({ params }) =>
      findings.getRecord(params.organizationId, params.siteId, params.siteContextRecordId).pipe(Effect.map(record(params)), DomainErrors.api))
    .handle("listSiteScans", ({ params, query }) =>
      findings.listScans(params.organizationId, params.siteId, query).pipe(Effect.map((page) => list(page, scan(params))), DomainErrors.api))
    .handle("startSiteScan", ({ params }) =>
      findings.startScan(params.organizationId, params.siteId).pipe(Effect.map(scan(params)), DomainErrors.api))
    .handle("getSiteScanById", ({ params }) =>
      findings.getScan(params.organizationId, params.siteId, params.siteScanId).pipe(Effect.map(scan(params)), DomainErrors.api))
    .handle("listSiteFindings", ({ params, query }) =>
      findings.listFindings(params.organizationId, params.siteId, {
        ...query,
        type: listOf(query.type),
        source: listOf(query.source),
        hasChangeRequests: booleanOf(query.hasChangeRequests)
      }).pipe(Effect.map((page) => list(page, finding(params))), DomainErrors.api))
    .handle("getSiteFindingById", ({ params }) =>
      findings.getFinding(params.organizationId, params.siteId, params.siteFindingId).pipe(Effect.map(finding(params)), DomainErrors.api))
    .handle("updateSiteFindingById", ({ params, payload }) =>
      findings.updateFinding(params.organizationId, params.siteId, params.siteFindingId, payload.status).pipe(Effect.map(finding(params)), DomainErrors.api))
    .handle("listChangeRequestsForSiteFinding", ({ params, query }) =>
      Effect.gen(function*() {
        const page = yield* findings.findingChangeRequests(params.organizationId, params.siteId, params.siteFindingId, query).pipe(DomainErrors.api)
        const presenter = yield* ChangeRequestPresenters.presenter
        const items = yield* Effect.forEach(page.items, (ref) =>
          changeRequests.get(ref.spaceId, ref.changeRequestId).pipe(
            Effect.flatMap((view) => presenter(urls, view.changeRequest, isOutdated(view.changeRequest, view.access.space.revisionId))),
            Effect.map((cr) => [cr]),
            // One the caller cannot read (or deleted with its space) is not listed.
            Effect.catchTag("NotFound", () => Effect.succeed([]))
          ))
        return { items: items.flat(), count: items.flat().length, ...(page.next === undefined ? {} : { next: { page: page.next } }) }
      }))
    .handle("triggerChangeRequestsForSiteFinding", ({ params }) =>
      findings.trigger(params.organizationId, params.siteId, params.siteFindingId).pipe(Effect.as("triggered" as const), DomainErrors.api))
    .handle("listPagesForSiteFinding", ({ params, query }) =>
      findings.findingPages(params.organizationId, params.siteId, params.siteFindingId, query).pipe(Effect.map((page) => list(page, (p) => p)), DomainErrors.api))
    .handle("listQuestionsForSiteFinding", ({ params, query }) =>
      findings.findingQuestions(params.organizationId, params.siteId, params.siteFindingId, query).pipe(Effect.map((page) => list(page, question(params))), DomainErrors.api))
    .handle("listRecordsForSiteFinding", ({ params, query }) =>
      findings.findingRecords(params.organizationId, params.siteId, params.siteFindingId, query).pipe(Effect.map((page) => list(page, record(params))), DomainErrors.api))
    .handle("getSiteFindingStats", ({ params, query }) =>
      findings.stats(params.organizationId, params.siteId, {
        ...query,
        type: listOf(query.type),
        source: listOf(query.source),
        hasChangeRequests: booleanOf(query.hasChangeRequests)
      }).pipe(DomainErrors.api))
    .handle("listSiteContextConnections", ({ params, query }) =>
      connections.list(params.organizationId, params.siteId, query).pipe(Effect.map((page) => list(page, connection(params))), DomainErrors.api))
    .handle("createSiteContextConnection", ({ params, payload }) =>
      connections.create(params.organizationId, params.siteId, payload).pipe(Effect.map(connection(params)), DomainErrors.api))
    .handle("getSiteContextConnectionById", ({ params }) =>
      connections.get(params.organizationId, params.siteId, params.siteContextConnectionId).pipe(Effect.map(connection(params)), DomainErrors.api))
    .handle("updateSiteContextConnectionById", ({ params, payload }) =>
      connections.update(params.organizationId, params.siteId, params.siteContextConnectionId, payload).pipe(Effect.map(connection(params)), DomainErrors.api))
    .handle("deleteSiteContextConnectionById", ({ params }) =>
      connections.remove(params.organizationId, params.siteId, params.siteContextConnectionId).pipe(Effect.as("deleted" as const), DomainErrors.api))
    .handle("syncSiteContextConnection", ({ params }) =>
      connections.sync(params.organizationId, params.siteId, params.siteContextConnectionId).pipe(Effect.as("synced" as const), DomainErrors.api))
    .handle("testSiteContextConnection", ({ params }) =>
      connections.test(params.organizationId, params.siteId, params.siteContextConnectionId).pipe(
        Effect.map((result) => ({ object: "context-connection-test-result" as const, success: result.success, ...(result.error === undefined ? {} : { error: result.error }) })),
        DomainErrors.api
      ))
    .handle("listSiteTopics", ({ params, query }) =>
      findings.listTopics(params.organizationId, params.siteId, query).pipe(Effect.map((items) => ({ items: items.map(topic(params)) })), DomainErrors.api))
    .handle("getSiteTopicById", ({ params }) =>
      findings.getTopic(params.organizationId, params.siteId, params.siteTopicId).pipe(Effect.map(topic(params)), DomainErrors.api))
    .handle("updateSiteTopicById", ({ params, payload }) =>
      findings.updateTopic(params.organizationId, params.siteId, params.siteTopicId, payload.usageSettings.changeRequests).pipe(Effect.map(topic(params)), DomainErrors.api))
    .handle("deleteSiteTopicFindings", ({ params }) =>
      findings.deleteTopicFindings(params.organizationId, params.siteId, params.siteTopicId).pipe(Effect.as("deleted" as const), DomainErrors.api))
}))
