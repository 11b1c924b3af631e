/**
 * The agent settings' queries and writes. Reactivity keys: `agent-instructions:<org>` (the
 * organization's instructions), `site-agent:<site>` (a site's agent settings and MCP servers).
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const instructionsKey = (organizationId: string) => `agent-instructions:${organizationId}`
export const siteAgentKey = (siteId: string) => `site-agent:${siteId}`

const paramsOf = (ref: string) => {
  const [organizationId = "", siteId = ""] = ref.split("\n")
  return { organizationId, siteId }
}

export const instructionsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("agentInstructions", "getOrganizationAgentInstructions", { params: { organizationId }, reactivityKeys: [instructionsKey(organizationId)] }))

/** Key: `<org>\n<site>` (sites' `siteRef`). */
export const agentSettingsAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("siteAgentSettings", "getSiteAgentSettingsById", { params, reactivityKeys: [siteAgentKey(params.siteId)] })
})

/** Key: `<org>\n<site>`; a site keeps at most 50 servers, so one page holds them. */
export const mcpServersAtom = Atom.family((ref: string) => {
  const params = paramsOf(ref)
  return QuireApi.query("siteMcpServers", "listSiteMcpServers", { params, query: { limit: 100 }, reactivityKeys: [siteAgentKey(params.siteId)] })
})

export const updateInstructions = QuireApi.mutation("agentInstructions", "updateOrganizationAgentInstructions")
export const updateAgentSettings = QuireApi.mutation("siteAgentSettings", "updateSiteAgentSettingsById")
export const createMcpServer = QuireApi.mutation("siteMcpServers", "createSiteMcpServer")
export const updateMcpServer = QuireApi.mutation("siteMcpServers", "updateSiteMcpServerById")
export const deleteMcpServer = QuireApi.mutation("siteMcpServers", "deleteSiteMcpServerById")
