/** Where the document comes from, and a new source for those who may. */
import { type FormEvent, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { FormActions } from "../../../ui/Field.tsx"
import { messageElse } from "../../sites/errors.ts"
import { useAction } from "../../sites/queries.ts"
import { replaceSpec, specKey, specsKey } from "../queries.ts"
import { emptySource, sourceErrors, SourceFields, sourceOf } from "../SourceForm.tsx"
import type { SpecSectionProps } from "./props.ts"

export const Source = (props: SpecSectionProps) => {
  const { spec } = props
  const [open, setOpen] = useState(false)
  const [draft, setDraft] = useState(emptySource)
  const [local, setLocal] = useState<{ readonly field: string; readonly message: string } | undefined>(undefined)
  const [said, setSaid] = useState("")
  const replace = useMutation(replaceSpec)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const source = sourceOf(draft)
    setLocal("problem" in source ? { field: source.field, message: source.problem } : undefined)
    if ("problem" in source) return
    const done = await action.run(() => replace({
      params: { organizationId: props.organizationId, specSlug: spec.slug },
      payload: { source },
      reactivityKeys: [specKey(props.organizationId, spec.slug), specsKey(props.organizationId)]
    }))
    if (done) {
      setOpen(false)
      setDraft(emptySource)
      setSaid("New source saved: processing it.")
    }
  }
  const problem = local ?? action.problem
  const errors = sourceErrors(draft.kind, problem)
  return (
    <section className="admin-section" aria-labelledby="source-heading">
      <h2 id="source-heading">Source</h2>
      <p className="spec-source-line">{spec.sourceURL === undefined ? "An uploaded file" : <>Fetched from <a href={spec.sourceURL} rel="noreferrer" target="_blank">{spec.sourceURL}</a>, again every hour</>}</p>
      {spec.permissions.edit && !open ? <div className="toolbar"><button type="button" onClick={() => setOpen(true)}>Update source…</button><span className="status" role="status">{said}</span></div> : null}
      {open ? (
        <form className="panel admin-form" onSubmit={(event) => void submit(event)} aria-label="Update the source">
          <SourceFields draft={draft} onChange={setDraft} urlError={errors.url} fileError={errors.file} />
          <FormActions error={errors.placed ? undefined : messageElse(problem, "source")} busy={action.busy} label="Update" busyLabel="Updating…" onCancel={() => setOpen(false)} />
        </form>
      ) : null}
    </section>
  )
}
