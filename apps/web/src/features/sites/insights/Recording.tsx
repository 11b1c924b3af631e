/**
 * Whether the published site records insights (`customization.insights`) and asks "Was this page
 * helpful?" (`customization.feedback.enabled`): two switches for admins, saved with the rest of the
 * customization kept as it was.
 */
import type { Site } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { useAtomValue, useMutation } from "../../../api/react.ts"
import { Failure, Loading } from "../../../ui/States.tsx"
import { messageElse } from "../errors.ts"
import { customizationAtom, siteKey, siteRef, updateCustomization, useAction } from "../queries.ts"

export const Recording = (props: { readonly organizationId: string; readonly site: Site }) => {
  const saved = useAtomValue(customizationAtom(siteRef(props.organizationId, props.site.id)))
  const update = useMutation(updateCustomization)
  const action = useAction()
  // What was just chosen shows at once; a refusal puts back what is saved.
  const [chosen, setChosen] = useState<{ readonly views: boolean; readonly feedback: boolean } | undefined>()
  if (AsyncResult.isFailure(saved)) return <Failure result={saved} />
  if (!AsyncResult.isSuccess(saved)) return <Loading what="the settings" />
  const { updatedAt: _updatedAt, ...settings } = saved.value
  const views = chosen?.views ?? settings.insights !== undefined
  const feedback = chosen?.feedback ?? settings.feedback?.enabled === true
  const admin = props.site.permissions.admin
  const save = (next: { readonly views: boolean; readonly feedback: boolean }) => {
    const { insights: _insights, ...rest } = settings
    const payload = { ...rest, feedback: { enabled: next.feedback }, ...(next.views ? { insights: { trackingCookie: false } } : {}) }
    setChosen(next)
    void action.run(() => update({ params: { organizationId: props.organizationId, siteId: props.site.id }, payload, reactivityKeys: [siteKey(props.site.id)] }))
      .then((done) => {
        if (!done) setChosen(undefined)
      })
  }
  return (
    <fieldset className="insights-recording" disabled={!admin || action.busy}>
      <legend>What the published site records</legend>
      <label className="check">
        <input type="checkbox" checked={views} onChange={(event) => save({ views: event.target.checked, feedback })} />
        Page views, searches and link clicks
      </label>
      <label className="check">
        <input type="checkbox" checked={feedback} onChange={(event) => save({ views, feedback: event.target.checked })} />
        “Was this page helpful?” at the bottom of pages
      </label>
      <p className="hint">No cookies and no personal data: a visitor is counted by a hash that changes every day.{admin ? "" : " Only admins change this."}</p>
      {messageElse(action.problem) === undefined ? null : <p className="field-error" role="alert">{messageElse(action.problem)}</p>}
    </fieldset>
  )
}
