/**
 * Style guides' queries and writes. Reactivity key: `styleguide:<site>` (a site's guide, its runs
 * and their findings); a check of a change request also refreshes `cr:<id>` comments (review/queries).
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const styleguideKey = (siteId: string) => `styleguide:${siteId}`

const paramsOf = (ref: string) => {
  const [organizationId = "", siteId = ""] = ref.split("\n")
  return { organizationId, siteId }
}

export const templatesAtom = Atom.family((organizationId: string) =>
  QuireApi.query("styleguides", "listStyleguideTemplates", { params: { organizationId } }))

/** The organization's guides and the sites using them (a site without a guide is in none: no 404 to ask for it). */
export const orgStyleguidesAtom = Atom.family((organizationId: string) =>
  QuireApi.query("styleguides", "listOrganizationStyleguides", { params: { organizationId }, reactivityKeys: [`styleguides:${organizationId}`] }))

/** Key: `<org>\n<site>` (sites' `siteRef`). */
export const styleguideAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("styleguides", "getSiteStyleguide", { params, reactivityKeys: [styleguideKey(params.siteId)] })
})

/** Key: `<org>\n<site>`: the latest 20 runs. */
export const runsAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("styleguides", "listSiteStyleguideRuns", { params, query: { limit: 20 }, reactivityKeys: [styleguideKey(params.siteId)] })
})

/** Key: `<org>\n<site>\n<run>`: the run's findings (at most 100 shown). */
export const findingsAtom = Atom.family((key: string) => {
  const [organizationId = "", siteId = "", runId = ""] = key.split("\n")
  return QuireApi.query("styleguides", "listSiteStyleguideRunFindings", { params: { organizationId, siteId, runId }, query: { limit: 100 }, reactivityKeys: [styleguideKey(siteId)] })
})

export const createStyleguide = QuireApi.mutation("styleguides", "createSiteStyleguideById")
export const startRun = QuireApi.mutation("styleguides", "createSiteStyleguideRun")
export const checkChangeRequest = QuireApi.mutation("styleguides", "checkChangeRequestStyle")
