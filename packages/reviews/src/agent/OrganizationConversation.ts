/** A member's conversation with the organization's agent (GitBook's organization `AgentConversation`), and its messages. */

/** A page an answer stands on. */
export interface OrganizationAgentSource {
  readonly spaceId: string
  readonly pageId: string
  readonly title: string
  /** The page in the app (`/s/<space>/<path>#<section>`). */
  readonly path: string
}

/** One message: the member's words, or the agent's answer with the pages it stands on. */
export interface OrganizationAgentMessage {
  readonly role: "user" | "agent"
  readonly text: string
  readonly at: string
  /** For the agent's: whether a model wrote it (else it is the passages found). */
  readonly byModel?: boolean | undefined
  readonly sources?: ReadonlyArray<OrganizationAgentSource> | undefined
  /** For the agent's: the change request it opened and wrote the edit asked for in. */
  readonly changeRequest?: { readonly spaceId: string; readonly changeRequestId: string; readonly number: number; readonly subject: string } | undefined
}

export interface OrganizationConversation {
  readonly organizationId: string
  /** The member it belongs to: no one else sees it. */
  readonly userId: string
  /** The client's id. */
  readonly id: string
  readonly title: string | undefined
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly messages: ReadonlyArray<OrganizationAgentMessage>
}
