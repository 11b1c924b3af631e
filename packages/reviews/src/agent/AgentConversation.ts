/** The agent's conversation in a change request, and its messages. */

/** One message: the person's words, or the agent's answer with the edits it made for it. */
export interface AgentMessage {
  readonly role: "user" | "agent"
  readonly text: string
  /** Who wrote it (the person; for the agent's, the person it answered). */
  readonly userId: string
  readonly at: string
  /** The agent's edits for this answer: the pages it wrote or added. */
  readonly edits?: ReadonlyArray<AgentEdit> | undefined
}

export interface AgentEdit {
  readonly kind: "created" | "updated"
  readonly pageId: string
  readonly title: string
}

export interface AgentConversation {
  readonly spaceId: string
  readonly changeRequestId: string
  /** The client's id (GitBook's: "default" for a change request's default conversation). */
  readonly id: string
  readonly title: string | undefined
  readonly shared: boolean
  readonly createdBy: string
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly messages: ReadonlyArray<AgentMessage>
}

/** The bounds a conversation keeps (the migration's CHECKs restate them). */
export const conversationBounds = { id: 100, title: 200, messages: 400, message: 8_000 } as const
