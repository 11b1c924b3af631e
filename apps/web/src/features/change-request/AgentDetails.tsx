/**
 * "Write with the agent" beside a change request's subject and description: the change request's
 * agent reads its diff and writes both (reviews' AgentTasks), as the person who asked. Said when
 * done; without a model the server says what to set, and the button's note says so in its words.
 */
import type { ChangeRequest } from "@quire/api"
import { useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { AskIcon } from "../../ui/icons.tsx"
import { refusalOf } from "../../ui/refusal.ts"

const writeDetails = QuireApi.mutation("changeRequestConversations", "writeChangeRequestDetailsWithAgent")

export const AgentDetails = (props: { readonly spaceId: string; readonly cr: ChangeRequest; readonly onWritten: () => void }) => {
  const write = useMutation(writeDetails)
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<{ readonly text: string; readonly failed: boolean } | undefined>(undefined)
  const run = () => {
    setBusy(true)
    setNote(undefined)
    write({ params: { spaceId: props.spaceId, changeRequestId: props.cr.id } }).then(
      () => {
        setBusy(false)
        setNote({ text: "The agent wrote the subject and the description from the changes. Edit them as you like.", failed: false })
        props.onWritten()
      },
      (failure: unknown) => {
        setBusy(false)
        setNote({ text: refusalOf(failure)?.message ?? "The agent could not be reached.", failed: true })
      }
    )
  }
  return (
    <p className="cr-agent-details">
      <button type="button" className="link" onClick={run} disabled={busy} aria-describedby="cr-agent-details-note">
        <AskIcon /> {busy ? "The agent is writing…" : "Write with the agent"}
      </button>
      <span id="cr-agent-details-note" role={note?.failed === true ? "alert" : "status"} className={note?.failed === true ? "form-error" : "muted"}>{note?.text ?? ""}</span>
    </p>
  )
}
