/**
 * A site's agent settings (GitBook's `SiteAgentSettings`): the editing agent's custom instructions
 * for this site (markdown, stored as a JSON document), whether topics are scanned for findings and
 * which findings get a change request. Site admins change them; the site's editors read them.
 */
import type { Site, SiteAgentSettings as Settings } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useState } from "react"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { SelectField } from "../admin/ui.tsx"
import { messageElse, messageFor } from "../sites/errors.ts"
import { siteRef, useAction } from "../sites/queries.ts"
import { documentOf, tooLong, useMarkdownOf } from "./instructions.ts"
import { InstructionsField } from "./InstructionsField.tsx"
import { agentSettingsAtom, siteAgentKey, updateAgentSettings } from "./queries.ts"

type Topics = Settings["scans"]["topics"]
type ChangeRequests = Settings["findings"]["changeRequests"]

const topicChoices: ReadonlyArray<{ readonly value: Topics; readonly label: string }> = [
  { value: "auto", label: "Scan topics for findings automatically" },
  { value: "never", label: "Never scan topics" }
]

const changeRequestChoices: ReadonlyArray<{ readonly value: ChangeRequests; readonly label: string }> = [
  { value: "auto-fixable", label: "Only for findings the agent can fix" },
  { value: "always", label: "For every finding" },
  { value: "never", label: "Never: findings are listed only" }
]

const fields = ["scans", "findings", "editing"] as const

export const SiteAgentSettings = (props: { readonly organizationId: string; readonly site: Site }) => {
  const { site } = props
  const current = useAtomValue(agentSettingsAtom(siteRef(props.organizationId, site.id)))
  const stored = AsyncResult.isSuccess(current) ? current.value : undefined
  const markdown = useMarkdownOf(stored?.editing.customInstructions)
  const [text, setText] = useState<string | undefined>(undefined)
  const [topics, setTopics] = useState<Topics | undefined>(undefined)
  const [changeRequests, setChangeRequests] = useState<ChangeRequests | undefined>(undefined)
  const [local, setLocal] = useState<string | undefined>(undefined)
  const [said, setSaid] = useState("")
  const save = useMutation(updateAgentSettings)
  const action = useAction()
  const admin = site.permissions.admin
  useEffect(() => {
    if (text === undefined && markdown !== undefined) setText(markdown)
  }, [markdown, text])
  useEffect(() => {
    if (stored === undefined) return
    setTopics((was) => was ?? stored.scans.topics)
    setChangeRequests((was) => was ?? stored.findings.changeRequests)
  }, [stored])
  if (AsyncResult.isFailure(current)) return <Failure result={current} />
  if (stored === undefined || topics === undefined || changeRequests === undefined) return <Loading what="the agent settings" />
  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    setSaid("")
    const value = text ?? ""
    const problem = tooLong(value)
    setLocal(problem)
    if (problem !== undefined) return
    const done = await action.run(async () => save({
      params: { organizationId: props.organizationId, siteId: site.id },
      payload: { scans: { topics }, findings: { changeRequests }, editing: { customInstructions: await documentOf(value) } },
      reactivityKeys: [siteAgentKey(site.id)]
    }))
    if (done) setSaid("Saved the agent settings.")
  }
  const edited = () => setSaid("")
  const formError = messageElse(action.problem, ...fields)
  return (
    <form className="panel site-form agent-settings" onSubmit={(event) => void submit(event)} aria-label="Agent settings" noValidate>
      <h3>Editing agent</h3>
      <p className="muted">What the AI that helps authors draft and fix this site's content is told, and what it does with the problems it finds. No agent reads them on this server yet: they are kept for the one to come, and GitBook's API reads and writes them.</p>
      <InstructionsField label="Custom instructions (markdown)" value={text} readOnly={!admin} onSubmitShortcut={admin ? () => void submit() : undefined}
        onChange={(value) => { setText(value); edited() }} error={local ?? messageFor(action.problem, "editing")}
        hint="Short, site-specific directions: tone, terms, how guides are laid out. The organization's agent instructions come first." />
      <SelectField label="Topic scans" name="scans.topics" value={topics} onChange={(value) => { setTopics(value as Topics); edited() }}
        options={topicChoices} error={messageFor(action.problem, "scans")} disabled={!admin} />
      <SelectField label="Change requests for findings" name="findings.changeRequests" value={changeRequests}
        onChange={(value) => { setChangeRequests(value as ChangeRequests); edited() }} options={changeRequestChoices}
        error={messageFor(action.problem, "findings")} disabled={!admin} />
      {admin ? (
        <>
          {formError === undefined ? null : <p className="form-error" role="alert">{formError}</p>}
          <div className="toolbar">
            <button type="submit" className="primary" disabled={action.busy || text === undefined} aria-busy={action.busy}>{action.busy ? "Saving…" : "Save agent settings"}</button>
            <span className="status" role="status">{said}</span>
          </div>
        </>
      ) : <p className="muted">Only the site's admins and the organization's admins change them.</p>}
      {stored.updatedAt === undefined ? null : <p className="meta">Last changed {formatTime(stored.updatedAt)}.</p>}
    </form>
  )
}
