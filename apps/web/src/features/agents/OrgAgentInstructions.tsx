/**
 * The organization's agent instructions (GitBook's `OrganizationAgentInstructions`): markdown an
 * admin writes, stored as a JSON document, given to every agent working in the organization.
 * Members read them. "Saved" only once the server has answered.
 */
import type { Organization } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { messageElse, messageFor } from "../sites/errors.ts"
import { useAction } from "../sites/queries.ts"
import { documentOf, tooLong, useMarkdownOf } from "./instructions.ts"
import { InstructionsField } from "./InstructionsField.tsx"
import { instructionsAtom, instructionsKey, updateInstructions } from "./queries.ts"
import "./agents.css"

export const OrgAgentInstructions = (props: { readonly org: Organization }) => {
  const { org } = props
  const current = useAtomValue(instructionsAtom(org.id))
  const stored = AsyncResult.isSuccess(current) ? current.value : undefined
  const markdown = useMarkdownOf(stored?.instructions)
  const [text, setText] = useState<string | undefined>(undefined)
  const [local, setLocal] = useState<string | undefined>(undefined)
  const [said, setSaid] = useState("")
  const save = useMutation(updateInstructions)
  const action = useAction()
  useEffect(() => {
    if (text === undefined && markdown !== undefined) setText(markdown)
  }, [markdown, text])
  const admin = org.permissions.admin
  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    setSaid("")
    const value = text ?? ""
    const problem = tooLong(value)
    setLocal(problem)
    if (problem !== undefined) return
    const done = await action.run(async () =>
      save({ params: { organizationId: org.id }, payload: { instructions: await documentOf(value) }, reactivityKeys: [instructionsKey(org.id)] }))
    if (done) setSaid("Saved.")
  }
  return (
    <section id="agent-instructions" aria-labelledby="agent-instructions-heading" className="admin-section">
      <h2 id="agent-instructions-heading">Agent instructions</h2>
      <p className="muted">What every AI agent working in {org.title} is told first: your products' names, the tone to write in, what to avoid. Each site can add its own instructions (its Settings, AI &amp; MCP).</p>
      {AsyncResult.isFailure(current) ? <Failure result={current} /> : stored === undefined ? <Loading what="the agent instructions" /> : (
        <form onSubmit={(event) => void submit(event)} noValidate className="admin-form" aria-label="Agent instructions">
          <InstructionsField label="Instructions (markdown)" value={text} onChange={(value) => { setText(value); setSaid("") }} readOnly={!admin}
            error={local ?? messageFor(action.problem, "instructions")} onSubmitShortcut={() => void submit()}
            hint={stored.instructions.nodes.length === 0 ? "None yet." : `Last changed ${formatTime(stored.updatedAt)}.`} />
          {admin ? (
            <>
              {messageElse(action.problem, "instructions") === undefined ? null : <p className="form-error" role="alert">{messageElse(action.problem, "instructions")}</p>}
              <div className="toolbar">
                <button type="submit" className="primary" disabled={action.busy || text === undefined} aria-busy={action.busy}>{action.busy ? "Saving…" : "Save instructions"}</button>
                <span className="status" role="status">{said}</span>
              </div>
            </>
          ) : <p className="muted">Only administrators change them.</p>}
        </form>
      )}
    </section>
  )
}
