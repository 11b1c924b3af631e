/**
 * One of the person's conversations with the organization's assistant: its messages (answers drawn
 * as the palette draws Ask's: paragraphs, citations, the pages they stand on as links; for an edit
 * it made, the change request it opened) and the field to ask the next question or for an edit. A new conversation is recorded with its first question.
 */
import type { OrganizationAgentMessage } from "@quire/api"
import { type FormEvent, useEffect, useId, useRef, useState } from "react"
import { useMutation } from "../../api/react.ts"
import { Link } from "../../ui/Link.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import { paragraphsOf } from "../palette/answer.ts"
import { conversationKey, conversationsKey, sendMessage } from "./queries.ts"

const Message = (props: { readonly message: OrganizationAgentMessage }) => {
  const { message } = props
  return (
    <li className={`assistant-message assistant-message-${message.role}`}>
      <span className="visually-hidden">{message.role === "user" ? "You:" : "Assistant:"}</span>
      {paragraphsOf(message.changeRequest === undefined ? message.text : message.text.replace(/\n\nChange request: \[[^\]]*\]\([^)]*\)\s*$/, "")).map((pieces, i) => (
        <p key={i}>{pieces.map((piece, j) => piece.kind === "cite" ? <sup key={j}>[{piece.n}]</sup> : piece.kind === "link" ? <Link key={j} href={piece.href}>{piece.text}</Link> : piece.kind === "code" ? <code key={j}>{piece.text}</code> : piece.kind === "strong" ? <strong key={j}>{piece.text}</strong> : <span key={j}>{piece.text}</span>)}</p>
      ))}
      {message.changeRequest === undefined ? null : (
        <p className="assistant-change-request">
          <Link href={message.changeRequest.path}>Open change request #{message.changeRequest.number}: {message.changeRequest.subject}</Link>
        </p>
      )}
      {(message.sources ?? []).length === 0 ? null : (
        <ol className="assistant-sources" aria-label="Pages this answer stands on">
          {message.sources!.map((source, i) => <li key={i}><Link href={source.path}>{source.title}</Link></li>)}
        </ol>
      )}
    </li>
  )
}

export const Conversation = (props: {
  readonly organizationId: string
  readonly conversationId: string
  /** Its messages so far (none for a new one, which is stored with its first question). */
  readonly messages: ReadonlyArray<OrganizationAgentMessage>
  readonly onSent: () => void
}) => {
  const send = useMutation(sendMessage)
  const [text, setText] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [sent, setSent] = useState<ReadonlyArray<OrganizationAgentMessage> | undefined>(undefined)
  const input = useRef<HTMLTextAreaElement>(null)
  const id = useId()
  useEffect(() => {
    input.current?.focus()
  }, [props.conversationId])
  const messages = sent ?? props.messages
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const message = text.trim()
    if (message === "" || busy) return
    setBusy(true)
    setError(undefined)
    send({
      params: { organizationId: props.organizationId, conversationId: props.conversationId },
      payload: { message },
      reactivityKeys: [conversationsKey(props.organizationId), conversationKey(props.organizationId, props.conversationId)]
    }).then(
      (reply) => {
        setBusy(false)
        setText("")
        setSent(reply.conversation.messages)
        props.onSent()
      },
      (failure: unknown) => {
        setBusy(false)
        setError(refusalOf(failure)?.message ?? "The assistant could not be reached.")
      }
    )
  }
  return (
    <section className="assistant-conversation" aria-label="Conversation">
      {messages.length === 0
        ? <p className="muted">Ask about anything in the spaces you can read. The assistant answers from those pages only, and names the pages it used.</p>
        : <ol className="assistant-messages" aria-label="Messages" aria-live="polite">{messages.map((m, i) => <Message key={i} message={m} />)}</ol>}
      <form onSubmit={submit} className="assistant-form">
        <label htmlFor={id} className="visually-hidden">Ask the assistant</label>
        <textarea ref={input} id={id} rows={2} value={text} placeholder="Ask a question, or for an edit…" maxLength={8000}
          aria-describedby={error === undefined ? undefined : `${id}-error`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) submit(event)
          }} />
        <button type="submit" className="button primary" disabled={busy || text.trim() === ""}>{busy ? "Reading the pages…" : "Ask"}</button>
        {error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
      </form>
    </section>
  )
}
