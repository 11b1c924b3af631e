/** "Add a space": to a section (a variant) or to the site's root. */
import { type FormEvent, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { FormActions } from "../../../ui/Field.tsx"
import { messageElse, messageFor } from "../errors.ts"
import { addSiteSpace, useAction } from "../queries.ts"
import { keys, spaceTitle, type StructureContext } from "./context.ts"
import { SpacePicker } from "./SpacePicker.tsx"

export interface AddSpaceFormProps {
  readonly context: StructureContext
  readonly sectionId?: string
  readonly taken: ReadonlyArray<string>
  readonly label: string
  readonly onDone: () => void
}

export const AddSpaceForm = (props: AddSpaceFormProps) => {
  const { context } = props
  const [spaceId, setSpaceId] = useState("")
  const add = useMutation(addSiteSpace)
  const action = useAction()
  const choices = context.spaces.filter((space) => !props.taken.includes(space.id))
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const space = context.spaces.find((s) => s.id === spaceId)
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { spaceId, ...(props.sectionId === undefined ? {} : { sectionId: props.sectionId }) },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Added ${space === undefined ? "the space" : spaceTitle(space)}`)
      props.onDone()
    }
  }
  const other = messageElse(action.problem, "spaceId")
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label={props.sectionId === undefined ? "New space of the site" : "New variant"}>
      <SpacePicker label={props.label} spaces={choices} value={spaceId} onChange={setSpaceId} error={messageFor(action.problem, "spaceId")} />
      <FormActions error={other} busy={action.busy} label="Add" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}
