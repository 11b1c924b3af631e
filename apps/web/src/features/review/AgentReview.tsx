/**
 * "Ask the agent to review": the change request's agent reads the diff and leaves comments anchored
 * on the words they are about, and one that sums up (reviews' AgentTasks), posted as the person who
 * asked and marked as the agent's. Without a model the server says what to set, and this says it.
 */
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { AskIcon } from "../../ui/icons.tsx"
import { refusalOf } from "../../ui/refusal.ts"

const review = QuireApi.mutation("changeRequestConversations", "reviewChangeRequestWithAgent")

export const AgentReview = (props: { readonly params: { readonly spaceId: string; readonly changeRequestId: string }; readonly onDone: () => void }) => {
  const run = useMutation(review)
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<{ readonly text: string; readonly failed: boolean } | undefined>(undefined)
  const start = () => {
    setBusy(true)
    setNote(undefined)
    run({ params: props.params }).then(
      (result) => {
        setBusy(false)
        const n = result.comments.length
        setNote({ text: n === 0 ? "The agent reviewed the changes and found nothing to comment on." : `The agent left ${n} comment${n === 1 ? "" : "s"} on the pages.`, failed: false })
        props.onDone()
      },
      (failure: unknown) => {
        setBusy(false)
        setNote({ text: refusalOf(failure)?.message ?? "The agent could not be reached.", failed: true })
      }
    )
  }
  return (
    <div className="review-toolbar">
      <button type="button" onClick={start} disabled={busy} aria-describedby="agent-review-note"><AskIcon /> {busy ? "The agent is reviewing…" : "Ask the agent to review"}</button>
      <span id="agent-review-note" role={note?.failed === true ? "alert" : "status"} className={note?.failed === true ? "review-error" : "muted"}>{note?.text ?? ""}</span>
    </div>
  )
}
