/** Deleting the spec, after a confirmation (for those who may edit it). */
import { useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { navigate } from "../../../router.ts"
import { Confirm } from "../../admin/ui.tsx"
import { useAction } from "../../sites/queries.ts"
import { deleteSpec, specsKey } from "../queries.ts"
import type { SpecSectionProps } from "./props.ts"

export const Danger = (props: SpecSectionProps) => {
  const [asking, setAsking] = useState(false)
  const remove = useMutation(deleteSpec)
  const action = useAction()
  const confirm = async () => {
    const done = await action.run(() => remove({ params: { organizationId: props.organizationId, specSlug: props.spec.slug }, reactivityKeys: [specsKey(props.organizationId)] }))
    if (done) navigate(`/o/${props.organizationId}/openapi`)
  }
  return (
    <section className="admin-section" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete the spec</h2>
      <p className="muted">Its versions go with it; pages that show its operations say they are not found.</p>
      <div className="toolbar"><button type="button" className="danger" onClick={() => setAsking(true)}>Delete spec…</button></div>
      {asking ? (
        <Confirm title={`Delete ${props.spec.slug}?`} action="Delete spec" busyAction="Deleting…" onConfirm={confirm} onClose={() => setAsking(false)} problem={action.problem?.message}>
          <p>Every version is deleted, and its published address stops answering. This cannot be undone.</p>
        </Confirm>
      ) : null}
    </section>
  )
}
