/**
 * `/o/<org>/ai-log`: the organization's AI log, for its admins (`listOrganizationAiCalls`): each
 * call of the model made for the organization, newest first, with what it was for, the
 * conversation it was part of, the model, its tokens and why it failed; opened, the prompt it was
 * sent (the instructions, the passages retrieved, the conversation so far), what it answered and
 * the tools it called. One conversation's calls by its name; twenty at a time. Loaded with `import()`.
 */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue } from "../../api/react.ts"
import { organizationAtom } from "../../api/queries.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { AskIcon } from "../../ui/icons.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { OrgTabs } from "../admin/ui.tsx"
import { callsAtom } from "./queries.ts"
import "../admin/admin.css"
import "./ailog.css"

const purposes: Readonly<Record<string, string>> = {
  "organization-agent": "Assistant conversation",
  "change-request-agent": "Agent in a change request",
  compose: "Write with AI",
  "agent-task": "Agent task",
  "site-ask": "A site's Ask",
  styleguide: "Style check",
  ask: "Organization's Ask"
}

interface Call {
  readonly id: string
  readonly conversation?: string
  readonly purpose: string
  readonly model: string
  readonly prompt: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly tools: ReadonlyArray<string>
  readonly answer: string
  readonly toolCalls: ReadonlyArray<{ readonly name: string; readonly params: unknown }>
  readonly tokens: number
  readonly failure?: string
  readonly createdAt: string
}

const CallItem = (props: { readonly call: Call; readonly onConversation: (id: string) => void }) => {
  const c = props.call
  return (
    <li className="panel ai-call">
      <div className="ai-call-meta">
        <strong>{purposes[c.purpose] ?? c.purpose}</strong>
        <span className="muted">{new Date(c.createdAt).toLocaleString()}</span>
        <span className="muted">{c.model} · {c.tokens.toLocaleString("en")} tokens</span>
        {c.conversation === undefined ? null : (
          <button type="button" className="button small" onClick={() => props.onConversation(c.conversation!)}>This conversation only</button>
        )}
      </div>
      {c.failure === undefined ? null : <p className="form-error">Failed: {c.failure}</p>}
      <details>
        <summary>What the model was sent ({c.prompt.length} {c.prompt.length === 1 ? "message" : "messages"}{c.tools.length === 0 ? "" : `, tools ${c.tools.join(", ")}`})</summary>
        {c.prompt.map((m, i) => (
          <div key={i}>
            <h3 className="muted">{m.role}</h3>
            <pre className="ai-call-text">{m.content}</pre>
          </div>
        ))}
      </details>
      {c.answer === "" ? null : <><h3 className="muted">Answer</h3><pre className="ai-call-text">{c.answer}</pre></>}
      {c.toolCalls.length === 0 ? null : (
        <ul aria-label="Tools it called">
          {c.toolCalls.map((t, i) => <li key={i}><code>{t.name}</code> <span className="ai-call-text">{JSON.stringify(t.params)}</span></li>)}
        </ul>
      )}
    </li>
  )
}

const Calls = (props: { readonly organizationId: string }) => {
  const [conversation, setConversation] = useState("")
  const [draft, setDraft] = useState("")
  const [pages, setPages] = useState<ReadonlyArray<string>>([])
  const calls = useAtomValue(callsAtom(JSON.stringify({ organizationId: props.organizationId, conversation, page: pages.at(-1) })))
  const show = (id: string) => {
    setDraft(id)
    setConversation(id)
    setPages([])
  }
  return (
    <>
      <form className="ai-call-filter" onSubmit={(event) => {
        event.preventDefault()
        show(draft.trim())
      }}>
        <div className="field">
          <label htmlFor="ai-log-conversation">Conversation</label>
          <input id="ai-log-conversation" value={draft} maxLength={200} onChange={(event) => setDraft(event.target.value)} placeholder="All calls" />
        </div>
        <button type="submit" className="button">Show</button>
        {conversation === "" ? null : <button type="button" className="button" onClick={() => show("")}>All calls</button>}
      </form>
      {AsyncResult.isFailure(calls) ? <Failure result={calls} /> : !AsyncResult.isSuccess(calls) ? <Loading what="the AI log" /> : calls.value.items.length === 0
        ? <EmptyState icon={<AskIcon />} title={conversation === "" ? "No model calls yet" : "No calls in this conversation"}>Each question the assistant, the agent or a site's Ask puts to the model is kept here.</EmptyState>
        : (
          <>
            <ol className="ai-calls" aria-label="Model calls">
              {(calls.value.items as ReadonlyArray<Call>).map((call) => <CallItem key={call.id} call={call} onConversation={show} />)}
            </ol>
            <div className="toolbar">
              {pages.length === 0 ? null : <button type="button" className="button" onClick={() => setPages(pages.slice(0, -1))}>Newer</button>}
              {calls.value.next === undefined ? null : <button type="button" className="button" onClick={() => setPages([...pages, calls.value.next!.page])}>Older</button>}
            </div>
          </>
        )}
    </>
  )
}

export default function AiLog(props: { readonly organizationId: string }) {
  const org = useAtomValue(organizationAtom(props.organizationId))
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization" />
  return (
    <div className="admin">
      <OrgTabs organizationId={props.organizationId} current="ai-log" title={org.value.title} admin={org.value.permissions.admin} />
      <h1>AI log</h1>
      {org.value.permissions.admin
        ? <><p className="muted">Every question {org.value.title}’s assistant, agent and sites put to the model, what the model was sent and what it answered, newest first.</p><Calls organizationId={props.organizationId} /></>
        : <p className="panel" role="alert">Only the organization’s administrators can read its AI log.</p>}
    </div>
  )
}
