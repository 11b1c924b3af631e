/** Private or public; a public spec's address for anyone. */
import { useEffect, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { useAction } from "../../sites/queries.ts"
import { specKey, specsKey, updateSpec } from "../queries.ts"
import type { SpecSectionProps } from "./props.ts"

export const Visibility = (props: SpecSectionProps) => {
  const { spec } = props
  const update = useMutation(updateSpec)
  const action = useAction()
  // Drawn as asked at once; back to what the spec says when the API refuses.
  const [shown, setShown] = useState(spec.visibility)
  useEffect(() => setShown(spec.visibility), [spec.visibility])
  const choose = (visibility: "private" | "public") => {
    setShown(visibility)
    void action.run(() => update({
      params: { organizationId: props.organizationId, specSlug: spec.slug },
      payload: { visibility },
      reactivityKeys: [specKey(props.organizationId, spec.slug), specsKey(props.organizationId)]
    })).then((done) => done ? undefined : setShown(spec.visibility))
  }
  const yaml = spec.urls.published?.replace(/\.json$/, ".yaml")
  return (
    <section className="admin-section" aria-labelledby="visibility-heading">
      <h2 id="visibility-heading">Visibility</h2>
      <fieldset className="visibility" disabled={!spec.permissions.edit || action.busy}>
        <legend className="visually-hidden">Who can read the document</legend>
        {([["private", "Private", "Members of the organization, and the pages that show it."], ["public", "Public", "Anyone, at its published address."]] as const).map(([value, label, hint]) => (
          <label key={value} className="choice">
            <input type="radio" name="spec-visibility" value={value} checked={shown === value} onChange={() => choose(value)} />
            <span><strong>{label}</strong><span className="meta">{hint}</span></span>
          </label>
        ))}
      </fieldset>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      {spec.urls.published === undefined ? null : (
        <p className="published-url">Published at <a href={spec.urls.published} target="_blank" rel="noreferrer">{spec.urls.published}</a>{yaml === undefined ? null : <> (also <a href={yaml} target="_blank" rel="noreferrer">as YAML</a>)</>}</p>
      )}
    </section>
  )
}
