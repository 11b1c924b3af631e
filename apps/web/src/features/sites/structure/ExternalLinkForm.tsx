/** "New external link" and "Edit" of one: a title, an absolute http(s) URL, the group it stands in and whether it is a draft. */
import type { SiteExternalLink, SiteSectionGroup } from "@quire/api"
import { type FormEvent, useId, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { Field, FormActions } from "../../../ui/Field.tsx"
import { messageElse, messageFor } from "../errors.ts"
import { addExternalLink, updateExternalLink, useAction } from "../queries.ts"
import { keys, type StructureContext } from "./context.ts"

export interface ExternalLinkFormProps {
  readonly context: StructureContext
  readonly groups: ReadonlyArray<SiteSectionGroup>
  /** Absent: a new link. */
  readonly link?: SiteExternalLink | undefined
  readonly onDone: () => void
}

export const ExternalLinkForm = (props: ExternalLinkFormProps) => {
  const { context, link } = props
  const [title, setTitle] = useState(link?.title ?? "")
  const [url, setUrl] = useState(link?.url ?? "https://")
  const [parent, setParent] = useState(link?.sectionGroup ?? "")
  const [draft, setDraft] = useState(link?.draft ?? false)
  const add = useMutation(addExternalLink)
  const update = useMutation(updateExternalLink)
  const action = useAction()
  const groupId = useId()
  const params = { organizationId: context.organizationId, siteId: context.siteId }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    const done = await action.run(() =>
      link === undefined
        ? add({ params, payload: { title: value, url: url.trim(), draft, ...(parent === "" ? {} : { parent }) }, reactivityKeys: keys(context) })
        : update({ params: { ...params, siteExternalLinkId: link.id }, payload: { title: value, url: url.trim(), draft, parent: parent === "" ? null : parent }, reactivityKeys: keys(context) }))
    if (done) {
      context.say(link === undefined ? `Added the external link ${value}` : `Saved the external link ${value}`)
      props.onDone()
    }
  }
  const label = link === undefined ? "New external link" : `Edit the external link ${link.title}`
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label={label}>
      <Field label="Link title" name="title" value={title} onChange={setTitle} error={messageFor(action.problem, "title")} hint="Readers see it as a tab beside the sections." autoFocus />
      <Field label="URL" name="url" type="url" value={url} onChange={setUrl} error={messageFor(action.problem, "url")} hint="An absolute http or https address; it opens in a new tab." />
      {props.groups.length === 0 ? null : (
        <div className="field">
          <label htmlFor={groupId}>Where it stands</label>
          <select id={groupId} value={parent} onChange={(event) => setParent(event.target.value)}>
            <option value="">Beside the sections</option>
            {props.groups.map((group) => <option key={group.id} value={group.id}>In the group {group.title}</option>)}
          </select>
          {messageFor(action.problem, "parent") === undefined ? null : <p className="field-error" role="alert">{messageFor(action.problem, "parent")}</p>}
        </div>
      )}
      <label className="check">
        <input type="checkbox" checked={draft} onChange={(event) => setDraft(event.target.checked)} />
        Draft (not shown on the published site)
      </label>
      <FormActions error={messageElse(action.problem, "title", "url", "parent")} busy={action.busy} label={link === undefined ? "Add link" : "Save"} busyLabel="Saving…" onCancel={props.onDone} />
    </form>
  )
}
