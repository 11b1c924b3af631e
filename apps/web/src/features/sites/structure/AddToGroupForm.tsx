/** "Add a section to the group": one of the top-level sections. */
import type { SiteSection, SiteSectionGroup } from "@quire/api"
import { type FormEvent, useId, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { FormActions } from "../../../ui/Field.tsx"
import { messageElse, messageFor } from "../errors.ts"
import { addSectionToGroup, useAction } from "../queries.ts"
import { keys, type StructureContext } from "./context.ts"

export interface AddToGroupFormProps {
  readonly context: StructureContext
  readonly group: SiteSectionGroup
  readonly sections: ReadonlyArray<SiteSection>
  readonly onDone: () => void
}

export const AddToGroupForm = (props: AddToGroupFormProps) => {
  const { context, group } = props
  const [sectionId, setSectionId] = useState("")
  const add = useMutation(addSectionToGroup)
  const action = useAction()
  const id = useId()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const section = props.sections.find((s) => s.id === sectionId)
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionGroupId: group.id },
      payload: { sectionId },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Put ${section === undefined ? "the section" : section.title} in the group ${group.title}`)
      props.onDone()
    }
  }
  const error = messageFor(action.problem, "sectionId")
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label={`Add a section to the group ${group.title}`}>
      <div className="field">
        <label htmlFor={id}>Section to put in {group.title}</label>
        <select id={id} value={sectionId} onChange={(event) => setSectionId(event.target.value)}
          aria-invalid={error === undefined ? undefined : true} aria-describedby={error === undefined ? undefined : `${id}-error`}>
          <option value="">Choose a section…</option>
          {props.sections.map((section) => <option key={section.id} value={section.id}>{section.title}</option>)}
        </select>
        {error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
      </div>
      <FormActions error={messageElse(action.problem, "sectionId")} busy={action.busy} label="Add" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}
