/** Pages' freshness (reactivity key `freshness:<space or org>`), by `{scope, id, state, owner}`. */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export type FreshnessFilter = "all" | "stale" | "unverified" | "mine" | "unowned"

export interface FreshnessRequest {
  readonly id: string
  readonly filter: FreshnessFilter
}

const queryOf = (filter: FreshnessFilter) =>
  filter === "stale" || filter === "unverified" ? { state: filter } : filter === "mine" ? { owner: "me" as const } : filter === "unowned" ? { owner: "none" as const } : {}

export const spaceFreshnessAtom = Atom.family((key: string) => {
  const { id, filter } = JSON.parse(key) as FreshnessRequest
  return QuireApi.query("freshness", "getSpaceFreshness", { params: { spaceId: id }, query: queryOf(filter), reactivityKeys: [`freshness:${id}`, `space:${id}`] })
})

export const organizationFreshnessAtom = Atom.family((key: string) => {
  const { id, filter } = JSON.parse(key) as FreshnessRequest
  return QuireApi.query("freshness", "getOrganizationFreshness", { params: { organizationId: id }, query: queryOf(filter), reactivityKeys: [`freshness:${id}`, `org:${id}`] })
})
