/** Handlers of the site MCP servers group. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { maskedHeaderValue, SiteAgents, type SiteMcpServer } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"

export const layer = HttpApiBuilder.group(Api, "siteMcpServers", Effect.fn(function*(handlers) {
  const agents = yield* SiteAgents
  const urls = yield* PublicUrl

  /** GitBook's `SiteMcpServer`: the headers' names, each value masked. */
  const present = (organizationId: string) => (s: SiteMcpServer) => ({
    object: "site-mcp-server" as const,
    id: s.id,
    name: s.name,
    url: s.url,
    transport: s.transport,
    headers: Object.fromEntries(s.headerNames.map((name) => [name, maskedHeaderValue])),
    ...(s.condition === null ? {} : { condition: s.condition }),
    urls: { location: urls.api(`/orgs/${organizationId}/sites/${s.siteId}/mcp-servers/${s.id}`) },
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString()
  })

  return handlers
    .handle("listSiteMcpServers", ({ params, query }) =>
      agents.listMcpServers(params.organizationId, params.siteId, query).pipe(
        DomainErrors.api,
        Effect.map((page) => Presenters.list(page, present(params.organizationId)))
      ))
    .handle("createSiteMcpServer", ({ params, payload }) =>
      agents.createMcpServer(params.organizationId, params.siteId, payload).pipe(DomainErrors.api, Effect.map(present(params.organizationId))))
    .handle("getSiteMcpServerById", ({ params }) =>
      agents.getMcpServer(params.organizationId, params.siteId, params.siteMcpServerId).pipe(DomainErrors.api, Effect.map(present(params.organizationId))))
    .handle("updateSiteMcpServerById", ({ params, payload }) =>
      agents.updateMcpServer(params.organizationId, params.siteId, params.siteMcpServerId, payload).pipe(
        DomainErrors.api,
        Effect.map(present(params.organizationId))
      ))
    .handle("deleteSiteMcpServerById", ({ params }) =>
      agents.removeMcpServer(params.organizationId, params.siteId, params.siteMcpServerId).pipe(
        DomainErrors.api,
        Effect.map((deleted) => (deleted ? "deleted" as const : "absent" as const))
      ))
}))
