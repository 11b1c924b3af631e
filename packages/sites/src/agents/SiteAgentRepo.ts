/** Port: each site's agent settings and MCP servers. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import { defaultAgentSettings, type SiteAgentSettingsRecord, type SiteMcpServer } from "../domain/Agent.ts"

export interface SiteAgentRepoShape {
  /** The site's agent settings; the defaults (`updatedAt` null) until they are first stored. */
  readonly settings: (siteId: string) => Effect.Effect<SiteAgentSettingsRecord>
  readonly putSettings: (siteId: string, settings: SiteAgentSettingsRecord) => Effect.Effect<void>
  /** The site's MCP servers, oldest first, keyed by `mcpServerKey`. */
  readonly listMcpServers: (siteId: string, after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<SiteMcpServer>>
  readonly countMcpServers: (siteId: string) => Effect.Effect<number>
  readonly findMcpServer: (serverId: string) => Effect.Effect<Option.Option<SiteMcpServer>>
  readonly insertMcpServer: (server: SiteMcpServer) => Effect.Effect<void>
  /** Replaces the stored server of the same id (nothing when there is none). */
  readonly updateMcpServer: (server: SiteMcpServer) => Effect.Effect<void>
  /** Answers whether there was one to remove. */
  readonly removeMcpServer: (serverId: string) => Effect.Effect<boolean>
  /** Forgets the site's settings and servers (the site is deleted). */
  readonly removeSite: (siteId: string) => Effect.Effect<void>
}

/** Sort key of a site's MCP servers: oldest first. */
export const mcpServerKey = (s: SiteMcpServer): Pagination.CursorKey => [s.createdAt.toISOString(), s.id]
export const mcpServerKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export class SiteAgentRepo extends Context.Service<SiteAgentRepo, SiteAgentRepoShape>()("@quire/sites/SiteAgentRepo") {
  static readonly layerMemory = Layer.sync(SiteAgentRepo, () => {
    const settings = new MemoryStore.TxMap<string, SiteAgentSettingsRecord>()
    const servers = new MemoryStore.TxMap<string, SiteMcpServer>()
    const ofSite = (siteId: string) => Array.from(servers.values()).filter((s) => s.siteId === siteId)
    return SiteAgentRepo.of({
      settings: (siteId) => Effect.sync(() => settings.get(siteId) ?? defaultAgentSettings),
      putSettings: (siteId, record) => Effect.sync(() => void settings.set(siteId, record)),
      listMcpServers: (siteId, after, limit) =>
        Effect.suspend(() => Pagination.paginateArray(ofSite(siteId), mcpServerKey, { order: "asc", after, limit })),
      countMcpServers: (siteId) => Effect.sync(() => ofSite(siteId).length),
      findMcpServer: (serverId) => Effect.sync(() => Option.fromNullishOr(servers.get(serverId))),
      insertMcpServer: (server) => Effect.sync(() => void servers.set(server.id, server)),
      updateMcpServer: (server) =>
        Effect.sync(() => {
          if (servers.has(server.id)) servers.set(server.id, server)
        }),
      removeMcpServer: (serverId) => Effect.sync(() => servers.delete(serverId)),
      removeSite: (siteId) =>
        Effect.sync(() => {
          settings.delete(siteId)
          for (const s of ofSite(siteId)) servers.delete(s.id)
        })
    })
  })
}
