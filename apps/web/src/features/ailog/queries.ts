/** The organization's AI log (reactivity key `ai-log:<org>`): its model calls, newest first, by `{organizationId, conversation, page}`. */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export interface CallsRequest {
  readonly organizationId: string
  readonly conversation: string
  readonly page: string | undefined
}

export const callsAtom = Atom.family((key: string) => {
  const { organizationId, conversation, page } = JSON.parse(key) as CallsRequest
  return QuireApi.query("aiLog", "listOrganizationAiCalls", {
    params: { organizationId },
    query: { limit: 20, ...(conversation === "" ? {} : { conversation }), ...(page === undefined ? {} : { page }) },
    reactivityKeys: [`ai-log:${organizationId}`]
  })
})
