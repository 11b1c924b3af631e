/**
 * `/o/<org>/assistant`: the person's own conversations with the organization's assistant (GitBook's
 * organization agent conversations; nobody else sees them), most recent first, each opened beside
 * the list to read and continue; a new one, renamed or deleted. Answers come from the pages the
 * person may read; without a model they quote the passages found (the screen says so). Loaded with
 * `import()` (App.tsx).
 */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { organizationAtom } from "../../api/queries.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { AskIcon, PlusIcon } from "../../ui/icons.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { Confirm } from "../admin/ui.tsx"
import { Conversation } from "./Conversation.tsx"
import { StoredConversation } from "./StoredConversation.tsx"
import { conversationsAtom, conversationsKey, deleteConversation, newConversationId, renameConversation } from "./queries.ts"
import "../admin/admin.css"
import "./assistant.css"

const Rename = (props: { readonly organizationId: string; readonly conversationId: string; readonly title: string; readonly onDone: () => void }) => {
  const rename = useMutation(renameConversation)
  const [title, setTitle] = useState(props.title)
  const [error, setError] = useState<string | undefined>(undefined)
  return (
    <form className="assistant-rename" onSubmit={(event) => {
      event.preventDefault()
      rename({ params: { organizationId: props.organizationId, conversationId: props.conversationId }, payload: { title: title.trim() }, reactivityKeys: [conversationsKey(props.organizationId)] })
        .then(props.onDone, (failure: unknown) => setError(refusalOf(failure)?.message ?? "Not renamed."))
    }}>
      <label htmlFor="assistant-title" className="visually-hidden">Title</label>
      <input id="assistant-title" value={title} maxLength={200} autoFocus onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => { if (event.key === "Escape") props.onDone() }} aria-invalid={error === undefined ? undefined : true} />
      <button type="submit" className="button small primary" disabled={title.trim() === ""}>Save</button>
      <button type="button" className="button small" onClick={props.onDone}>Cancel</button>
      {error === undefined ? null : <p className="field-error" role="alert">{error}</p>}
    </form>
  )
}

export default function Assistant(props: { readonly organizationId: string }) {
  const org = useAtomValue(organizationAtom(props.organizationId))
  const list = useAtomValue(conversationsAtom(props.organizationId))
  const remove = useMutation(deleteConversation)
  const [open, setOpen] = useState<{ readonly id: string; readonly stored: boolean } | undefined>(undefined)
  const [renaming, setRenaming] = useState<string | undefined>(undefined)
  const [deleting, setDeleting] = useState<{ readonly id: string; readonly title: string } | undefined>(undefined)
  if (AsyncResult.isFailure(list)) return <Failure result={list} />
  if (!AsyncResult.isSuccess(list)) return <Loading what="your conversations" />
  const conversations = list.value.items
  const current = open ?? (conversations[0] === undefined ? { id: newConversationId(), stored: false } : { id: conversations[0].id, stored: true })
  return (
    <div className="assistant">
      <div className="org-title">
        <h1>Assistant</h1>
        <p className="muted">{AsyncResult.isSuccess(org) ? `Answers from the pages of ${org.value.title} you can read. Your conversations are yours: nobody else sees them.` : ""}</p>
      </div>
      <div className="assistant-columns">
        <nav className="assistant-list" aria-label="Your conversations">
          <button type="button" className="button" onClick={() => setOpen({ id: newConversationId(), stored: false })}><PlusIcon />New conversation</button>
          {conversations.length === 0
            ? <EmptyState compact icon={<AskIcon />} title="No conversations yet">Your questions and the assistant's answers are kept here.</EmptyState>
            : (
              <ul>
                {conversations.map((c) => (
                  <li key={c.id}>
                    {renaming === c.id
                      ? <Rename organizationId={props.organizationId} conversationId={c.id} title={c.title ?? ""} onDone={() => setRenaming(undefined)} />
                      : (
                        <>
                          <button type="button" className="link assistant-open" aria-current={current.id === c.id ? "true" : undefined} onClick={() => setOpen({ id: c.id, stored: true })}>{c.title ?? "Untitled"}</button>
                          <span className="assistant-actions">
                            <button type="button" className="button small" onClick={() => setRenaming(c.id)} aria-label={`Rename “${c.title ?? "Untitled"}”`}>Rename</button>
                            <button type="button" className="button small" onClick={() => setDeleting({ id: c.id, title: c.title ?? "Untitled" })} aria-label={`Delete “${c.title ?? "Untitled"}”`}>Delete</button>
                          </span>
                        </>
                      )}
                  </li>
                ))}
              </ul>
            )}
        </nav>
        {current.stored
          ? <StoredConversation key={current.id} organizationId={props.organizationId} conversationId={current.id} onSent={() => setOpen({ id: current.id, stored: true })} />
          : <Conversation key={current.id} organizationId={props.organizationId} conversationId={current.id} messages={[]} onSent={() => setOpen({ id: current.id, stored: true })} />}
      </div>
      {deleting === undefined ? null : (
        <Confirm title="Delete this conversation?" action="Delete" busyAction="Deleting…" onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await remove({ params: { organizationId: props.organizationId, conversationId: deleting.id }, reactivityKeys: [conversationsKey(props.organizationId)] })
            if (current.id === deleting.id) setOpen({ id: newConversationId(), stored: false })
            setDeleting(undefined)
          }}>
          <p>“{deleting.title}” and its messages are deleted for good.</p>
        </Confirm>
      )}
    </div>
  )
}
