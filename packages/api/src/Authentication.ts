/** Bearer-token authentication: every `/v1` operation requires it and gets the acting user. */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { Actor } from "@quire/kernel"
import { Unauthorized } from "./ApiErrors.ts"

/** An API token sent as `Authorization: Bearer <token>` (the scheme's name is matched in any case). */
const bearer = HttpApiSecurity.http({ scheme: "bearer" }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "An API token (`quire_pat_...`) sent as `Authorization: Bearer <token>`. Issue one with `POST /v1/users/{userId}/tokens` or `quire login --sso ORG`. The `apiToken` of `resolvePublishedContentByUrl` (a JWT whose payload is GitBook's `SiteAPIToken`, signed by the server) reads one published site's content as its visitor sees it, through the operations a site's renderer calls only."
  )
)

export class Authentication extends HttpApiMiddleware.Service<Authentication, {
  provides: Actor.Actor
  requires: never
}>()("@quire/api/Authentication", {
  requiredForClient: true,
  security: { bearer },
  error: Unauthorized
}) {}

/**
 * The operations answered without a token, as GitBook's renderer calls them: resolving a site's URL
 * (either form; it answers only what the URL shows the visitor it describes), and a site's events, which the
 * renderer posts from its visitors' browsers with no token at all (taken for a site open to
 * everyone only; see docs/insights.md).
 */
export const anonymousOperations: ReadonlySet<string> = new Set(["resolvePublishedContentByUrl", "getPublishedContentByUrl", "trackEventsInSiteById"])

/**
 * The operations a published site's reader token (`resolvePublishedContentByUrl`'s `apiToken`) may
 * call: those that read what a site shows. Any other answers 401.
 */
export const siteReaderOperations: ReadonlySet<string> = new Set([
  "getSpaceById",
  "getRevisionById",
  "listPagesInRevisionById",
  "getPageInRevisionById",
  "getPageInRevisionByPath",
  "getPageDocumentInRevisionById",
  "listRevisionPageMetaLinks",
  "listFilesInRevisionById",
  "getFileInRevisionById",
  "getReusableContentInRevisionById",
  "getReusableContentDocumentInRevisionById",
  "getEmbedByUrlInSpace",
  "getLatestOpenAPISpecVersionContent",
  "getPublishedContentSite",
  "searchSiteContent",
  "getSiteRedirectBySource",
  "trackEventsInSiteById",
  "submitAgentFeedbackToSite",
  "submitSiteAgentFeedback"
])

/**
 * The operations a notifications token (`createUserNotificationsToken`) may call: the caller's
 * notifications, read and marked. Any other answers 401.
 */
export const notificationsTokenOperations: ReadonlySet<string> = new Set([
  "listNotificationsForAuthenticatedUser",
  "countNotificationsForAuthenticatedUser",
  "updateNotificationForAuthenticatedUser",
  "markAllNotificationsReadForAuthenticatedUser"
])
