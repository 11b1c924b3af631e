/**
 * Use cases on what a site keeps for AI: its agent settings (GitBook's scans, findings and the
 * editing agent's custom instructions) and the MCP servers its assistant may call. Members of the
 * organization who see the site read them; site admins (and organization admins) change them.
 * MCP headers are sealed at rest and never answered: their values read back as `maskedHeaderValue`.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type AuditPayload, AuditLog, caller as auditCaller } from "@quire/audit"
import { type Actor, Errors, Ids, Pagination, Sealed, Transactor } from "@quire/kernel"
import { OutboundFetch } from "@quire/outbound"
import {
  type FindingChangeRequests,
  maxMcpServers,
  type McpTransport,
  type ScanTopics,
  type SiteAgentSettingsRecord,
  type SiteMcpServer
} from "../domain/Agent.ts"
import type { Site } from "../domain/Site.ts"
import * as SiteGuard from "../SiteGuard.ts"
import * as AgentDocuments from "./AgentDocuments.ts"
import * as McpServerChecks from "./McpServerChecks.ts"
import { mcpServerKeyShape, SiteAgentRepo } from "./SiteAgentRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** GitBook's `SiteAgentSettingsInput`: every setting, replaced whole. */
export interface SiteAgentSettingsInput {
  readonly scans: { readonly topics: ScanTopics }
  readonly findings: { readonly changeRequests: FindingChangeRequests }
  readonly editing: { readonly customInstructions: unknown }
}

export interface McpServerInput {
  readonly name: string
  readonly url: string
  readonly transport?: McpTransport | undefined
  readonly headers: Readonly<Record<string, string>>
  readonly condition?: string | null | undefined
}

/** Only the fields given change; `condition: null` removes the condition. */
export interface McpServerUpdate {
  readonly name?: string | undefined
  readonly url?: string | undefined
  readonly transport?: McpTransport | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly condition?: string | null | undefined
}

/**
 * What a header's value reads as: never the value itself. Sent back unchanged in an update, it keeps
 * the stored value of that header, so that a client that writes back what it read loses no secret.
 */
export const maskedHeaderValue = "********"

/** The purpose of the key that seals MCP headers. */
export const headersPurpose = "quire/sites/mcp-headers/v1"

export interface SiteAgentsShape {
  readonly settings: (organizationId: string, siteId: string) => Effect.Effect<SiteAgentSettingsRecord, Errors.NotFound, Actor.Actor>
  /** Replaces the settings (site admins); InvalidInput naming the field. */
  readonly updateSettings: (organizationId: string, siteId: string, input: SiteAgentSettingsInput) => Effect.Effect<SiteAgentSettingsRecord, Denied | Errors.InvalidInput, Actor.Actor>
  readonly listMcpServers: (organizationId: string, siteId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SiteMcpServer>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly getMcpServer: (organizationId: string, siteId: string, serverId: string) => Effect.Effect<SiteMcpServer, Errors.NotFound, Actor.Actor>
  readonly createMcpServer: (organizationId: string, siteId: string, input: McpServerInput) => Effect.Effect<SiteMcpServer, Denied | Errors.InvalidInput, Actor.Actor>
  readonly updateMcpServer: (organizationId: string, siteId: string, serverId: string, update: McpServerUpdate) => Effect.Effect<SiteMcpServer, Denied | Errors.InvalidInput, Actor.Actor>
  /** Answers whether there was such a server to remove. */
  readonly removeMcpServer: (organizationId: string, siteId: string, serverId: string) => Effect.Effect<boolean, Errors.Forbidden, Actor.Actor>
  /** The headers of a server with their values (for whatever calls the server; never for an answer). */
  readonly headersOf: (server: SiteMcpServer) => Option.Option<Readonly<Record<string, string>>>
}

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

/** Why `url` cannot be an MCP server's URL, before the outbound guard looks at its host. */
export const mcpUrlProblem = McpServerChecks.urlProblem

export class SiteAgents extends Context.Service<SiteAgents, SiteAgentsShape>()("@quire/sites/SiteAgents") {
  static readonly layer = Layer.effect(
    SiteAgents,
    Effect.gen(function*() {
      const guard = yield* SiteGuard.make
      const repo = yield* SiteAgentRepo
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const audit = yield* AuditLog
      const outbound = yield* OutboundFetch
      const key = yield* Sealed.keyFor(headersPurpose)
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const record = Effect.fnUntraced(function*(site: Site, action: "site.agent-settings-changed" | "site.mcp-server-added" | "site.mcp-server-changed" | "site.mcp-server-removed", payload: AuditPayload) {
        yield* audit.record({ organizationId: site.organizationId, action, actor: yield* auditCaller, target: { type: "site", id: site.id, label: site.title }, payload })
      })

      const headersOf = (server: SiteMcpServer) =>
        Option.flatMap(Sealed.open(key, server.sealedHeaders), (json) => {
          try {
            return Option.some(JSON.parse(json) as Readonly<Record<string, string>>)
          } catch {
            return Option.none()
          }
        })

      /** The headers to store: checked; a masked value keeps what `before` holds for that header. */
      const checkedHeaders = (headers: Readonly<Record<string, string>>, before: SiteMcpServer | undefined) =>
        McpServerChecks.headers(headers, before === undefined ? undefined : Option.getOrElse(headersOf(before), () => ({})), maskedHeaderValue)

      const checkedUrl = (url: string) => McpServerChecks.url(outbound, url)

      const serverOf = Effect.fnUntraced(function*(siteId: string, serverId: string) {
        const found = yield* repo.findMcpServer(serverId)
        if (Option.isNone(found) || found.value.siteId !== siteId) return yield* new Errors.NotFound({ resource: "SiteMcpServer", id: serverId })
        return found.value
      })

      const seal = (headers: ReadonlyArray<[string, string]>) => Sealed.seal(key, JSON.stringify(Object.fromEntries(headers)))

      const settings = Effect.fn("SiteAgents.settings")(function*(organizationId: string, siteId: string) {
        yield* guard.site(organizationId, siteId)
        return yield* repo.settings(siteId)
      })

      const updateSettings = Effect.fn("SiteAgents.updateSettings")(function*(organizationId: string, siteId: string, input: SiteAgentSettingsInput) {
        const { site } = yield* guard.manager(organizationId, siteId, "change this site's agent settings")
        const customInstructions = yield* AgentDocuments.check(input.editing.customInstructions, "editing.customInstructions")
        const before = yield* repo.settings(siteId)
        const next: SiteAgentSettingsRecord = {
          scans: { topics: input.scans.topics },
          findings: { changeRequests: input.findings.changeRequests },
          editing: { customInstructions },
          updatedAt: yield* now,
          updatedBy: (yield* auditCaller).id
        }
        const fields = (["scans", "findings", "editing"] as const).filter((field) => JSON.stringify(before[field]) !== JSON.stringify(next[field]))
        // Saving the same settings again changes nothing, not even who saved them last.
        if (fields.length === 0) return before
        yield* repo.putSettings(siteId, next)
        yield* record(site, "site.agent-settings-changed", { fields: fields.join(",") })
        return next
      }, transactor.transaction)

      const listMcpServers = Effect.fn("SiteAgents.listMcpServers")(function*(organizationId: string, siteId: string, page: Pagination.PageRequest) {
        yield* guard.site(organizationId, siteId)
        const after = yield* Pagination.afterOf(page, mcpServerKeyShape)
        return yield* repo.listMcpServers(siteId, after, Pagination.limitOf(page))
      })

      const getMcpServer = Effect.fn("SiteAgents.getMcpServer")(function*(organizationId: string, siteId: string, serverId: string) {
        yield* guard.site(organizationId, siteId)
        return yield* serverOf(siteId, serverId)
      })

      const what = "change this site's MCP servers"

      const createMcpServer = Effect.fn("SiteAgents.createMcpServer")(function*(organizationId: string, siteId: string, input: McpServerInput) {
        const { site } = yield* guard.manager(organizationId, siteId, what)
        yield* McpServerChecks.name(input.name)
        yield* checkedUrl(input.url)
        const headers = yield* checkedHeaders(input.headers, undefined)
        const condition = yield* McpServerChecks.condition(input.condition)
        if ((yield* repo.countMcpServers(siteId)) >= maxMcpServers) return yield* bad("url", `a site has at most ${maxMcpServers} MCP servers`)
        const at = yield* now
        const server: SiteMcpServer = {
          id: yield* ids.make,
          siteId,
          name: input.name,
          url: input.url,
          transport: input.transport ?? "sse",
          headerNames: headers.map(([name]) => name),
          sealedHeaders: seal(headers),
          condition: condition ?? null,
          createdAt: at,
          updatedAt: at
        }
        yield* repo.insertMcpServer(server)
        yield* record(site, "site.mcp-server-added", { server: server.id, name: server.name, url: server.url })
        return server
      }, transactor.transaction)

      const updateMcpServer = Effect.fn("SiteAgents.updateMcpServer")(function*(organizationId: string, siteId: string, serverId: string, update: McpServerUpdate) {
        const { site } = yield* guard.manager(organizationId, siteId, what)
        const before = yield* serverOf(siteId, serverId)
        if (update.name !== undefined) yield* McpServerChecks.name(update.name)
        if (update.url !== undefined) yield* checkedUrl(update.url)
        const headers = update.headers === undefined ? undefined : yield* checkedHeaders(update.headers, before)
        const condition = yield* McpServerChecks.condition(update.condition)
        const next: SiteMcpServer = {
          ...before,
          ...(update.name === undefined ? {} : { name: update.name }),
          ...(update.url === undefined ? {} : { url: update.url }),
          ...(update.transport === undefined ? {} : { transport: update.transport }),
          ...(headers === undefined ? {} : { headerNames: headers.map(([name]) => name), sealedHeaders: seal(headers) }),
          ...(condition === undefined ? {} : { condition })
        }
        const headersChanged = headers !== undefined &&
          JSON.stringify(headers) !== JSON.stringify(Object.entries(Option.getOrElse(headersOf(before), () => ({}))))
        const fields = [
          ...(["name", "url", "transport", "condition"] as const).filter((field) => before[field] !== next[field]),
          ...(headersChanged ? ["headers"] : [])
        ]
        if (fields.length === 0) return before
        const updated = { ...next, updatedAt: yield* now }
        yield* repo.updateMcpServer(updated)
        yield* record(site, "site.mcp-server-changed", { server: serverId, name: updated.name, url: updated.url, fields: fields.join(",") })
        return updated
      }, transactor.transaction)

      const removeMcpServer = Effect.fn("SiteAgents.removeMcpServer")(function*(organizationId: string, siteId: string, serverId: string) {
        return yield* Effect.catchIf(
          Effect.gen(function*() {
            const { site } = yield* guard.manager(organizationId, siteId, what)
            const found = yield* repo.findMcpServer(serverId)
            if (Option.isNone(found) || found.value.siteId !== siteId) return false
            yield* repo.removeMcpServer(serverId)
            yield* record(site, "site.mcp-server-removed", { server: serverId, name: found.value.name, url: found.value.url })
            return true
          }),
          (e): e is Errors.NotFound => e instanceof Errors.NotFound,
          () => Effect.succeed(false)
        )
      }, transactor.transaction)

      return SiteAgents.of({ settings, updateSettings, listMcpServers, getMcpServer, createMcpServer, updateMcpServer, removeMcpServer, headersOf })
    })
  )
}
