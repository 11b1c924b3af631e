/**
 * The sites screens' queries and writes. Reactivity keys: `sites:<org>` (the organization's list),
 * `site:<id>` (a site, its structure, share links and customization), `site-auth:<id>` (its
 * visitor-auth key, read only by admins of a visitor-auth site), `site-permissions:<id>` (who may
 * change it: the grants on it and everyone's role there).
 */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import { useCallback, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { type Problem, problemOf } from "./errors.ts"

export const sitesKey = (organizationId: string) => `sites:${organizationId}`
export const siteKey = (siteId: string) => `site:${siteId}`
export const siteAuthKey = (siteId: string) => `site-auth:${siteId}`
export const sitePermissionsKey = (siteId: string) => `site-permissions:${siteId}`

/** `<org>\n<site>`: the family key of a site's atoms. */
export const siteRef = (organizationId: string, siteId: string) => `${organizationId}\n${siteId}`
const paramsOf = (ref: string) => {
  const [organizationId = "", siteId = ""] = ref.split("\n")
  return { organizationId, siteId }
}

export const sitesAtom = Atom.family((organizationId: string) =>
  QuireApi.query("sites", "listSites", { params: { organizationId }, query: { limit: 100 }, reactivityKeys: [sitesKey(organizationId)] }))

export const siteAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("sites", "getSiteById", { params, reactivityKeys: [siteKey(params.siteId), sitesKey(params.organizationId)] })
})

export const structureAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("sites", "getSiteStructure", { params, query: {}, reactivityKeys: [siteKey(params.siteId)] })
})

export const shareLinksAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("siteShareLinks", "listSiteShareLinks", { params, query: { limit: 100 }, reactivityKeys: [siteKey(params.siteId)] })
})

export const publishingAuthAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("sites", "getSitePublishingAuthById", { params, reactivityKeys: [siteAuthKey(params.siteId)] })
})

export const customizationAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("sites", "getSiteCustomizationById", { params, query: {}, reactivityKeys: [siteKey(params.siteId)] })
})

/** A site space's look: the site's customization with the variant's own settings over it (`<org>\n<site>\n<siteSpace>`). */
export const variantLookAtom = Atom.family((ref: string) => {
  const [organizationId = "", siteId = "", siteSpaceId = ""] = ref.split("\n")
  return QuireApi.query("siteStructureOps", "getSiteSpaceCustomizationById", { params: { organizationId, siteId, siteSpaceId }, query: {}, reactivityKeys: [siteKey(siteId)] })
})

/** The site's channels (where its assistant answers). */
export const channelsAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("siteStructureOps", "listSiteChannels", { params, query: { limit: 100 }, reactivityKeys: [siteKey(params.siteId)] })
})

/** The site's adaptive schema (a 404 when it has none: the screen reads that as empty). */
export const adaptiveSchemaAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("sites", "getSiteAdaptiveSchema", { params, reactivityKeys: [siteKey(params.siteId)] })
})

/**
 * Who may change a site: everyone's role on it (the aggregate), the grants to users and teams, and,
 * for those who manage it (`manage` in the key), the organization's members and teams to invite.
 * Key: `<org>\n<site>\n<manage|view>`.
 */
export const sitePermissionsAtom = Atom.family((key: string) => {
  const [organizationId = "", siteId = "", mode = "view"] = key.split("\n")
  const params = { organizationId, siteId }
  const query = { limit: 1000 }
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const [aggregate, users, teams] = yield* Effect.all([
      client.siteUsers.listPermissionsAggregateInSite({ params, query }),
      client.siteUsers.listUserPermissionsInSite({ params, query }),
      client.sitePermissions.listTeamPermissionsInSite({ params, query })
    ], { concurrency: "unbounded" })
    const [members, allTeams] = mode === "manage"
      ? yield* Effect.all([
        client.members.listMembersInOrganizationById({ params: { organizationId }, query: { limit: 1000, sort: "name", order: "asc" } }),
        client.teams.listTeamsInOrganizationById({ params: { organizationId }, query })
      ], { concurrency: "unbounded" })
      : [undefined, undefined]
    return { aggregate: aggregate.items, users: users.items, teams: teams.items, members: members?.items ?? [], allTeams: allTeams?.items ?? [] }
  })).pipe(Atom.withReactivity([sitePermissionsKey(siteId)]))
})

export const inviteToSite = QuireApi.mutation("sitePermissions", "inviteToSite")
export const updateUserPermissionInSite = QuireApi.mutation("siteUsers", "updateUserPermissionInSite")
export const removeUserFromSite = QuireApi.mutation("siteUsers", "removeUserFromSite")
export const updateTeamPermissionInSite = QuireApi.mutation("sitePermissions", "updateTeamPermissionInSite")
export const removeTeamFromSite = QuireApi.mutation("sitePermissions", "removeTeamFromSite")

export const createSite = QuireApi.mutation("sites", "createSite")
export const updateSite = QuireApi.mutation("sites", "updateSiteById")
export const publishSite = QuireApi.mutation("sites", "publishSite")
export const unpublishSite = QuireApi.mutation("sites", "unpublishSite")
export const updateCustomization = QuireApi.mutation("sites", "updateSiteCustomizationById")
export const updatePublishingAuth = QuireApi.mutation("sites", "updateSitePublishingAuthById")
export const regeneratePublishingAuth = QuireApi.mutation("sites", "regenerateSitePublishingAuthById")
export const addSection = QuireApi.mutation("siteSections", "addSectionToSite")
export const updateSection = QuireApi.mutation("siteSections", "updateSiteSectionById")
export const deleteSection = QuireApi.mutation("siteSections", "deleteSiteSectionById")
export const moveSection = QuireApi.mutation("siteSections", "moveSiteSection")
export const addSiteSpace = QuireApi.mutation("siteSpaces", "addSpaceToSite")
export const deleteSiteSpace = QuireApi.mutation("siteSpaces", "deleteSiteSpaceById")
export const moveSiteSpace = QuireApi.mutation("siteSpaces", "moveSiteSpace")
export const addGroup = QuireApi.mutation("siteSectionGroups", "addSectionGroupToSite")
export const updateGroup = QuireApi.mutation("siteSectionGroups", "updateSiteSectionGroupById")
export const deleteGroup = QuireApi.mutation("siteSectionGroups", "deleteSiteSectionGroupById")
export const addSectionToGroup = QuireApi.mutation("siteSectionGroups", "addSectionToSiteSectionGroup")
export const removeSectionFromGroup = QuireApi.mutation("siteSectionGroups", "removeSectionFromSiteSectionGroup")
export const moveGroup = QuireApi.mutation("siteSectionGroups", "moveSiteSectionGroup")
export const deleteSite = QuireApi.mutation("sites", "deleteSiteById")
export const addExternalLink = QuireApi.mutation("siteStructureOps", "addExternalLinkToSite")
export const updateExternalLink = QuireApi.mutation("siteStructureOps", "updateSiteExternalLinkById")
export const deleteExternalLink = QuireApi.mutation("siteStructureOps", "deleteSiteExternalLinkById")
export const sortStructure = QuireApi.mutation("siteStructureOps", "sortSiteStructure")
export const overrideVariantLook = QuireApi.mutation("siteStructureOps", "overrideSiteSpaceCustomizationById")
export const resetVariantLook = QuireApi.mutation("siteStructureOps", "deleteSiteSpaceCustomizationById")
export const duplicateSiteSpace = QuireApi.mutation("siteStructureOps", "duplicateSiteSpace")
export const createChannel = QuireApi.mutation("siteStructureOps", "createSiteChannel")
export const updateChannel = QuireApi.mutation("siteStructureOps", "updateSiteChannelById")
export const deleteChannel = QuireApi.mutation("siteStructureOps", "deleteSiteChannelById")
export const updateAdaptiveSchema = QuireApi.mutation("sites", "updateSiteAdaptiveSchema")
export const createShareLink = QuireApi.mutation("siteShareLinks", "createSiteShareLink")
export const updateShareLink = QuireApi.mutation("siteShareLinks", "updateSiteShareLinkById")
export const deleteShareLink = QuireApi.mutation("siteShareLinks", "deleteSiteShareLinkById")

/**
 * A form's or a button's write: `busy` while it runs, its `problem` (the field it names and the
 * API's words) when refused. `run` resolves true when the write succeeded.
 */
export const useAction = () => {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const run = useCallback(async (write: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true)
    setProblem(undefined)
    try {
      await write()
      return true
    } catch (error) {
      setProblem(problemOf(error))
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  return { busy, problem, run, clear: useCallback(() => setProblem(undefined), []) }
}
