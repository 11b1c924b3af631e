/** "New section": a title and the space it shows first. */
import { type FormEvent, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { Field, FormActions } from "../../../ui/Field.tsx"
import { messageElse, messageFor } from "../errors.ts"
import { addSection, useAction } from "../queries.ts"
import { keys, type StructureContext } from "./context.ts"
import { SpacePicker } from "./SpacePicker.tsx"

export interface AddSectionFormProps {
  readonly context: StructureContext
  readonly onDone: () => void
}

export const AddSectionForm = (props: AddSectionFormProps) => {
  const { context } = props
  const [title, setTitle] = useState("")
  const [spaceId, setSpaceId] = useState("")
  const add = useMutation(addSection)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { spaceId, ...(value === "" ? {} : { title: value }) },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Added the section ${value === "" ? "" : value}`.trim())
      props.onDone()
    }
  }
  const other = messageElse(action.problem, "title", "spaceId")
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label="New section">
      <Field label="Section title" name="title" value={title} onChange={setTitle} error={messageFor(action.problem, "title")} hint="Empty: the space's title." autoFocus />
      <SpacePicker label="Space it shows" spaces={context.spaces} value={spaceId} onChange={setSpaceId} error={messageFor(action.problem, "spaceId")} />
      <FormActions error={other} busy={action.busy} label="Add section" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}
