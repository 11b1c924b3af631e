/**
 * `/o/<org>/openapi`: the organization's OpenAPI specs, each with its processing state, and for
 * those who may (`create` role and above) "Add spec" from a URL or an uploaded file. Loaded with
 * `import()` (App.tsx).
 */
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useState } from "react"
import { organizationAtom } from "../../api/queries.ts"
import { usePolling } from "../../api/polling.ts"
import { useAtomValue, useMutation } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { messageElse, messageFor } from "../sites/errors.ts"
import { useAction } from "../sites/queries.ts"
import { slugFromName, stateOf } from "./model.ts"
import { createSpec, specsAtom, specsKey } from "./queries.ts"
import { emptySource, sourceErrors, SourceFields, sourceOf } from "./SourceForm.tsx"
import "../admin/admin.css"
import "../sites/sites.css"
import "./specs.css"
import { EmptyState } from "../../ui/EmptyState.tsx"
import { SpecIcon } from "../../ui/icons.tsx"

const AddSpec = (props: { readonly organizationId: string; readonly onCancel: () => void }) => {
  const [slug, setSlug] = useState("")
  const [slugTouched, setSlugTouched] = useState(false)
  const [draft, setDraft] = useState(emptySource)
  const [local, setLocal] = useState<{ readonly field: string; readonly message: string } | undefined>(undefined)
  const create = useMutation(createSpec)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const source = sourceOf(draft)
    const problem = slug.trim() === "" ? { field: "slug", message: "Give the spec a slug: letters, digits and dashes." } : "problem" in source ? { field: source.field, message: source.problem } : undefined
    setLocal(problem)
    if (problem !== undefined || "problem" in source) return
    const done = await action.run(() => create({ params: { organizationId: props.organizationId }, payload: { slug: slug.trim(), source }, reactivityKeys: [specsKey(props.organizationId)] }))
    if (done) navigate(`/openapi/${props.organizationId}/${slug.trim()}`)
  }
  const problem = local ?? action.problem
  const source = sourceErrors(draft.kind, problem)
  return (
    <form className="panel admin-form" onSubmit={(event) => void submit(event)} aria-label="Add an OpenAPI spec">
      <h2>Add an OpenAPI spec</h2>
      <Field label="Slug" name="slug" value={slug} onChange={(value) => {
        setSlug(value)
        setSlugTouched(true)
      }} error={messageFor(problem, "slug")} hint="Its name in page blocks and in its address, e.g. petstore." autoFocus />
      <SourceFields draft={draft} onChange={setDraft} urlError={source.url} fileError={source.file} onFile={(name) => {
        if (!slugTouched) setSlug(slugFromName(name))
      }} />
      <FormActions error={source.placed ? undefined : messageElse(problem, "slug", "source")} busy={action.busy} label="Add spec" busyLabel="Adding…" onCancel={props.onCancel} />
    </form>
  )
}

export default function Specs(props: { readonly organizationId: string }) {
  const org = useAtomValue(organizationAtom(props.organizationId))
  const atom = specsAtom(props.organizationId)
  const specs = useAtomValue(atom)
  const [adding, setAdding] = useState(false)
  const canAdd = AsyncResult.isSuccess(org) && org.value.permissions.createOpenAPISpec
  usePolling(atom, AsyncResult.isSuccess(specs) && specs.value.items.some((spec) => stateOf(spec).running))
  return (
    <div className="admin">
      <p className="admin-back"><Link href={`/o/${props.organizationId}`}>{AsyncResult.isSuccess(org) ? org.value.title : "Organization"}</Link></p>
      <h1>OpenAPI specs</h1>
      <p className="muted">Specs that pages show as API reference blocks, kept up to date from their source.</p>
      {canAdd && !adding ? <div className="toolbar"><button type="button" className="primary" onClick={() => setAdding(true)}>Add spec</button></div> : null}
      {adding ? <AddSpec organizationId={props.organizationId} onCancel={() => setAdding(false)} /> : null}
      {AsyncResult.isFailure(specs) ? <Failure result={specs} /> : !AsyncResult.isSuccess(specs) ? <Loading what="the specs" /> : specs.value.items.length === 0
        ? <EmptyState icon={<SpecIcon size={20} />} title="No OpenAPI specs yet.">An OpenAPI spec, added here once, draws its operations in any page of the organization's spaces.</EmptyState>
        : (
          <ul className="cr-list">
            {specs.value.items.map((spec) => {
              const state = stateOf(spec)
              return (
                <li key={spec.id}>
                  <Link href={`/openapi/${props.organizationId}/${spec.slug}`}>
                    <div>{spec.slug}</div>
                    <div className="meta">
                      <span className={state.failed ? "spec-failed" : undefined}>{state.label}</span>
                      {" · "}{spec.visibility === "public" ? "Public" : "Private"}
                      {" · "}{spec.sourceURL ?? "Uploaded"}
                      {spec.lastProcessedAt === undefined ? null : <> · processed {formatTime(spec.lastProcessedAt)}</>}
                    </div>
                  </Link>
                </li>
              )
            })}
          </ul>
        )}
    </div>
  )
}
