/**
 * What a site keeps for AI: the settings GitBook's editing agent reads (scans, findings, custom
 * instructions) and the MCP servers its assistant may call. Literal sets and field rules here; the
 * API's schemas reuse them.
 */
import { Schema } from "effect"

/** GitBook's `SiteSettingsScanTopics`: whether topics are scanned for findings. */
export const ScanTopics = Schema.Literals(["auto", "never"])
export type ScanTopics = typeof ScanTopics.Type

/** GitBook's `SiteSettingsFindingChangeRequests`: which findings get a change request proposing a fix. */
export const FindingChangeRequests = Schema.Literals(["always", "auto-fixable", "never"])
export type FindingChangeRequests = typeof FindingChangeRequests.Type

/** GitBook's `SiteMcpServerTransport`. */
export const McpTransport = Schema.Literals(["sse", "http"])
export type McpTransport = typeof McpTransport.Type

/** GitBook's `SiteMcpServerName`. */
export const McpServerName = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))

/** The longest MCP server URL (GitBook's `URL`). */
export const maxMcpUrl = 2048
/** The longest value of one header (GitBook's `SiteMcpServerHeaders`). */
export const maxHeaderValue = 512
/** How many headers one server may send: GitBook sets no count, a bound keeps the sealed record small. */
export const maxHeaders = 20
/** The longest header name. */
export const maxHeaderName = 256
/** The most MCP servers one site keeps. */
export const maxMcpServers = 50

/** A JSON document as GitBook's API carries it (`JSONDocument`); its nodes are checked where it enters. */
export interface AgentDocument {
  readonly object: "document"
  readonly data: Readonly<Record<string, unknown>>
  readonly nodes: ReadonlyArray<unknown>
}

/** A document without blocks: instructions nobody wrote. */
export const emptyDocument: AgentDocument = { object: "document", data: {}, nodes: [] }

/** A site's agent settings. */
export interface SiteAgentSettings {
  readonly scans: { readonly topics: ScanTopics }
  readonly findings: { readonly changeRequests: FindingChangeRequests }
  readonly editing: { readonly customInstructions: AgentDocument }
}

/** The settings as stored, with who changed them last (null until someone does). */
export interface SiteAgentSettingsRecord extends SiteAgentSettings {
  readonly updatedAt: Date | null
  readonly updatedBy: string | null
}

/**
 * A site's settings until an admin changes them: topics scanned, change requests for findings the
 * agent can fix, no instructions (GitBook's automatic docs improvements behave so by default).
 */
export const defaultAgentSettings: SiteAgentSettingsRecord = {
  scans: { topics: "auto" },
  findings: { changeRequests: "auto-fixable" },
  editing: { customInstructions: emptyDocument },
  updatedAt: null,
  updatedBy: null
}

/** An MCP server of a site as stored: its headers sealed (they often carry tokens), their names in clear. */
export interface SiteMcpServer {
  readonly id: string
  readonly siteId: string
  readonly name: string
  readonly url: string
  readonly transport: McpTransport
  /** The names of the headers sent, in the order given. */
  readonly headerNames: ReadonlyArray<string>
  /** The headers (names and values) as JSON, sealed under the instance secret. */
  readonly sealedHeaders: string
  readonly condition: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}
