/** A site's "AI & MCP" settings: the editing agent's settings and the assistant's MCP servers. */
import type { Site } from "@quire/api"
import { McpServers } from "./McpServers.tsx"
import { SiteAgentSettings } from "./SiteAgentSettings.tsx"
import "./agents.css"

export const SiteAgent = (props: { readonly organizationId: string; readonly site: Site }) => (
  <section className="site-agent" aria-labelledby="site-agent-heading">
    <h3 id="site-agent-heading" className="site-agent-heading">AI &amp; MCP</h3>
    <SiteAgentSettings organizationId={props.organizationId} site={props.site} />
    <McpServers organizationId={props.organizationId} site={props.site} />
  </section>
)
