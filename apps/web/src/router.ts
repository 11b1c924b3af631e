/**
 * The app's routes: every `urls.app` form the API answers, and the app's own screens. `parseRoute`
 * is pure (unit-tested); `navigate` and `useRoute` follow the browser's history.
 */
import { useSyncExternalStore } from "react"

/** The tabs of a site's dashboard, each its own address: `/o/<org>/sites/<site>` is the overview, the others `/<tab>` under it. */
export const siteTabs = ["overview", "structure", "customization", "audience", "insights", "findings", "styleguide", "settings"] as const
export type SiteTab = typeof siteTabs[number]
/** Each tab's name, in the tab bar and as the breadcrumbs' last part. */
export const siteTabLabels: Record<SiteTab, string> = { overview: "Overview", structure: "Structure", customization: "Customization", audience: "Audience", insights: "Insights", findings: "Findings", styleguide: "Style guide", settings: "Settings" }
const isSiteTab = (part: string | undefined): part is SiteTab => part !== undefined && part !== "overview" && (siteTabs as ReadonlyArray<string>).includes(part)

export type Route =
  | { readonly name: "home" }
  | { readonly name: "signIn"; readonly next: string | undefined }
  | { readonly name: "setup" }
  | { readonly name: "invite"; readonly token: string }
  | { readonly name: "verifyEmail"; readonly token: string }
  | { readonly name: "settings"; readonly section: string }
  | { readonly name: "notifications" }
  | { readonly name: "newOrganization" }
  | { readonly name: "org"; readonly organizationId: string }
  | { readonly name: "orgSettings"; readonly organizationId: string }
  | { readonly name: "orgSso"; readonly organizationId: string }
  | { readonly name: "members"; readonly organizationId: string }
  | { readonly name: "teams"; readonly organizationId: string }
  | { readonly name: "auditLog"; readonly organizationId: string }
  | { readonly name: "aiLog"; readonly organizationId: string }
  | { readonly name: "specs"; readonly organizationId: string }
  | { readonly name: "translations"; readonly organizationId: string }
  | { readonly name: "assistant"; readonly organizationId: string }
  | { readonly name: "orgFreshness"; readonly organizationId: string }
  | { readonly name: "collection"; readonly organizationId: string; readonly collectionId: string }
  | { readonly name: "site"; readonly organizationId: string; readonly siteId: string; readonly tab: SiteTab }
  | { readonly name: "openapi"; readonly organizationId: string; readonly slug: string }
  | { readonly name: "space"; readonly spaceId: string; readonly pagePath: string }
  | { readonly name: "changeRequest"; readonly spaceId: string; readonly number: number; readonly pagePath: string }
  | { readonly name: "changeRequestReview"; readonly spaceId: string; readonly number: number }
  | { readonly name: "history"; readonly spaceId: string }
  | { readonly name: "changeRequests"; readonly spaceId: string }
  | { readonly name: "mergeRules"; readonly spaceId: string }
  | { readonly name: "gitSync"; readonly spaceId: string }
  | { readonly name: "import"; readonly spaceId: string }
  | { readonly name: "freshness"; readonly spaceId: string }
  | { readonly name: "revision"; readonly spaceId: string; readonly revisionId: string; readonly pagePath: string }
  | { readonly name: "notFound"; readonly path: string }

const decode = (part: string) => {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/** The route of a location's path and query. */
export const parseRoute = (pathname: string, search = ""): Route => {
  const parts = pathname.split("/").filter((part) => part !== "").map(decode)
  const [first, second, third, fourth, ...rest] = parts
  if (parts.length === 0) return { name: "home" }
  if (first === "sign-in" && parts.length === 1) {
    const next = new URLSearchParams(search).get("next") ?? undefined
    // Only a path of this app: never another site.
    return { name: "signIn", next: next !== undefined && next.startsWith("/") && !next.startsWith("//") ? next : undefined }
  }
  if (first === "setup" && parts.length === 1) return { name: "setup" }
  if (first === "invite" && second !== undefined && parts.length === 2) return { name: "invite", token: second }
  if (first === "verify-email" && parts.length === 1) return { name: "verifyEmail", token: new URLSearchParams(search).get("token") ?? "" }
  if (first === "notifications" && parts.length === 1) return { name: "notifications" }
  if (first === "new-organization" && parts.length === 1) return { name: "newOrganization" }
  if (first === "settings") return { name: "settings", section: second ?? "sessions" }
  if (first === "o" && second !== undefined) {
    if (third === undefined) return { name: "org", organizationId: second }
    if (third === "settings" && fourth === undefined) return { name: "orgSettings", organizationId: second }
    if (third === "settings" && fourth === "sso" && rest.length === 0) return { name: "orgSso", organizationId: second }
    if (third === "members" && fourth === undefined) return { name: "members", organizationId: second }
    if (third === "teams" && fourth === undefined) return { name: "teams", organizationId: second }
    if (third === "audit-log" && fourth === undefined) return { name: "auditLog", organizationId: second }
    if (third === "ai-log" && fourth === undefined) return { name: "aiLog", organizationId: second }
    if (third === "openapi" && fourth === undefined) return { name: "specs", organizationId: second }
    if (third === "translations" && fourth === undefined) return { name: "translations", organizationId: second }
    if (third === "assistant" && fourth === undefined) return { name: "assistant", organizationId: second }
    if (third === "freshness" && fourth === undefined) return { name: "orgFreshness", organizationId: second }
    if (third === "c" && fourth !== undefined && rest.length === 0) return { name: "collection", organizationId: second, collectionId: fourth }
    if (third === "sites" && fourth !== undefined && rest.length === 0) return { name: "site", organizationId: second, siteId: fourth, tab: "overview" }
    if (third === "sites" && fourth !== undefined && rest.length === 1 && isSiteTab(rest[0])) return { name: "site", organizationId: second, siteId: fourth, tab: rest[0] }
  }
  if (first === "openapi" && second !== undefined && third !== undefined && parts.length === 3) {
    return { name: "openapi", organizationId: second, slug: third }
  }
  if (first === "s" && second !== undefined) {
    if (third === "~") {
      const number = Number(rest[0])
      if (fourth === "changes" && rest.length >= 1 && Number.isInteger(number) && number > 0) {
        // `/s/<space>/~/changes/<n>/~/review`: the review; `/s/<space>/~/changes/<n>/<page path>`: its content, edited.
        if (rest[1] === "~") return rest[2] === "review" && rest.length === 3 ? { name: "changeRequestReview", spaceId: second, number } : { name: "notFound", path: pathname }
        return { name: "changeRequest", spaceId: second, number, pagePath: rest.slice(1).join("/") }
      }
      if (fourth === "revisions" && rest.length >= 1) return { name: "revision", spaceId: second, revisionId: rest[0]!, pagePath: rest.slice(1).join("/") }
      if (fourth === "history" && rest.length === 0) return { name: "history", spaceId: second }
      if (fourth === "change-requests" && rest.length === 0) return { name: "changeRequests", spaceId: second }
      if (fourth === "merge-rules" && rest.length === 0) return { name: "mergeRules", spaceId: second }
      if (fourth === "git" && rest.length === 0) return { name: "gitSync", spaceId: second }
      if (fourth === "import" && rest.length === 0) return { name: "import", spaceId: second }
      if (fourth === "freshness" && rest.length === 0) return { name: "freshness", spaceId: second }
      return { name: "notFound", path: pathname }
    }
    return { name: "space", spaceId: second, pagePath: parts.slice(2).join("/") }
  }
  if (first === "app") return parseRoute(`/${parts.slice(1).join("/")}`, search)
  return { name: "notFound", path: pathname }
}

const listeners = new Set<() => void>()
const notify = () => listeners.forEach((listener) => listener())

if (typeof window !== "undefined") window.addEventListener("popstate", notify)

/** Goes to `to` (a path of this app) without reloading. */
export const navigate = (to: string, options: { replace?: boolean } = {}) => {
  if (options.replace === true) window.history.replaceState(null, "", to)
  else window.history.pushState(null, "", to)
  window.scrollTo(0, 0)
  notify()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const locationKey = () => `${window.location.pathname}${window.location.search}`

/** The current route; renders again on navigation. */
export const useRoute = (): Route => {
  const key = useSyncExternalStore(subscribe, locationKey, locationKey)
  const [pathname = "/", search = ""] = key.split(/(?=\?)/)
  return parseRoute(pathname, search)
}
