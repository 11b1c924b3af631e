/** The app: who is signed in decides between the sign-in screens and the shell around the route's screen. */
import type { Space as SpaceResource } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { lazy, Suspense, useEffect } from "react"
import { preloadGroups } from "./api/client.ts"
import { organizationsAtom, spaceAtom } from "./api/queries.ts"
import { useAtomValue } from "./api/react.ts"
import { sessionAtom } from "./api/session.ts"
import { CreateOrganization } from "./features/onboarding/CreateOrganization.tsx"
import { ChangeRequests } from "./routes/ChangeRequests.tsx"
import { Collection } from "./routes/Collection.tsx"
import { History } from "./routes/History.tsx"
import { Invite } from "./routes/Invite.tsx"
import { VerifyEmail } from "./routes/VerifyEmail.tsx"
import { OrgHome } from "./routes/OrgHome.tsx"
import { Review } from "./routes/Review.tsx"
import { Revision } from "./routes/Revision.tsx"
import { Notifications } from "./routes/Notifications.tsx"
import { NotFound } from "./routes/Placeholder.tsx"
import { Settings } from "./routes/Settings.tsx"
import { Setup } from "./routes/Setup.tsx"
import { SignIn } from "./routes/SignIn.tsx"
import { Space } from "./routes/Space.tsx"
import { navigate, type Route, type SiteTab, useRoute } from "./router.ts"
import { RouteBoundary } from "./ui/RouteBoundary.tsx"
import type { Place } from "./ui/Breadcrumbs.tsx"
import { Shell } from "./ui/Shell.tsx"
import { Failure, Loading } from "./ui/States.tsx"

/**
 * The change request's screen (live editing: Yjs, the socket, kept edits) is its own chunk, so the
 * first load of a space does not carry it. Opened on a change request, the app asks for it at once,
 * beside its first reads, rather than once the session is known; opened on a page of it, the
 * editor's module and the contract groups of the screen's first reads too, which otherwise were
 * asked for only once the screen had rendered (a waterfall of a third of the long page's opening).
 */
const loadChangeRequest = () => import("./routes/ChangeRequest.tsx")
if (/\/~\/changes\//.test(window.location.pathname)) {
  void loadChangeRequest()
  if (!/\/~\/changes\/[^/]+\/~\//.test(window.location.pathname)) {
    void import("./editor/Editor.tsx").catch(() => undefined)
    preloadGroups("changeRequests", "changeRequestContent", "spaceContent", "links")
  }
}
const ChangeRequest = lazy(() => loadChangeRequest().then((module) => ({ default: module.ChangeRequest })))

/** The site screen, in its own chunk: the first load of a space does not carry it. */
const Site = lazy(() => import("./routes/Site.tsx").then((module) => ({ default: module.Site })))
/** The Git sync screen, in its own chunk likewise. */
const Import = lazy(() => import("./routes/Import.tsx").then((module) => ({ default: module.Import })))
const GitSync = lazy(() => import("./routes/GitSync.tsx").then((module) => ({ default: module.GitSync })))
const MergeRules = lazy(() => import("./routes/MergeRules.tsx"))

// The administration screens load with their own chunk, on first use: the first load of a space does not grow.
const OrgSettings = lazy(() => import("./features/admin/OrgSettings.tsx"))
const SingleSignOn = lazy(() => import("./features/admin/SingleSignOn.tsx"))
const Members = lazy(() => import("./features/admin/Members.tsx"))
const Teams = lazy(() => import("./features/admin/Teams.tsx"))
const OrgAuditLog = lazy(() => import("./features/audit/AuditLog.tsx"))
// The OpenAPI specs and translations screens: their own chunks, on first use.
const Specs = lazy(() => import("./features/specs/Specs.tsx"))
const Spec = lazy(() => import("./features/specs/Spec.tsx"))
const Translations = lazy(() => import("./features/translations/Translations.tsx"))
const Assistant = lazy(() => import("./features/assistant/Assistant.tsx"))
const AiLog = lazy(() => import("./features/ailog/AiLog.tsx"))
const SpaceFreshness = lazy(() => import("./features/freshness/Freshness.tsx").then((m) => ({ default: m.SpaceFreshnessScreen })))
const OrganizationFreshness = lazy(() => import("./features/freshness/Freshness.tsx").then((m) => ({ default: m.OrganizationFreshnessScreen })))

/** `/`: the person's first organization, or, when they have none, creating one. */
const Home = () => {
  const orgs = useAtomValue(organizationsAtom)
  const first = AsyncResult.isSuccess(orgs) ? orgs.value.items[0] : undefined
  useEffect(() => {
    if (first !== undefined) navigate(`/o/${first.id}`, { replace: true })
  }, [first])
  if (AsyncResult.isFailure(orgs)) return <Failure result={orgs} />
  if (AsyncResult.isSuccess(orgs) && first === undefined) return <CreateOrganization first />
  return <Loading what="your organizations" />
}

const titles: Record<Route["name"], string> = {
  home: "Quire", signIn: "Sign in", setup: "Set up", invite: "Invitation", verifyEmail: "Confirm your email", settings: "Settings", notifications: "Notifications", newOrganization: "New organization", org: "Organization",
  orgSettings: "Organization settings", orgSso: "Single sign-on", members: "Members", teams: "Teams", auditLog: "Audit log", aiLog: "AI log", specs: "OpenAPI specs", translations: "Translations", assistant: "Assistant", orgFreshness: "Freshness",
  collection: "Collection", site: "Site", openapi: "OpenAPI specification", space: "Space", changeRequest: "Change request",
  changeRequestReview: "Review", changeRequests: "Change requests", mergeRules: "Merge rules", history: "History", gitSync: "Git sync", import: "Import", freshness: "Freshness", revision: "Revision", notFound: "Not found"
}

/** The site dashboard's tabs, in the window's title and the breadcrumbs' last part. */
const siteTabTitles: Record<SiteTab, string> = {
  overview: "Site", structure: "Site structure", customization: "Site customization", audience: "Site audience", insights: "Site insights", findings: "Site findings", styleguide: "Site style guide", settings: "Site settings"
}

const titleOf = (route: Route) => route.name === "site" ? siteTabTitles[route.tab] : titles[route.name]

const Screen = (props: { readonly route: Route }) => {
  const { route } = props
  switch (route.name) {
    case "home":
      return <Home />
    case "org":
      return <OrgHome organizationId={route.organizationId} />
    case "orgSettings":
      return <Suspense fallback={<Loading what="the settings" />}><OrgSettings organizationId={route.organizationId} /></Suspense>
    case "orgSso":
      return <Suspense fallback={<Loading what="the single sign-on settings" />}><SingleSignOn organizationId={route.organizationId} /></Suspense>
    case "members":
      return <Suspense fallback={<Loading what="the members" />}><Members organizationId={route.organizationId} /></Suspense>
    case "teams":
      return <Suspense fallback={<Loading what="the teams" />}><Teams organizationId={route.organizationId} /></Suspense>
    case "auditLog":
      return <Suspense fallback={<Loading what="the audit log" />}><OrgAuditLog organizationId={route.organizationId} /></Suspense>
    case "aiLog":
      return <Suspense fallback={<Loading what="the AI log" />}><AiLog organizationId={route.organizationId} /></Suspense>
    case "collection":
      return <Collection organizationId={route.organizationId} collectionId={route.collectionId} />
    case "site":
      return <Suspense fallback={<Loading what="the site" />}><Site organizationId={route.organizationId} siteId={route.siteId} tab={route.tab} /></Suspense>
    case "specs":
      return <Suspense fallback={<Loading what="the specs" />}><Specs organizationId={route.organizationId} /></Suspense>
    case "openapi":
      return <Suspense fallback={<Loading what="the spec" />}><Spec organizationId={route.organizationId} slug={route.slug} /></Suspense>
    case "translations":
      return <Suspense fallback={<Loading what="the translations" />}><Translations organizationId={route.organizationId} /></Suspense>
    case "assistant":
      return <Suspense fallback={<Loading what="the assistant" />}><Assistant organizationId={route.organizationId} /></Suspense>
    case "orgFreshness":
      return <Suspense fallback={<Loading what="the pages' freshness" />}><OrganizationFreshness organizationId={route.organizationId} /></Suspense>
    case "space":
      return <Space spaceId={route.spaceId} pagePath={route.pagePath} />
    case "changeRequest":
      return (
        <Suspense fallback={<Loading what="the change request" />}>
          <ChangeRequest spaceId={route.spaceId} number={route.number} pagePath={route.pagePath} />
        </Suspense>
      )
    case "changeRequestReview":
      return <Review spaceId={route.spaceId} number={route.number} />
    case "history":
      return <History spaceId={route.spaceId} />
    case "changeRequests":
      return <ChangeRequests spaceId={route.spaceId} />
    case "gitSync":
      return <Suspense fallback={<Loading what="the Git sync" />}><GitSync spaceId={route.spaceId} /></Suspense>
    case "mergeRules":
      return <Suspense fallback={<Loading what="the merge rules" />}><MergeRules spaceId={route.spaceId} /></Suspense>
    case "import":
      return <Suspense fallback={<Loading what="imports" />}><Import spaceId={route.spaceId} /></Suspense>
    case "freshness":
      return <Suspense fallback={<Loading what="the pages' freshness" />}><SpaceFreshness spaceId={route.spaceId} /></Suspense>
    case "revision":
      return <Revision spaceId={route.spaceId} revisionId={route.revisionId} pagePath={route.pagePath} />
    case "settings":
      return <Settings section={route.section} />
    case "notifications":
      return <Notifications />
    case "newOrganization":
      return <CreateOrganization first={false} />
    default:
      return <NotFound path={route.name === "notFound" ? route.path : "/"} />
  }
}

/** Moves to `to` once rendered (navigating while rendering would update the router inside another component's render). */
const Redirect = (props: { readonly to: string }) => {
  useEffect(() => navigate(props.to, { replace: true }), [props.to])
  return null
}

const noSpace: Atom.Atom<AsyncResult.AsyncResult<SpaceResource, unknown>> = Atom.make(AsyncResult.initial<SpaceResource, unknown>())

/** The organization a route belongs to: in its path, or its space's (the switcher and the palette follow it). */
const useOrganizationOf = (route: Route): string | undefined => {
  const spaceId = "spaceId" in route ? route.spaceId : undefined
  const space = useAtomValue<AsyncResult.AsyncResult<SpaceResource, unknown>>(spaceId === undefined ? noSpace : spaceAtom(spaceId))
  if ("organizationId" in route) return route.organizationId
  return spaceId !== undefined && AsyncResult.isSuccess(space) ? space.value.organization : undefined
}

/** The screens whose name ends the breadcrumbs (the others add their own, or are the last part already). */
const crumbLabels: Partial<Record<Route["name"], string>> = {
  orgSettings: "Settings", orgSso: "Single sign-on", members: "Members", teams: "Teams", auditLog: "Audit log", aiLog: "AI log", specs: "OpenAPI specs", translations: "Translations", assistant: "Assistant", orgFreshness: "Freshness",
  site: "Site", openapi: "OpenAPI specification", history: "History", gitSync: "Git sync", mergeRules: "Merge rules", import: "Import", freshness: "Freshness", revision: "Revision"
}

/** Where the route is in its organization, for the breadcrumbs and the sidebar. */
const placeOf = (route: Route, organizationId: string | undefined): Place | undefined => {
  if (organizationId === undefined) return undefined
  if ("spaceId" in route) return { organizationId, spaceId: route.spaceId, exact: false }
  if (route.name === "collection") return { organizationId, collectionId: route.collectionId, exact: true }
  return { organizationId, exact: route.name === "org" }
}

const SignedIn = (props: { readonly route: Route }) => {
  const organizationId = useOrganizationOf(props.route)
  return (
  <Shell organizationId={organizationId} place={placeOf(props.route, organizationId)} label={props.route.name === "site" ? siteTabTitles[props.route.tab] : crumbLabels[props.route.name]}>
    <RouteBoundary resetKey={window.location.pathname}>
      <Screen route={props.route} />
    </RouteBoundary>
  </Shell>
  )
}

export const App = () => {
  const route = useRoute()
  const session = useAtomValue(sessionAtom)
  const title = route.name === "home" ? "Quire" : `${titleOf(route)} · Quire`
  useEffect(() => {
    document.title = title
  }, [title])
  if (AsyncResult.isInitial(session)) return <p className="muted" role="status" style={{ padding: "1rem" }}>Loading…</p>
  if (AsyncResult.isFailure(session)) return <main><Failure result={session} /></main>
  const state = session.value
  if (route.name === "invite") return <Invite token={route.token} />
  if (route.name === "verifyEmail") return <VerifyEmail token={route.token} />
  if (route.name === "setup") return <Setup open={!state.signedIn && state.setupNeeded} />
  if (!state.signedIn) {
    if (state.setupNeeded && route.name !== "signIn") return <Setup open />
    const here = `${window.location.pathname}${window.location.search}`
    return <SignIn next={route.name === "signIn" ? route.next : here === "/" ? undefined : here} />
  }
  // Signed in on the sign-in screen: where it was to lead, once the session is current (a sign-out
  // refreshes it after moving here, and the stale session must not send the person back in).
  if (route.name === "signIn") return session.waiting ? <Loading what="your session" /> : <Redirect to={route.next ?? "/"} />
  return <SignedIn route={route} />
}
