/** "New group": a title and the top-level sections it gathers, in their order. */
import type { SiteSection } from "@quire/api"
import { type FormEvent, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { Field, FormActions } from "../../../ui/Field.tsx"
import { messageElse, messageFor } from "../errors.ts"
import { addGroup, useAction } from "../queries.ts"
import { keys, type StructureContext } from "./context.ts"

export interface NewGroupFormProps {
  readonly context: StructureContext
  readonly sections: ReadonlyArray<SiteSection>
  readonly onDone: () => void
}

export const NewGroupForm = (props: NewGroupFormProps) => {
  const { context } = props
  const [title, setTitle] = useState("")
  const [chosen, setChosen] = useState<ReadonlyArray<string>>([])
  const add = useMutation(addGroup)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    const sections = props.sections.map((section) => section.id).filter((id) => chosen.includes(id))
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { title: value, sections },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Added the group ${value}`)
      props.onDone()
    }
  }
  const toggle = (id: string, on: boolean) => setChosen((now) => on ? [...now, id] : now.filter((other) => other !== id))
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label="New group">
      <Field label="Group title" name="title" value={title} onChange={setTitle} error={messageFor(action.problem, "title")} hint="Readers see it as a menu holding the sections below." autoFocus />
      <fieldset className="checks">
        <legend>Sections it holds</legend>
        {props.sections.map((section) => (
          <label key={section.id} className="check">
            <input type="checkbox" checked={chosen.includes(section.id)} onChange={(event) => toggle(section.id, event.target.checked)} />
            {section.title}
          </label>
        ))}
        {messageFor(action.problem, "sections") === undefined ? null : <p className="field-error" role="alert">{messageFor(action.problem, "sections")}</p>}
      </fieldset>
      <FormActions error={messageElse(action.problem, "title", "sections")} busy={action.busy} label="Add group" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}
