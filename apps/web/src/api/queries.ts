/**
 * The queries screens share: each a `QuireApi` query atom (or a runtime atom composing several
 * calls), invalidated by the reactivity keys of the mutations that change what it shows.
 */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import type { Collection, Space } from "@quire/api"
import { orgKey, QuireApi } from "./client.ts"

export const organizationsAtom = QuireApi.query("organizations", "listOrganizationsForAuthenticatedUser", {
  query: { limit: 100 },
  reactivityKeys: ["orgs"]
})

export const organizationAtom = Atom.family((organizationId: string) =>
  QuireApi.query("organizations", "getOrganizationById", { params: { organizationId }, reactivityKeys: ["orgs"] }))

/** Every space and collection of the organization the person can see (all their pages of results). */
export const orgContentAtom = Atom.family((organizationId: string) =>
  QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const spaces: Array<Space> = []
    const collections: Array<Collection> = []
    let page: string | undefined
    do {
      const result: { readonly items: ReadonlyArray<Space>; readonly next?: { readonly page: string } } = yield* client.spaces.listSpacesInOrganizationById({ params: { organizationId }, query: { limit: 1000, ...(page === undefined ? {} : { page }) } })
      spaces.push(...result.items)
      page = result.next?.page
    } while (page !== undefined)
    do {
      const result: { readonly items: ReadonlyArray<Collection>; readonly next?: { readonly page: string } } = yield* client.collections.listCollectionsInOrganizationById({ params: { organizationId }, query: { limit: 1000, ...(page === undefined ? {} : { page }) } })
      collections.push(...result.items)
      page = result.next?.page
    } while (page !== undefined)
    return { spaces, collections }
  })).pipe(Atom.withReactivity([orgKey(organizationId)])))

/** The organization's change requests open or in draft, most recently updated first, with their spaces' titles. */
export const recentChangeRequestsAtom = Atom.family((organizationId: string) =>
  QuireApi.runtime.atom((get) => Effect.gen(function*() {
    const content = yield* get.result(orgContentAtom(organizationId))
    const client = yield* QuireApi
    const list = yield* client.changeRequests.listChangeRequestsForOrganization({
      params: { organizationId },
      query: { status: ["open", "draft"], orderBy: "updatedAt", limit: 8 }
    })
    const titles = new Map(content.spaces.map((space) => [space.id, space.title]))
    return list.items.map((cr) => ({ cr, spaceTitle: titles.get(cr.space) ?? "A space" }))
  })).pipe(Atom.withReactivity([orgKey(organizationId)])))

export const spaceAtom = Atom.family((spaceId: string) =>
  QuireApi.query("spaces", "getSpaceById", { params: { spaceId }, query: {}, reactivityKeys: [`space:${spaceId}`] }))

export const pagesAtom = Atom.family((spaceId: string) =>
  QuireApi.query("spaceContent", "listPages", { params: { spaceId }, query: {}, reactivityKeys: [`space:${spaceId}`] }))

export const pageAtom = Atom.family((key: string) => {
  const [spaceId = "", pageId = ""] = key.split("\n")
  return QuireApi.query("spaceContent", "getPageById", { params: { spaceId, pageId }, query: { format: "html" }, reactivityKeys: [`space:${spaceId}`] })
})

/** A page by its path (`<spaceId>\n<path>`), fetched beside the tree rather than after it. */
export const pageByPathAtom = Atom.family((key: string) => {
  const [spaceId = "", pagePath = ""] = key.split("\n")
  return QuireApi.query("spaceContent", "getPageByPath", { params: { spaceId, pagePath }, query: { format: "html" }, reactivityKeys: [`space:${spaceId}`] })
})

/** Search of the organization's content; one atom per text searched. */
/** The questions worth asking of what the person may read in the organization (the palette's suggestions). */
export const recommendedQuestionsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("organizationAsk", "getRecommendedQuestionsInOrganization", { params: { organizationId }, reactivityKeys: [orgKey(organizationId)] }))

export const searchAtom = Atom.family((key: string) => {
  const [organizationId = "", query = ""] = key.split("\n")
  return QuireApi.query("search", "searchOrganizationContent", { params: { organizationId }, query: { query, limit: 20 } })
})
