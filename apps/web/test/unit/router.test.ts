import { describe, expect, it } from "vitest"
import { parseRoute } from "../../src/router.ts"

describe("the app's routes", () => {
  it("opens a screen for every urls.app form the API answers", () => {
    expect(parseRoute("/o/org_1")).toEqual({ name: "org", organizationId: "org_1" })
    expect(parseRoute("/o/org_1/c/col_2")).toEqual({ name: "collection", organizationId: "org_1", collectionId: "col_2" })
    expect(parseRoute("/o/org_1/sites/site_3")).toEqual({ name: "site", organizationId: "org_1", siteId: "site_3", tab: "overview" })
    for (const tab of ["structure", "customization", "audience", "insights", "settings"] as const) {
      expect(parseRoute(`/o/org_1/sites/site_3/${tab}`)).toEqual({ name: "site", organizationId: "org_1", siteId: "site_3", tab })
    }
    // The overview has one address: the site's own.
    expect(parseRoute("/o/org_1/sites/site_3/overview")).toEqual({ name: "notFound", path: "/o/org_1/sites/site_3/overview" })
    expect(parseRoute("/o/org_1/sites/site_3/insights/more")).toEqual({ name: "notFound", path: "/o/org_1/sites/site_3/insights/more" })
    expect(parseRoute("/o/org_1/sites/site_3/other")).toEqual({ name: "notFound", path: "/o/org_1/sites/site_3/other" })
    expect(parseRoute("/openapi/org_1/petstore")).toEqual({ name: "openapi", organizationId: "org_1", slug: "petstore" })
    expect(parseRoute("/s/spc_1")).toEqual({ name: "space", spaceId: "spc_1", pagePath: "" })
    expect(parseRoute("/s/spc_1/guides/install%20it")).toEqual({ name: "space", spaceId: "spc_1", pagePath: "guides/install it" })
    expect(parseRoute("/s/spc_1/~/changes/12")).toEqual({ name: "changeRequest", spaceId: "spc_1", number: 12, pagePath: "" })
    expect(parseRoute("/s/spc_1/~/revisions/rev_9")).toEqual({ name: "revision", spaceId: "spc_1", revisionId: "rev_9", pagePath: "" })
  })

  it("opens a change request's pages, its review, the history and a revision's pages", () => {
    expect(parseRoute("/s/spc_1/~/changes/12/guides/install")).toEqual({ name: "changeRequest", spaceId: "spc_1", number: 12, pagePath: "guides/install" })
    expect(parseRoute("/s/spc_1/~/changes/12/~/review")).toEqual({ name: "changeRequestReview", spaceId: "spc_1", number: 12 })
    expect(parseRoute("/s/spc_1/~/changes/12/~/nothing")).toEqual({ name: "notFound", path: "/s/spc_1/~/changes/12/~/nothing" })
    expect(parseRoute("/s/spc_1/~/history")).toEqual({ name: "history", spaceId: "spc_1" })
    expect(parseRoute("/s/spc_1/~/change-requests")).toEqual({ name: "changeRequests", spaceId: "spc_1" })
    expect(parseRoute("/s/spc_1/~/merge-rules")).toEqual({ name: "mergeRules", spaceId: "spc_1" })
    expect(parseRoute("/s/spc_1/~/git")).toEqual({ name: "gitSync", spaceId: "spc_1" })
    expect(parseRoute("/s/spc_1/~/import")).toEqual({ name: "import", spaceId: "spc_1" })
    expect(parseRoute("/s/spc_1/~/revisions/rev_9/guides")).toEqual({ name: "revision", spaceId: "spc_1", revisionId: "rev_9", pagePath: "guides" })
  })

  it("knows the sign-in screens, and follows only a path of this app after sign-in", () => {
    expect(parseRoute("/sign-in", "?next=%2Fo%2Forg_1")).toEqual({ name: "signIn", next: "/o/org_1" })
    expect(parseRoute("/sign-in", "?next=https://evil.example")).toEqual({ name: "signIn", next: undefined })
    expect(parseRoute("/sign-in", "?next=//evil.example")).toEqual({ name: "signIn", next: undefined })
    expect(parseRoute("/setup")).toEqual({ name: "setup" })
    expect(parseRoute("/invite/tok")).toEqual({ name: "invite", token: "tok" })
    expect(parseRoute("/settings")).toEqual({ name: "settings", section: "sessions" })
  })

  it("opens an organization's administration screens and the person's API tokens", () => {
    expect(parseRoute("/o/org_1/settings")).toEqual({ name: "orgSettings", organizationId: "org_1" })
    expect(parseRoute("/o/org_1/settings/sso")).toEqual({ name: "orgSso", organizationId: "org_1" })
    expect(parseRoute("/o/org_1/members")).toEqual({ name: "members", organizationId: "org_1" })
    expect(parseRoute("/o/org_1/teams")).toEqual({ name: "teams", organizationId: "org_1" })
    expect(parseRoute("/o/org_1/openapi")).toEqual({ name: "specs", organizationId: "org_1" })
    expect(parseRoute("/o/org_1/translations")).toEqual({ name: "translations", organizationId: "org_1" })
    expect(parseRoute("/app/o/org_1/members")).toEqual({ name: "members", organizationId: "org_1" })
    expect(parseRoute("/o/org_1/members/extra")).toEqual({ name: "notFound", path: "/o/org_1/members/extra" })
    expect(parseRoute("/settings/tokens")).toEqual({ name: "settings", section: "tokens" })
  })

  it("reads /app/... as the same screens, and names what it does not know", () => {
    expect(parseRoute("/app/o/org_1")).toEqual({ name: "org", organizationId: "org_1" })
    expect(parseRoute("/")).toEqual({ name: "home" })
    expect(parseRoute("/s/spc_1/~/changes/x")).toEqual({ name: "notFound", path: "/s/spc_1/~/changes/x" })
    expect(parseRoute("/nowhere")).toEqual({ name: "notFound", path: "/nowhere" })
  })
})
