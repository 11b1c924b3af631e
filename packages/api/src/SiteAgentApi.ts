/**
 * What a site keeps for AI: the editing agent's settings (scans, findings, custom instructions) and
 * the MCP servers the site's assistant may call.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { FindingChangeRequests, maxMcpUrl, McpServerName, McpTransport, ScanTopics } from "@quire/sites/domain/Agent"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { EntityId, JSONDocument, ListOf, PageQuery, Text, Timestamp } from "./Schemas.ts"
import { siteParams } from "./SiteSchemas.ts"

/** GitBook's enums of the agent settings and MCP servers, defined once in the sites package. */
export const SiteSettingsScanTopics = ScanTopics.annotate({ identifier: "SiteSettingsScanTopics" })
export const SiteSettingsFindingChangeRequests = FindingChangeRequests.annotate({ identifier: "SiteSettingsFindingChangeRequests" })
export const SiteMcpServerTransport = McpTransport.annotate({ identifier: "SiteMcpServerTransport" })
export const SiteMcpServerName = McpServerName.check(Schema.makeFilter((s: string) => !s.includes("\u0000") || "must not contain the NUL character")).annotate({ identifier: "SiteMcpServerName" })

/** GitBook's `SiteAgentSettingsInput`: every setting, replaced whole. */
export const SiteAgentSettingsInput = Schema.Struct({
  scans: Schema.Struct({ topics: SiteSettingsScanTopics }),
  findings: Schema.Struct({ changeRequests: SiteSettingsFindingChangeRequests }),
  editing: Schema.Struct({ customInstructions: JSONDocument })
}).annotate({ identifier: "SiteAgentSettingsInput" })

/** GitBook's `SiteAgentSettings`. */
export const SiteAgentSettings = Schema.Struct({
  object: Schema.Literal("site-agent-settings"),
  /** Absent until an admin first changes the settings. */
  updatedAt: Schema.optionalKey(Timestamp),
  updatedBy: Schema.optionalKey(Schema.String),
  urls: Schema.Struct({ location: Schema.String }),
  scans: Schema.Struct({ topics: SiteSettingsScanTopics }),
  findings: Schema.Struct({ changeRequests: SiteSettingsFindingChangeRequests }),
  editing: Schema.Struct({ customInstructions: JSONDocument })
}).annotate({ identifier: "SiteAgentSettings" })
export type SiteAgentSettings = typeof SiteAgentSettings.Type

/** GitBook's `SiteMcpServerHeaders`: names to values of 1 to 512 characters (at most 20 headers). */
export const SiteMcpServerHeaders = Schema.Record(Text, Text.check(Schema.isMinLength(1), Schema.isMaxLength(512)))
  .annotate({ identifier: "SiteMcpServerHeaders" })

/** GitBook's `Expression` for an MCP server's condition: at most 1024 characters, `""` as none; its syntax is checked when stored. */
export const McpCondition = Text.check(Schema.isMaxLength(1024))

/** An MCP server's URL: http or https, at most 2048 characters. */
export const SiteMcpServerUrl = Text.check(Schema.isMaxLength(maxMcpUrl))

/** GitBook's `SiteMcpServer`; header values read back masked (`********`), never as stored. */
export const SiteMcpServer = Schema.Struct({
  object: Schema.Literal("site-mcp-server"),
  id: Schema.String,
  name: Schema.String,
  url: Schema.String,
  transport: SiteMcpServerTransport,
  headers: Schema.Record(Schema.String, Schema.String),
  condition: Schema.optionalKey(Schema.String),
  urls: Schema.Struct({ location: Schema.String }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "SiteMcpServer" })
export type SiteMcpServer = typeof SiteMcpServer.Type

/** DELETE of an MCP server: 205 when it was deleted, 204 when there was none (GitBook's answers). */
export const DeletedMcpServer = Schema.Literal("deleted").pipe(
  HttpApiSchema.asNoContent({ decode: () => "deleted" as const }),
  HttpApiSchema.status(205)
)
export const AbsentMcpServer = Schema.Literal("absent").pipe(
  HttpApiSchema.asNoContent({ decode: () => "absent" as const }),
  HttpApiSchema.status(204)
)

const prefix = "/orgs/:organizationId/sites/:siteId"
const serverParams = { ...siteParams, siteMcpServerId: EntityId } as const

export class SiteAgentSettingsApi extends HttpApiGroup.make("siteAgentSettings")
  .add(
    /** The site's agent settings (members who see the site). */
    HttpApiEndpoint.get("getSiteAgentSettingsById", `${prefix}/agent-settings`, {
      params: siteParams,
      success: SiteAgentSettings,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's agent settings",
        description: "What the editing agent is told about this site (its custom instructions) and how it treats findings: whether topics are scanned and which findings get a change request. Until an admin changes them: `auto`, `auto-fixable` and no instructions. Any member who sees the site may read them."
      })),
    /** Replaces the site's agent settings (site admins). */
    HttpApiEndpoint.put("updateSiteAgentSettingsById", `${prefix}/agent-settings`, {
      params: siteParams,
      payload: SiteAgentSettingsInput,
      success: SiteAgentSettings,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a site's agent settings",
        description: "Replaces every setting. The custom instructions are a JSON document of at most 100,000 characters of JSON and 20,000 of text; a malformed node answers 400 naming it. Needs the admin role on the site (organization admins have it)."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}

export class SiteMcpServersApi extends HttpApiGroup.make("siteMcpServers")
  .add(
    /** The site's MCP servers, oldest first. */
    HttpApiEndpoint.get("listSiteMcpServers", `${prefix}/mcp-servers`, {
      params: siteParams,
      query: PageQuery,
      success: ListOf(SiteMcpServer),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List a site's MCP servers",
        description: "The MCP servers the site's assistant may call, oldest first. Header names are answered, their values never: each reads `********`. Any member who sees the site may list them."
      })),
    /** Adds an MCP server (site admins). */
    HttpApiEndpoint.post("createSiteMcpServer", `${prefix}/mcp-servers`, {
      params: siteParams,
      payload: Schema.Struct({
        name: SiteMcpServerName,
        url: SiteMcpServerUrl,
        transport: Schema.optionalKey(SiteMcpServerTransport),
        headers: SiteMcpServerHeaders,
        condition: Schema.optionalKey(Schema.NullOr(McpCondition))
      }),
      success: SiteMcpServer.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Add an MCP server to a site",
        description: "Adds a server by name (1 to 100 characters), http(s) URL (at most 2048 characters, with no user or password; an address the server may not reach, private or loopback unless QUIRE_FETCH_ALLOW lists it, is refused), transport (`sse` unless given), headers (at most 20, each value 1 to 512 characters; stored sealed, never answered) and an optional condition on `visitor.claims`. At most 50 servers a site. Needs the admin role on the site."
      })),
    /** One MCP server of the site. */
    HttpApiEndpoint.get("getSiteMcpServerById", `${prefix}/mcp-servers/:siteMcpServerId`, {
      params: serverParams,
      success: SiteMcpServer,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a site's MCP server",
        description: "One MCP server of the site, its header values masked."
      })),
    /** Changes the fields given (site admins). */
    HttpApiEndpoint.patch("updateSiteMcpServerById", `${prefix}/mcp-servers/:siteMcpServerId`, {
      params: serverParams,
      payload: Schema.Struct({
        name: Schema.optionalKey(SiteMcpServerName),
        url: Schema.optionalKey(SiteMcpServerUrl),
        transport: Schema.optionalKey(SiteMcpServerTransport),
        headers: Schema.optionalKey(SiteMcpServerHeaders),
        condition: Schema.optionalKey(Schema.NullOr(McpCondition))
      }),
      success: SiteMcpServer,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a site's MCP server",
        description: "Changes only the fields given; `condition: null` removes the condition. `headers` replaces every header: a header sent with the value `********` (as read) keeps its stored value. Needs the admin role on the site."
      })),
    /** Removes an MCP server: 205 when it was removed, 204 when there was none. */
    HttpApiEndpoint.delete("deleteSiteMcpServerById", `${prefix}/mcp-servers/:siteMcpServerId`, {
      params: serverParams,
      success: [DeletedMcpServer, AbsentMcpServer],
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Remove a site's MCP server",
        description: "Removes the server: 205 when it was removed, 204 when it did not exist. Needs the admin role on the site."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
