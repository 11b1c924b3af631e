/**
 * A variant's own look: the title and primary color its pages show instead of the site's
 * (`overrideSiteSpaceCustomizationById`), or the site's again (`deleteSiteSpaceCustomizationById`).
 * The form starts from what the variant shows now (the site's look with its own over it).
 */
import type { SiteSpace } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { useAtomValue, useMutation } from "../../../api/react.ts"
import { Field, FormActions } from "../../../ui/Field.tsx"
import { Failure, Loading } from "../../../ui/States.tsx"
import { ColorField } from "../Customization.tsx"
import { messageElse, messageFor } from "../errors.ts"
import { overrideVariantLook, resetVariantLook, useAction, variantLookAtom } from "../queries.ts"
import { keys, type StructureContext } from "./context.ts"

export interface VariantLookProps {
  readonly context: StructureContext
  readonly siteSpace: SiteSpace
  readonly title: string
  readonly onDone: () => void
}

export const VariantLook = (props: VariantLookProps) => {
  const { context, siteSpace } = props
  const look = useAtomValue(variantLookAtom(`${context.organizationId}\n${context.siteId}\n${siteSpace.id}`))
  if (AsyncResult.isFailure(look)) return <Failure result={look} />
  if (!AsyncResult.isSuccess(look)) return <Loading what="the variant's look" />
  return <LookForm {...props} title={props.title} initial={{ title: look.value.title ?? "", light: look.value.styling?.primaryColor?.light ?? "", dark: look.value.styling?.primaryColor?.dark ?? "" }} />
}

const LookForm = (props: VariantLookProps & { readonly initial: { readonly title: string; readonly light: string; readonly dark: string } }) => {
  const { context, siteSpace } = props
  const [title, setTitle] = useState(props.initial.title)
  const [light, setLight] = useState(props.initial.light)
  const [dark, setDark] = useState(props.initial.dark)
  const save = useMutation(overrideVariantLook)
  const reset = useMutation(resetVariantLook)
  const action = useAction()
  const params = { organizationId: context.organizationId, siteId: context.siteId, siteSpaceId: siteSpace.id }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const color = light.trim() === "" && dark.trim() === "" ? null : { light: light.trim(), dark: (dark.trim() || light.trim()) }
    const done = await action.run(() => save({
      params,
      payload: { title: title.trim() === "" ? null : title.trim(), styling: { primaryColor: color } },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Saved the look of ${props.title}`)
      props.onDone()
    }
  }
  const onReset = () => void action.run(async () => {
    await reset({ params, reactivityKeys: keys(context) })
    context.say(`${props.title} shows the site's look again`)
    props.onDone()
  })
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label={`Look of ${props.title}`}>
      <p className="muted">What readers of this variant see instead of the site's look; empty fields show the site's.</p>
      <Field label="Site title on this variant" name="title" value={title} onChange={setTitle} error={messageFor(action.problem, "title")} />
      <ColorField label="Primary color (light)" value={light} onChange={setLight} error={messageFor(action.problem, "styling")} hint="#rrggbb" />
      <ColorField label="Primary color (dark)" value={dark} onChange={setDark} error={undefined} hint="#rrggbb; empty: the light one" />
      <FormActions error={messageElse(action.problem, "title", "styling")} busy={action.busy} label="Save look" busyLabel="Saving…" onCancel={props.onDone} />
      <button type="button" className="link danger" onClick={onReset} disabled={action.busy}>Use the site's look</button>
    </form>
  )
}
