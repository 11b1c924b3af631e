/**
 * The OpenAPI specs screens' queries and writes. Reactivity keys: `specs:<org>` (the list) and
 * `spec:<org>/<slug>` (a spec, its versions and what its latest version holds).
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const specsKey = (organizationId: string) => `specs:${organizationId}`
export const specKey = (organizationId: string, slug: string) => `spec:${organizationId}/${slug}`

/** `<org>\n<slug>`: the family key of a spec's atoms. */
export const specRef = (organizationId: string, slug: string) => `${organizationId}\n${slug}`
const paramsOf = (ref: string) => {
  const [organizationId = "", specSlug = ""] = ref.split("\n")
  return { organizationId, specSlug }
}

export const specsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("openAPISpecs", "listOpenAPISpecs", { params: { organizationId }, query: { limit: 100 }, reactivityKeys: [specsKey(organizationId)] }))

export const specAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("openAPISpecs", "getOpenAPISpecBySlug", { params, reactivityKeys: [specKey(params.organizationId, params.specSlug)] })
})

export const versionsAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("openAPISpecs", "listOpenAPISpecVersions", { params, query: { limit: 50 }, reactivityKeys: [specKey(params.organizationId, params.specSlug)] })
})

/** The latest version's files (its operations are listed from the entry document). */
export const latestContentAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("openAPISpecs", "getLatestOpenAPISpecVersionContent", { params, reactivityKeys: [specKey(params.organizationId, params.specSlug)] })
})

/** The pages of the organization's sites that show the spec (Quire's `listOpenAPISpecUsages`). */
export const usagesAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("openAPISpecs", "listOpenAPISpecUsages", { params, reactivityKeys: [specKey(params.organizationId, params.specSlug)] })
})

export const createSpec = QuireApi.mutation("openAPISpecs", "createOpenAPISpec")
export const replaceSpec = QuireApi.mutation("openAPISpecs", "createOrUpdateOpenAPISpecBySlug")
export const updateSpec = QuireApi.mutation("openAPISpecs", "updateOpenAPISpecBySlug")
export const deleteSpec = QuireApi.mutation("openAPISpecs", "deleteOpenAPISpecBySlug")
