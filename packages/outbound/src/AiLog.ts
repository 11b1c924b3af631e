/**
 * What the model was asked and answered, kept for the organization's admins: each call of a model
 * made on an organization's behalf, with its prompt (the system instructions, the retrieved
 * passages and the history it was sent), the tools it was offered, the tool calls and text it
 * answered, its tokens, and the conversation it was part of. Callers name the conversation with
 * `forConversation` around their model calls, as they name the organization with
 * `AiOrganization`; the model adapters (OpenAiCompatible's LanguageModel, the Ask model) record
 * each call when an AiLog is provided. A call for no organization is not recorded.
 */
import { Clock, Context, Effect } from "effect"
import { AiOrganization } from "./AiBudget.ts"

export interface AiLogMessage {
  readonly role: string
  readonly content: string
}

export interface AiLogCall {
  readonly name: string
  readonly params: unknown
}

/** One call of a model, as the adapter saw it. */
export interface AiLogEntry {
  readonly organizationId: string
  /** The conversation the call was part of (an agent's, a change request's), none for a one-off call. */
  readonly conversationId: string | null
  /** What the call was for: `organization-agent`, `change-request-agent`, `compose`, `agent-task`, `site-ask`, `styleguide`, or `ask` (the organization's Ask, and any other). */
  readonly purpose: string
  readonly model: string
  readonly prompt: ReadonlyArray<AiLogMessage>
  readonly tools: ReadonlyArray<string>
  readonly answer: string
  readonly toolCalls: ReadonlyArray<AiLogCall>
  readonly tokens: number
  /** Why the call failed, when it did. */
  readonly failure: string | null
  readonly at: Date
}

export interface AiLogShape {
  readonly record: (entry: AiLogEntry) => Effect.Effect<void>
}

export class AiLog extends Context.Service<AiLog, AiLogShape>()("@quire/outbound/AiLog") {}

/** The conversation and purpose the model calls of the enclosed effect are made for. */
export const AiConversation = Context.Reference<{ readonly id: string | null; readonly purpose: string } | undefined>(
  "@quire/outbound/AiConversation",
  { defaultValue: () => undefined }
)

/** `effect`'s model calls logged under `conversationId` (none: a one-off call) for `purpose`. */
export const forConversation = (conversationId: string | null, purpose: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, AiConversation, { id: conversationId, purpose })

/** A message's text, long ones cut: a log keeps what was sent, to 20,000 characters a message. */
const cut = (text: string) => text.length > 20_000 ? `${text.slice(0, 20_000)}… (${text.length - 20_000} more characters)` : text

/** Records a call for the organization of the current call, if any and if a log is provided. */
export const recordCurrent = (
  log: AiLogShape | undefined,
  call: Omit<AiLogEntry, "organizationId" | "conversationId" | "purpose" | "at">
) =>
  log === undefined
    ? Effect.void
    : Effect.flatMap(Effect.all([Effect.service(AiOrganization), Effect.service(AiConversation), Clock.currentTimeMillis]), ([organizationId, conversation, now]) =>
      organizationId === undefined
        ? Effect.void
        : log.record({
          ...call,
          prompt: call.prompt.map((m) => ({ role: m.role, content: cut(m.content) })),
          answer: cut(call.answer),
          organizationId,
          conversationId: conversation?.id ?? null,
          purpose: conversation?.purpose ?? "ask",
          at: new Date(now)
        }))
