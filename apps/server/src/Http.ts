/** The HTTP application: the API's routes, its OpenAPI document, the docs page, the error envelope. */
import { Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { SiteBroadcast } from "@quire/platform"
import * as ApiDocs from "./ApiDocs.ts"
import * as McpRoute from "./McpRoute.ts"
import * as SiteMcpRoute from "./SiteMcpRoute.ts"
import * as AuthenticationLive from "./AuthenticationLive.ts"
import * as AdminUsersRoute from "./AdminUsersRoute.ts"
import * as AuthRoutes from "./AuthRoutes.ts"
import * as BodyLimit from "./BodyLimit.ts"
import * as CanonicalPaths from "./CanonicalPaths.ts"
import * as ErrorEnvelope from "./ErrorEnvelope.ts"
import { PageBodyRenderer } from "./PageBodyRenderer.ts"
import { FileLinks } from "./FileLinks.ts"
import * as FileRoutes from "./FileRoutes.ts"
import * as FileUploadRoute from "./FileUploadRoute.ts"
import * as FontFilesRoute from "./FontFilesRoute.ts"
import * as StorageUploadRoute from "./StorageUploadRoute.ts"
import * as IdempotencyKeys from "./IdempotencyKeys.ts"
import { lean } from "./LeanGroups.ts"
import * as PublishedSiteRoutes from "./PublishedSiteRoutes.ts"
import * as MetricsRoute from "./MetricsRoute.ts"
import * as BackupRoute from "./BackupRoute.ts"
import * as RenderCss from "./RenderCss.ts"
import * as RequestContext from "./RequestContext.ts"
import * as SpecRoutes from "./SpecRoutes.ts"
import * as SiteExportRoute from "./SiteExportRoute.ts"
import * as SiteExportHandlers from "./handlers/SiteExportHandlers.ts"
import * as RateLimits from "./RateLimits.ts"
import * as SecurityHeaders from "./SecurityHeaders.ts"
import * as WebApp from "./WebApp.ts"
import * as PagePaths from "./PagePaths.ts"
import * as ChangeRequestChangesHandlers from "./handlers/ChangeRequestChangesHandlers.ts"
import * as ChangeRequestCommentsHandlers from "./handlers/ChangeRequestCommentsHandlers.ts"
import * as ChangeRequestReviewsHandlers from "./handlers/ChangeRequestReviewsHandlers.ts"
import * as ChangeRequestConflictsHandlers from "./handlers/ChangeRequestConflictsHandlers.ts"
import * as ChangeRequestContentHandlers from "./handlers/ChangeRequestContentHandlers.ts"
import * as ChangeRequestsHandlers from "./handlers/ChangeRequestsHandlers.ts"
import * as CollectionsHandlers from "./handlers/CollectionsHandlers.ts"
import * as CommentsHandlers from "./handlers/CommentsHandlers.ts"
import * as AuditHandlers from "./handlers/AuditHandlers.ts"
import * as AgentInstructionsHandlers from "./handlers/AgentInstructionsHandlers.ts"
import * as AiLogHandlers from "./handlers/AiLogHandlers.ts"
import * as SiteAgentSettingsHandlers from "./handlers/SiteAgentSettingsHandlers.ts"
import * as StyleguidesHandlers from "./handlers/StyleguidesHandlers.ts"
import * as TranslationsGlossaryHandlers from "./handlers/TranslationsGlossaryHandlers.ts"
import * as CustomFontsHandlers from "./handlers/CustomFontsHandlers.ts"
import * as CustomHostnamesHandlers from "./handlers/CustomHostnamesHandlers.ts"
import * as GitInstallationsHandlers from "./handlers/GitInstallationsHandlers.ts"
import * as SiteMcpServersHandlers from "./handlers/SiteMcpServersHandlers.ts"
import * as GitHandlers from "./handlers/GitHandlers.ts"
import * as FreshnessHandlers from "./handlers/FreshnessHandlers.ts"
import * as LinksHandlers from "./handlers/LinksHandlers.ts"
import * as MembersHandlers from "./handlers/MembersHandlers.ts"
import * as NotificationsHandlers from "./handlers/NotificationsHandlers.ts"
import * as OpenAPISpecsHandlers from "./handlers/OpenAPISpecsHandlers.ts"
import * as OrganizationsHandlers from "./handlers/OrganizationsHandlers.ts"
import * as PermissionsHandlers from "./handlers/PermissionsHandlers.ts"
import * as ReusableContentsHandlers from "./handlers/ReusableContentsHandlers.ts"
import * as RevisionsHandlers from "./handlers/RevisionsHandlers.ts"
import * as SearchHandlers from "./handlers/SearchHandlers.ts"
import * as SiteInsightsHandlers from "./handlers/SiteInsightsHandlers.ts"
import * as SiteInsightsRoute from "./SiteInsightsRoute.ts"
import * as SiteQuestionsHandlers from "./handlers/SiteQuestionsHandlers.ts"
import * as SiteContextHandlers from "./handlers/SiteContextHandlers.ts"
import * as SiteSectionGroupsHandlers from "./handlers/SiteSectionGroupsHandlers.ts"
import * as SiteSectionsHandlers from "./handlers/SiteSectionsHandlers.ts"
import * as SitesHandlers from "./handlers/SitesHandlers.ts"
import * as SitePermissionsHandlers from "./handlers/SitePermissionsHandlers.ts"
import * as SiteRedirectsHandlers from "./handlers/SiteRedirectsHandlers.ts"
import * as SiteUsersHandlers from "./handlers/SiteUsersHandlers.ts"
import * as SiteShareLinksHandlers from "./handlers/SiteShareLinksHandlers.ts"
import * as SitePreviewHandlers from "./handlers/SitePreviewHandlers.ts"
import * as OrganizationAskHandlers from "./handlers/OrganizationAskHandlers.ts"
import * as OrganizationAgentConversationsHandlers from "./handlers/OrganizationAgentConversationsHandlers.ts"
import * as ChangeRequestConversationsHandlers from "./handlers/ChangeRequestConversationsHandlers.ts"
import * as SiteAskHandlers from "./handlers/SiteAskHandlers.ts"
import * as SiteSpacesHandlers from "./handlers/SiteSpacesHandlers.ts"
import * as SiteStructureOpsHandlers from "./handlers/SiteStructureOpsHandlers.ts"
import * as SpaceContentHandlers from "./handlers/SpaceContentHandlers.ts"
import * as SpaceDocumentsHandlers from "./handlers/SpaceDocumentsHandlers.ts"
import * as StorageHandlers from "./handlers/StorageHandlers.ts"
import * as SpaceEmbedsHandlers from "./handlers/SpaceEmbedsHandlers.ts"
import * as SpacePdfHandlers from "./handlers/SpacePdfHandlers.ts"
import * as SpacesHandlers from "./handlers/SpacesHandlers.ts"
import * as SsoHandlers from "./handlers/SsoHandlers.ts"
import * as SystemHandlers from "./handlers/SystemHandlers.ts"
import * as TeamMembersHandlers from "./handlers/TeamMembersHandlers.ts"
import * as TeamsHandlers from "./handlers/TeamsHandlers.ts"
import * as TranslationsHandlers from "./handlers/TranslationsHandlers.ts"
import * as ImportsHandlers from "./handlers/ImportsHandlers.ts"
import * as UrlsHandlers from "./handlers/UrlsHandlers.ts"
import * as UsersHandlers from "./handlers/UsersHandlers.ts"
import { SpaceViews } from "./SpaceViews.ts"

/** Routes of the API with their handlers; needs the use cases, PublicUrl and Storage. */
export const routes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  // Each group's handlers answer in the request's context (LeanGroups.ts).
  Layer.provide(lean(Api)(Layer.mergeAll(
    SystemHandlers.layer,
    UsersHandlers.layer,
    OrganizationsHandlers.layer,
    MembersHandlers.layer,
    TeamsHandlers.layer,
    TeamMembersHandlers.layer,
    SsoHandlers.layer,
    SpacesHandlers.layer,
    CollectionsHandlers.layer,
    PermissionsHandlers.layer,
    SpaceContentHandlers.layer,
    SearchHandlers.layer,
    LinksHandlers.layer,
    FreshnessHandlers.layer,
    CommentsHandlers.layer,
    ChangeRequestsHandlers.layer,
    ChangeRequestContentHandlers.layer,
    ChangeRequestChangesHandlers.layer,
    RevisionsHandlers.layer,
    ReusableContentsHandlers.layer,
    SpacePdfHandlers.layer,
    ChangeRequestConflictsHandlers.layer,
    ChangeRequestCommentsHandlers.layer,
    ChangeRequestReviewsHandlers.layer,
    NotificationsHandlers.layer,
    SitesHandlers.layer,
    SiteSectionsHandlers.layer,
    SiteSectionGroupsHandlers.layer,
    SiteSpacesHandlers.layer,
    SiteStructureOpsHandlers.layer,
    SiteShareLinksHandlers.layer,
    SitePreviewHandlers.layer,
    SiteAskHandlers.layer,
    OrganizationAskHandlers.layer,
    OrganizationAgentConversationsHandlers.layer,
    ChangeRequestConversationsHandlers.layer,
    SiteRedirectsHandlers.layer,
    SiteExportHandlers.layer,
    SitePermissionsHandlers.layer,
    SiteUsersHandlers.layer,
    GitHandlers.layer,
    OpenAPISpecsHandlers.layer,
    GitHandlers.webhookLayer,
    TranslationsHandlers.layer,
    ImportsHandlers.layer,
    UrlsHandlers.layer,
    SpaceEmbedsHandlers.layer,
    SpaceDocumentsHandlers.layer,
    StorageHandlers.layer,
    SiteInsightsHandlers.layer,
    SiteInsightsHandlers.agentFeedbackLayer,
    SiteQuestionsHandlers.layer,
    SiteContextHandlers.layer,
    AuditHandlers.layer,
    AgentInstructionsHandlers.layer,
    AiLogHandlers.layer,
    SiteAgentSettingsHandlers.layer,
    SiteMcpServersHandlers.layer,
    StyleguidesHandlers.layer,
    TranslationsGlossaryHandlers.layer,
    CustomFontsHandlers.layer,
    CustomHostnamesHandlers.layer,
    GitInstallationsHandlers.layer
  ))),
  Layer.provide(AuthenticationLive.layer)
)


/**
 * The API, the download route of signed file links (`/files/<token>`), published sites
 * (`/~sites/<id>/`, and by `Host`), the docs page, the browser app (`/`, `/o/...`, `/s/...`, `/app/...`:
 * WebApp.ts) and the error envelope.
 */
export const app = Layer.mergeAll(routes, AuthRoutes.layer, FileRoutes.layer, FileUploadRoute.layer, FontFilesRoute.layer, StorageUploadRoute.layer, PublishedSiteRoutes.layer, PublishedSiteRoutes.hostLayer, SiteExportRoute.layer, SpecRoutes.layer, RenderCss.layer, SiteBroadcast.layer, ApiDocs.layer, McpRoute.layer, SiteMcpRoute.layer, SiteInsightsRoute.layer, WebApp.layer, ErrorEnvelope.layer, PagePaths.layer, SecurityHeaders.layer, BodyLimit.layer, RateLimits.layer, IdempotencyKeys.layer, MetricsRoute.layer, BackupRoute.layer, AdminUsersRoute.layer, RequestContext.routeLayer).pipe(
  // One renderer of page bodies (and its cache) for every handler that reads single pages.
  Layer.provide(PageBodyRenderer.layer),
  Layer.provide([FileLinks.layer, SiteExportRoute.SiteExportLinks.layer, SpaceViews.layer])
)

/**
 * How many services a request adds to the application's context (the request, its scope, route,
 * actor, spans...) before Effect copies the whole context into a new map: Effect's default, 8,
 * copied the application's ninety-odd services several times in every request.
 */
const requestContextDepth = 32

/** Runs `serve` in its context rebased with `requestContextDepth`: set once, inherited by each request. */
const deeperRequestContexts = <A, E, R>(serve: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.updateContext(serve, (context: Context.Context<R>) => Context.makeUnsafe<R>(context.mapUnsafe, { maxDepth: requestContextDepth }))

export const serve = Layer.unwrap(Effect.map(
  HttpRouter.toHttpEffect(app).pipe(Effect.provideService(HttpRouter.RouterConfig, { maxParamLength: 2000 })),
  (handler) =>
    Layer.effectDiscard(deeperRequestContexts(Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      return yield* server.serve(RequestContext.annotate(CanonicalPaths.refuseNonCanonical(handler)))
    })))
)).pipe(HttpServer.withLogAddress, Layer.provide(RequestContext.layerQuietTracing))
