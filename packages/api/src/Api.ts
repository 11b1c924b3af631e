/** The Quire HTTP API: GitBook-compatible operations under `/v1`, plus `/health`. */
import { HttpApi, OpenApi } from "effect/http-api"
import { AgentInstructionsApi } from "./AgentInstructionsApi.ts"
import { AiLogApi } from "./AiLogApi.ts"
import { AuditApi } from "./AuditApi.ts"
import { ChangeRequestChangesApi } from "./ChangeRequestChangesApi.ts"
import { ChangeRequestCommentsApi } from "./ChangeRequestCommentsApi.ts"
import { ChangeRequestReviewsApi } from "./ChangeRequestReviewsApi.ts"
import { ChangeRequestConflictsApi } from "./ChangeRequestConflictsApi.ts"
import { ChangeRequestContentApi } from "./ChangeRequestContentApi.ts"
import { ChangeRequestsApi } from "./ChangeRequestsApi.ts"
import { CollectionsApi } from "./CollectionsApi.ts"
import { CommentsApi } from "./CommentsApi.ts"
import { withGatewayResponses, withSharedErrorResponses } from "./GatewayResponses.ts"
import { GitApi, GitWebhookApi } from "./GitApi.ts"
import { FreshnessApi } from "./FreshnessApi.ts"
import { LinksApi } from "./LinksApi.ts"
import { OpenAPISpecsApi } from "./OpenAPISpecsApi.ts"
import { PermissionsApi } from "./PermissionsApi.ts"
import { ReusableContentsApi } from "./ReusableContentsApi.ts"
import { RevisionsApi } from "./RevisionsApi.ts"
import { MembersApi } from "./MembersApi.ts"
import { NotificationsApi } from "./NotificationsApi.ts"
import { withGitBookOperationIds } from "./OperationIds.ts"
import { OrganizationsApi } from "./OrganizationsApi.ts"
import { SearchApi } from "./SearchApi.ts"
import { SitePermissionsApi, SiteUsersApi } from "./SitePermissionsApi.ts"
import { SiteRedirectsApi } from "./SiteRedirectsApi.ts"
import { SiteExportApi } from "./SiteExportApi.ts"
import { SiteAgentFeedbackApi, SiteInsightsApi } from "./SiteInsightsApi.ts"
import { SiteQuestionsApi } from "./SiteQuestionsApi.ts"
import { SiteContextApi } from "./SiteContextApi.ts"
import { SiteSectionGroupsApi } from "./SiteSectionGroupsApi.ts"
import { SiteSectionsApi } from "./SiteSectionsApi.ts"
import { SiteStructureOpsApi } from "./SiteStructureOpsApi.ts"
import { SitesApi } from "./SitesApi.ts"
import { OrganizationAskApi } from "./OrganizationAskApi.ts"
import { OrganizationAgentConversationsApi } from "./OrganizationAgentConversationsApi.ts"
import { ChangeRequestConversationsApi } from "./ChangeRequestConversationsApi.ts"
import { SiteAskApi } from "./SiteAskApi.ts"
import { SiteAgentSettingsApi, SiteMcpServersApi } from "./SiteAgentApi.ts"
import { StorageApi } from "./StorageApi.ts"
import { StyleguidesApi } from "./StyleguidesApi.ts"
import { GitInstallationsApi } from "./GitInstallationsApi.ts"
import { SiteShareLinksApi } from "./SiteShareLinksApi.ts"
import { SitePreviewApi } from "./SitePreviewApi.ts"
import { SiteSpacesApi } from "./SiteSpacesApi.ts"
import { SpaceContentApi } from "./SpaceContentApi.ts"
import { SpaceDocumentsApi } from "./SpaceDocumentsApi.ts"
import { SpaceEmbedsApi } from "./SpaceEmbedsApi.ts"
import { SpacePdfApi } from "./SpacePdfApi.ts"
import { SpacesApi } from "./SpacesApi.ts"
import { SsoApi } from "./SsoApi.ts"
import { SystemApi } from "./SystemApi.ts"
import { withTags } from "./Tags.ts"
import { TeamMembersApi } from "./TeamMembersApi.ts"
import { TeamsApi } from "./TeamsApi.ts"
import { TranslationsApi } from "./TranslationsApi.ts"
import { TranslationsGlossaryApi } from "./TranslationsGlossaryApi.ts"
import { CustomFontsApi } from "./CustomFontsApi.ts"
import { CustomHostnamesApi } from "./CustomHostnamesApi.ts"
import { ImportsApi } from "./ImportsApi.ts"
import { withUploadRoute } from "./UploadRoute.ts"
import { UrlsApi } from "./UrlsApi.ts"
import { UsersApi } from "./UsersApi.ts"

export class Api extends HttpApi.make("quire")
  .add(SystemApi)
  .add(UsersApi)
  .add(OrganizationsApi)
  .add(MembersApi)
  .add(TeamsApi)
  .add(TeamMembersApi)
  .add(SsoApi)
  .add(SpacesApi)
  .add(CollectionsApi)
  .add(PermissionsApi)
  .add(SpaceContentApi)
  .add(SearchApi)
  .add(LinksApi)
  .add(FreshnessApi)
  .add(ChangeRequestsApi)
  .add(ChangeRequestContentApi)
  .add(ChangeRequestChangesApi)
  .add(RevisionsApi)
  .add(ReusableContentsApi)
  .add(SpacePdfApi)
  .add(ChangeRequestConflictsApi)
  .add(CommentsApi)
  .add(ChangeRequestCommentsApi)
  .add(ChangeRequestReviewsApi)
  .add(ChangeRequestConversationsApi)
  .add(NotificationsApi)
  .add(SitesApi)
  .add(SiteSectionsApi)
  .add(SiteSectionGroupsApi)
  .add(SiteSpacesApi)
  .add(SiteStructureOpsApi)
  .add(SiteShareLinksApi)
  .add(SitePreviewApi)
  .add(SiteAskApi)
  .add(OrganizationAskApi)
  .add(OrganizationAgentConversationsApi)
  .add(SiteRedirectsApi)
  .add(SiteExportApi)
  .add(SitePermissionsApi)
  .add(SiteUsersApi)
  .add(GitApi)
  .add(GitWebhookApi)
  .add(OpenAPISpecsApi)
  .add(TranslationsApi)
  .add(ImportsApi)
  .add(UrlsApi)
  .add(SpaceEmbedsApi)
  .add(SpaceDocumentsApi)
  .add(StorageApi)
  .add(SiteInsightsApi)
  .add(SiteAgentFeedbackApi)
  .add(SiteQuestionsApi)
  .add(SiteContextApi)
  .add(AuditApi)
  .add(AgentInstructionsApi)
  .add(AiLogApi)
  .add(SiteAgentSettingsApi)
  .add(SiteMcpServersApi)
  .add(StyleguidesApi)
  .add(TranslationsGlossaryApi)
  .add(CustomFontsApi)
  .add(CustomHostnamesApi)
  .add(GitInstallationsApi)
  .annotateMerge(OpenApi.annotations({
    title: "Quire API",
    description: "Self-hosted documentation platform; wire-compatible with GitBook's public API.",
    transform: (spec) => withGitBookOperationIds(withTags(withSharedErrorResponses(withGatewayResponses(withUploadRoute(spec)))))
  }))
  // A body field the contract does not name is a 400, as the document's `additionalProperties: false` says.
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
{}
