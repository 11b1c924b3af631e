/**
 * The app's only client of the public API: an AtomHttpApi service (./atomApi.ts: effect's, with
 * each endpoint's client built on its first call) over the `packages/api`
 * contract (the CLI derives its client from the same contract), on this origin's `/v1`. The
 * browser sends the session cookie with each same-origin request, so the Authentication
 * middleware adds nothing. Screens read `query` atoms and write with `mutation` atoms; a mutation
 * names the `reactivityKeys` it invalidates (`org:<id>`, `space:<id>`).
 */
import { Layer } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { type Api, Authentication } from "@quire/api"
import * as AtomApi from "./atomApi.ts"

/** The session cookie travels by itself; no bearer token in the browser. */
const sessionCookie = HttpApiMiddleware.layerClient(Authentication, ({ next, request }) => next(request))

/**
 * No tracing spans nor `b3`/`traceparent` headers: the browser exports no traces, and a request
 * with headers of its own would not match the page's `<link rel="preload">` of the same URL (the
 * server names the first screen's requests in the page, WebApp.ts), so it would be fetched twice.
 */
const untraced = Layer.succeed(HttpClient.TracerDisabledWhen, () => true)

/**
 * The contract's groups, each a module of its own loaded on its first call: building all of the
 * contract's endpoints as the app's first script loaded was a fifth of a cold load's scripting.
 */
const groups = {
  agentInstructions: () => import("@quire/api/groups/AgentInstructionsApi").then((m) => m.AgentInstructionsApi),
  aiLog: () => import("@quire/api/groups/AiLogApi").then((m) => m.AiLogApi),
  auditEvents: () => import("@quire/api/groups/AuditApi").then((m) => m.AuditApi),
  changeRequestChanges: () => import("@quire/api/groups/ChangeRequestChangesApi").then((m) => m.ChangeRequestChangesApi),
  changeRequestComments: () => import("@quire/api/groups/ChangeRequestCommentsApi").then((m) => m.ChangeRequestCommentsApi),
  changeRequestConversations: () => import("@quire/api/groups/ChangeRequestConversationsApi").then((m) => m.ChangeRequestConversationsApi),
  changeRequestConflicts: () => import("@quire/api/groups/ChangeRequestConflictsApi").then((m) => m.ChangeRequestConflictsApi),
  changeRequestContent: () => import("@quire/api/groups/ChangeRequestContentApi").then((m) => m.ChangeRequestContentApi),
  changeRequestReviews: () => import("@quire/api/groups/ChangeRequestReviewsApi").then((m) => m.ChangeRequestReviewsApi),
  changeRequests: () => import("@quire/api/groups/ChangeRequestsApi").then((m) => m.ChangeRequestsApi),
  collections: () => import("@quire/api/groups/CollectionsApi").then((m) => m.CollectionsApi),
  comments: () => import("@quire/api/groups/CommentsApi").then((m) => m.CommentsApi),
  freshness: () => import("@quire/api/groups/FreshnessApi").then((m) => m.FreshnessApi),
  git: () => import("@quire/api/groups/GitApi").then((m) => m.GitApi),
  gitInstallations: () => import("@quire/api/groups/GitInstallationsApi").then((m) => m.GitInstallationsApi),
  gitWebhook: () => import("@quire/api/groups/GitApi").then((m) => m.GitWebhookApi),
  imports: () => import("@quire/api/groups/ImportsApi").then((m) => m.ImportsApi),
  links: () => import("@quire/api/groups/LinksApi").then((m) => m.LinksApi),
  members: () => import("@quire/api/groups/MembersApi").then((m) => m.MembersApi),
  notifications: () => import("@quire/api/groups/NotificationsApi").then((m) => m.NotificationsApi),
  openAPISpecs: () => import("@quire/api/groups/OpenAPISpecsApi").then((m) => m.OpenAPISpecsApi),
  organizations: () => import("@quire/api/groups/OrganizationsApi").then((m) => m.OrganizationsApi),
  permissions: () => import("@quire/api/groups/PermissionsApi").then((m) => m.PermissionsApi),
  reusableContents: () => import("@quire/api/groups/ReusableContentsApi").then((m) => m.ReusableContentsApi),
  revisions: () => import("@quire/api/groups/RevisionsApi").then((m) => m.RevisionsApi),
  search: () => import("@quire/api/groups/SearchApi").then((m) => m.SearchApi),
  siteAgentSettings: () => import("@quire/api/groups/SiteAgentApi").then((m) => m.SiteAgentSettingsApi),
  siteMcpServers: () => import("@quire/api/groups/SiteAgentApi").then((m) => m.SiteMcpServersApi),
  siteAsk: () => import("@quire/api/groups/SiteAskApi").then((m) => m.SiteAskApi),
  organizationAsk: () => import("@quire/api/groups/OrganizationAskApi").then((m) => m.OrganizationAskApi),
  organizationAgentConversations: () => import("@quire/api/groups/OrganizationAgentConversationsApi").then((m) => m.OrganizationAgentConversationsApi),
  siteInsights: () => import("@quire/api/groups/SiteInsightsApi").then((m) => m.SiteInsightsApi),
  siteAgentFeedback: () => import("@quire/api/groups/SiteInsightsApi").then((m) => m.SiteAgentFeedbackApi),
  siteQuestions: () => import("@quire/api/groups/SiteQuestionsApi").then((m) => m.SiteQuestionsApi),
  siteContext: () => import("@quire/api/groups/SiteContextApi").then((m) => m.SiteContextApi),
  sitePermissions: () => import("@quire/api/groups/SitePermissionsApi").then((m) => m.SitePermissionsApi),
  siteUsers: () => import("@quire/api/groups/SitePermissionsApi").then((m) => m.SiteUsersApi),
  sitePreview: () => import("@quire/api/groups/SitePreviewApi").then((m) => m.SitePreviewApi),
  siteExport: () => import("@quire/api/groups/SiteExportApi").then((m) => m.SiteExportApi),
  siteRedirects: () => import("@quire/api/groups/SiteRedirectsApi").then((m) => m.SiteRedirectsApi),
  siteSectionGroups: () => import("@quire/api/groups/SiteSectionGroupsApi").then((m) => m.SiteSectionGroupsApi),
  siteSections: () => import("@quire/api/groups/SiteSectionsApi").then((m) => m.SiteSectionsApi),
  siteShareLinks: () => import("@quire/api/groups/SiteShareLinksApi").then((m) => m.SiteShareLinksApi),
  siteSpaces: () => import("@quire/api/groups/SiteSpacesApi").then((m) => m.SiteSpacesApi),
  siteStructureOps: () => import("@quire/api/groups/SiteStructureOpsApi").then((m) => m.SiteStructureOpsApi),
  sites: () => import("@quire/api/groups/SitesApi").then((m) => m.SitesApi),
  spaceContent: () => import("@quire/api/groups/SpaceContentApi").then((m) => m.SpaceContentApi),
  spaceEmbeds: () => import("@quire/api/groups/SpaceEmbedsApi").then((m) => m.SpaceEmbedsApi),
  spacePdf: () => import("@quire/api/groups/SpacePdfApi").then((m) => m.SpacePdfApi),
  spaces: () => import("@quire/api/groups/SpacesApi").then((m) => m.SpacesApi),
  sso: () => import("@quire/api/groups/SsoApi").then((m) => m.SsoApi),
  styleguides: () => import("@quire/api/groups/StyleguidesApi").then((m) => m.StyleguidesApi),
  system: () => import("@quire/api/groups/SystemApi").then((m) => m.SystemApi),
  teamMembers: () => import("@quire/api/groups/TeamMembersApi").then((m) => m.TeamMembersApi),
  teams: () => import("@quire/api/groups/TeamsApi").then((m) => m.TeamsApi),
  translations: () => import("@quire/api/groups/TranslationsApi").then((m) => m.TranslationsApi),
  urls: () => import("@quire/api/groups/UrlsApi").then((m) => m.UrlsApi),
  users: () => import("@quire/api/groups/UsersApi").then((m) => m.UsersApi),
  translationsGlossary: () => import("@quire/api/groups/TranslationsGlossaryApi").then((m) => m.TranslationsGlossaryApi),
  customFonts: () => import("@quire/api/groups/CustomFontsApi").then((m) => m.CustomFontsApi),
  customHostnames: () => import("@quire/api/groups/CustomHostnamesApi").then((m) => m.CustomHostnamesApi)
}

/**
 * Starts loading the contract's `names` groups, for a screen whose first reads are known before it
 * renders: their modules arrive beside the screen's own chunk rather than after its first render.
 */
export const preloadGroups = (...names: ReadonlyArray<keyof typeof groups>): void => {
  for (const name of names) void groups[name]().catch(() => undefined)
}

export class QuireApi extends AtomApi.Service<QuireApi>()("@quire/web/QuireApi", {
  api: undefined as unknown as typeof Api,
  groups,
  httpClient: Layer.mergeAll(FetchHttpClient.layer, sessionCookie, untraced),
  baseUrl: typeof window === "undefined" ? "http://localhost" : window.location.origin
}) {}

/** The reactivity key of what an organization holds (its spaces, collections, change requests). */
export const orgKey = (organizationId: string) => `org:${organizationId}`
