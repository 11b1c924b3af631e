/**
 * The insights screen's "Agents' feedback": what AI agents reported about the site (GitBook's
 * `submitAgentFeedbackToSite`, the site MCP server's `sendFeedback`), newest first, beside the
 * readers' ratings; each with a change request on the page it names, else in the site's first space.
 */
import type { AgentFeedbackItem } from "@quire/api"
import { OpenChangeRequest } from "./OpenChangeRequest.tsx"
import { PageName } from "./PageName.tsx"
import { Part } from "./Part.tsx"
import { type Insights as Data, type PageInfo, pageAt } from "./queries.ts"

const categories: Readonly<Record<AgentFeedbackItem["feedback"]["category"], string>> = {
  usability: "Usability",
  reliability: "Reliability",
  documentation: "Documentation",
  efficiency: "Efficiency",
  interoperability: "Interoperability",
  "could-not-accomplish": "Could not accomplish"
}

/** What the feedback is about, in words, when it is not a page of the site. */
const subjectOf = (subject: AgentFeedbackItem["subject"]): string | undefined => {
  switch (subject.kind) {
    case "mcp-tool":
      return `the MCP tool ${subject.toolName}`
    case "cli-command":
      return `the command ${subject.command}`
    case "api-endpoint":
      return `${subject.method} ${subject.path}`
    case "documentation":
      return subject.url
    case "generic":
      return undefined
  }
}

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" })

const Item = (props: { readonly item: AgentFeedbackItem; readonly page: PageInfo | undefined; readonly firstSpace: PageInfo | undefined }) => {
  const { item, page } = props
  const { feedback } = item
  const about = subjectOf(item.subject)
  const agent = item.reportedBy?.model ?? item.reportedBy?.userAgent
  const space = page ?? props.firstSpace
  return (
    <li className="insights-agent">
      <span className="insights-agent-head">
        <span className={`agent-category severity-${feedback.severity ?? "none"}`}>
          {categories[feedback.category]}{feedback.severity === undefined ? "" : ` · ${feedback.severity}`}
        </span>
        <strong>{feedback.summary}</strong>
      </span>
      <span className="muted insights-agent-meta">
        {page !== undefined ? <>On <PageName page={page} fallback="" /></> : about === undefined ? "About the site" : <>About <code>{about}</code></>}
        {` · ${dateOf(item.createdAt)}`}{agent === undefined ? "" : ` · ${agent}`}
      </span>
      {feedback.detail === undefined ? null : <p className="insights-agent-detail">{feedback.detail}</p>}
      {feedback.workaround === undefined ? null : <p className="insights-agent-detail"><span className="muted">Workaround:</span> {feedback.workaround}</p>}
      {space === undefined ? null : (
        <OpenChangeRequest
          spaceId={space.spaceId}
          pagePath={page?.path}
          subject={`Agent feedback: ${feedback.summary}`}
          about={page === undefined ? `for the agent feedback “${feedback.summary}”` : `on the page “${page.title}” for the agent feedback`}
        />
      )}
    </li>
  )
}

export const AgentFeedback = (props: { readonly data: Data; readonly firstSpace: PageInfo | undefined }) => (
  <Part id="insights-agents" title="Agents’ feedback" empty="No AI agent has reported anything." count={props.data.agentFeedback.length}>
    <ul className="insights-list">
      {props.data.agentFeedback.map((item) => (
        <Item
          key={item.id}
          item={item}
          page={item.subject.kind === "documentation" ? pageAt(props.data.pages, item.subject.url) : undefined}
          firstSpace={props.firstSpace}
        />
      ))}
    </ul>
  </Part>
)
