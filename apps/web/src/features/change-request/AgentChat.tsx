/**
 * "Agent" in the change request's editor: the change request's default conversation with the agent
 * (reviews' ChangeRequestAgent). A person asks; the agent reads the change request's pages and writes
 * or adds them as that person, through the change request's own write path (so a page open here
 * takes the edit as any write from elsewhere); its answer shows with the pages it changed, each a
 * link. Its words show as they come (the answer streamed as server-sent events, agent-stream.ts);
 * the conversation shown at the end is the one stored. Without a model the server says what to
 * set, and the panel says so in the same words.
 */
import { Effect } from "effect"
import { AsyncResult, Atom } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useRefresh } from "../../api/react.ts"
import { AskIcon } from "../../ui/icons.tsx"
import { Link } from "../../ui/Link.tsx"
import { paragraphsOf } from "../palette/answer.ts"
import { streamAnswer } from "./agent-stream.ts"

/** The default conversation's messages: none until its first message (the list says whether it is there, so nothing answers 404). */
const conversationAtom = Atom.family((key: string) => {
  const [spaceId = "", changeRequestId = ""] = key.split("\n")
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const listed = yield* client.changeRequestConversations.listChangeRequestConversations({ params: { spaceId, changeRequestId }, query: {} })
    if (!listed.items.some((c) => c.id === "default")) return [] as ReadonlyArray<Message>
    const conversation = yield* client.changeRequestConversations.getChangeRequestConversation({ params: { spaceId, changeRequestId, conversationId: "default" } })
    return conversation.messages as ReadonlyArray<Message>
  })).pipe(Atom.withReactivity([`agent:${changeRequestId}`]))
})

interface Message {
  readonly role: "user" | "agent"
  readonly text: string
  readonly edits?: ReadonlyArray<{ readonly kind: string; readonly page: string; readonly title: string }> | undefined
}

export const AgentChat = (props: {
  readonly spaceId: string
  readonly changeRequestId: string
  /** The change request's address in the app, for links to the pages the agent changed. */
  readonly base: string
  readonly pagePaths: ReadonlyMap<string, string>
  readonly editable: boolean
  /** The change request's content changed (the agent wrote): read it again. */
  readonly onChanged: () => void
}) => {
  const atom = conversationAtom(`${props.spaceId}\n${props.changeRequestId}`)
  const stored = useAtomValue(atom)
  const refresh = useRefresh()
  const [text, setText] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [sent, setSent] = useState<ReadonlyArray<Message> | undefined>(undefined)
  /** While the agent answers: the question asked and its words so far. */
  const [pending, setPending] = useState<{ readonly asked: string; readonly words: string } | undefined>(undefined)
  const shown: ReadonlyArray<Message> = sent ?? (AsyncResult.isSuccess(stored) ? stored.value : [])
  const messages: ReadonlyArray<Message> = pending === undefined ? shown : [...shown, { role: "user", text: pending.asked }, { role: "agent", text: pending.words }]
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const message = text.trim()
    if (message === "" || busy) return
    setBusy(true)
    setError(undefined)
    setPending({ asked: message, words: "" })
    streamAnswer({ spaceId: props.spaceId, changeRequestId: props.changeRequestId, conversationId: "default", message }, (words) => setPending({ asked: message, words })).then(
      (answer) => {
        setBusy(false)
        setPending(undefined)
        if (answer.type === "error") {
          setError(answer.message)
          return
        }
        setText("")
        setSent(answer.conversation.messages)
        refresh(atom)
        if ((answer.reply.edits ?? []).length > 0) props.onChanged()
      },
      () => {
        setBusy(false)
        setPending(undefined)
        setError("The agent could not be reached.")
      }
    )
  }
  return (
    <section aria-labelledby="agent-chat-h" className="review-panel agent-chat">
      <h2 id="agent-chat-h"><AskIcon /> Agent</h2>
      {messages.length === 0 ? <p className="muted">Ask the agent to write or change pages of this change request. It edits them as you, and says what it changed.</p> : (
        <ol className="agent-messages" aria-label="Conversation with the agent">
          {messages.map((m, i) => (
            <li key={i} className={`agent-message agent-message-${m.role}`} aria-busy={pending !== undefined && i === messages.length - 1 ? true : undefined}>
              <span className="visually-hidden">{m.role === "user" ? "You:" : "Agent:"}</span>
              {pending !== undefined && i === messages.length - 1 && m.text === "" ? <p className="muted">The agent is working…</p> : null}
              {paragraphsOf(m.text).map((pieces, j) => <p key={j}>{pieces.map((piece) => (piece.kind === "cite" ? `[${piece.n}]` : "text" in piece ? piece.text : "")).join("")}</p>)}
              {(m.edits ?? []).length === 0 ? null : (
                <ul className="agent-edits" aria-label="Pages the agent changed">
                  {m.edits!.map((edit) => {
                    const path = props.pagePaths.get(edit.page)
                    const label = `${edit.kind === "created" ? "Added" : "Changed"} “${edit.title}”`
                    return <li key={edit.page}>{path === undefined ? label : <Link href={`${props.base}/${path}`}>{label}</Link>}</li>
                  })}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      {props.editable ? (
        <form onSubmit={submit} className="agent-form">
          <label htmlFor="agent-input" className="visually-hidden">Ask the agent</label>
          <textarea id="agent-input" rows={2} value={text} placeholder="Ask the agent…" maxLength={8000} aria-describedby={error === undefined ? undefined : "agent-error"}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit(event)
            }} />
          <button type="submit" className="button small primary" disabled={busy || text.trim() === ""}>{busy ? "The agent is working…" : "Ask"}</button>
          {error === undefined ? null : <p id="agent-error" className="field-error" role="alert">{error}</p>}
        </form>
      ) : <p className="muted">This change request can no longer be changed: the agent only reads it.</p>}
    </section>
  )
}
