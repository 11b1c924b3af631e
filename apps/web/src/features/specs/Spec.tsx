/**
 * `/openapi/<org>/<slug>` (a spec's `urls.app`): its processing state and the last run's errors
 * (polled while it runs), its source and a new one from a URL or a file, its visibility and
 * published address, its operations with the page block that shows each, its versions, and
 * deleting it after a confirmation. Edit actions only for the spec's `permissions.edit`. Loaded
 * with `import()` (App.tsx).
 */
import type { OpenAPISpec, OpenAPISpecContent } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { usePolling } from "../../api/polling.ts"
import { useAtomValue, useMutation, useRefresh } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { FormActions } from "../../ui/Field.tsx"
import { appPath, Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { formatTime } from "../../ui/time.ts"
import { Confirm, CopyButton } from "../admin/ui.tsx"
import { messageElse } from "../sites/errors.ts"
import { useAction } from "../sites/queries.ts"
import { operationBlock, operationsOf, stateOf } from "./model.ts"
import { deleteSpec, latestContentAtom, replaceSpec, specAtom, specKey, specRef, specsKey, updateSpec, usagesAtom, versionsAtom } from "./queries.ts"
import { emptySource, sourceErrors, SourceFields, sourceOf } from "./SourceForm.tsx"
import "../admin/admin.css"
import "../sites/sites.css"
import "./specs.css"

type Props = { readonly organizationId: string; readonly spec: OpenAPISpec }

const noContent: Atom.Atom<AsyncResult.AsyncResult<OpenAPISpecContent, unknown>> = Atom.make(AsyncResult.initial<OpenAPISpecContent, unknown>())

/** The state of the last run, its errors, and when it ended. */
const Processing = (props: { readonly spec: OpenAPISpec }) => {
  const { spec } = props
  const state = stateOf(spec)
  const errors = spec.lastProcessedErrors ?? []
  return (
    <section className={`panel spec-state${state.failed ? " failed" : ""}`} aria-labelledby="state-heading">
      <h2 id="state-heading">State</h2>
      <p role="status" className="spec-state-label">{state.running ? `${state.label}…` : state.label}</p>
      {spec.lastProcessedAt === undefined ? null : <p className="meta">Last run ended {formatTime(spec.lastProcessedAt)}</p>}
      {errors.length === 0 ? null : (
        <>
          <h3>{spec.lastProcessedErrorCount === 1 ? "The error" : `Errors (${spec.lastProcessedErrorCount})`}</h3>
          <ul className="spec-errors">
            {errors.map((error, index) => <li key={index}>{error.code === undefined ? null : <code>{error.code}</code>} {error.message}</li>)}
          </ul>
          {errors.length < spec.lastProcessedErrorCount ? <p className="meta">The first {errors.length} are shown.</p> : null}
        </>
      )}
      {state.failed && spec.lastVersion !== undefined ? <p className="meta">Pages keep showing the last version that was processed.</p> : null}
    </section>
  )
}

/** Where the document comes from, and a new source for those who may. */
const Source = (props: Props) => {
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

/** Private or public; a public spec's address for anyone. */
const Visibility = (props: Props) => {
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

/** The latest version's operations, each with the block a page writes to show it. */
const Operations = (props: Props & { readonly at: string }) => {
  const content = useAtomValue<AsyncResult.AsyncResult<OpenAPISpecContent, unknown>>(props.spec.lastVersion === undefined ? noContent : latestContentAtom(props.at))
  if (props.spec.lastVersion === undefined) return <p className="muted">No version yet: its operations show once it is processed.</p>
  if (AsyncResult.isFailure(content)) return <Failure result={content} />
  if (!AsyncResult.isSuccess(content)) return <Loading what="the operations" />
  const operations = operationsOf(content.value.filesystem["openapi"])
  if (operations.length === 0) return <p className="muted">The document has no operations.</p>
  return (
    <>
      <p className="meta">To show one on a page, put its block in the page's markdown.</p>
      <ul className="admin-list spec-operations">
        {operations.map((operation) => (
          <li key={`${operation.method} ${operation.path}`}>
            <span className={`method method-${operation.method}`}>{operation.method.toUpperCase()}</span>
            <code className="grow">{operation.path}</code>
            {operation.summary === undefined ? null : <span className="meta">{operation.summary}</span>}
            <span className="row-actions"><CopyButton text={operationBlock(props.spec.slug, operation)} label={`Copy block`} /></span>
          </li>
        ))}
      </ul>
    </>
  )
}

const Versions = (props: { readonly at: string; readonly latest: string | undefined }) => {
  const versions = useAtomValue(versionsAtom(props.at))
  if (AsyncResult.isFailure(versions)) return <Failure result={versions} />
  if (!AsyncResult.isSuccess(versions)) return <Loading what="the versions" />
  if (versions.value.items.length === 0) return <p className="muted">No version yet.</p>
  return (
    <ul className="admin-list">
      {versions.value.items.map((version) => (
        <li key={version.id}>
          <span className="grow">{formatTime(version.createdAt)} {version.id === props.latest ? <span className="badge">Latest</span> : null}</span>
          <a href={version.url} target="_blank" rel="noreferrer" className="small">Document</a>
        </li>
      ))}
    </ul>
  )
}

/** The pages of the organization's sites that show the spec, each opening the page in the app. */
const Usages = (props: { readonly at: string }) => {
  const usages = useAtomValue(usagesAtom(props.at))
  if (AsyncResult.isFailure(usages)) return <Failure result={usages} />
  if (!AsyncResult.isSuccess(usages)) return <Loading what="where it is used" />
  if (usages.value.items.length === 0) return <p className="muted">No page of the organization's sites shows it yet.</p>
  return (
    <ul className="admin-list">
      {usages.value.items.map((usage) => (
        <li key={`${usage.site.id} ${usage.page.id}`}>
          <span className="grow"><Link href={appPath(usage.urls.app)}>{usage.page.title === "" ? usage.page.path : usage.page.title}</Link> <span className="meta">in {usage.space.title}</span></span>
          <span className="meta">on <Link href={appPath(usage.urls.site)}>{usage.site.title === "" ? "Untitled site" : usage.site.title}</Link>{usage.site.published ? "" : " (not published)"}</span>
        </li>
      ))}
    </ul>
  )
}

const Danger = (props: Props) => {
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

export default function Spec(props: { readonly organizationId: string; readonly slug: string }) {
  const ref = specRef(props.organizationId, props.slug)
  const atom = specAtom(ref)
  const spec = useAtomValue(atom)
  const running = AsyncResult.isSuccess(spec) && stateOf(spec.value).running
  usePolling(atom, running)
  // A run that brought a new version: its versions and operations are read again.
  const latest = AsyncResult.isSuccess(spec) ? spec.value.lastVersion ?? "" : undefined
  const seen = useRef(latest)
  const refresh = useRefresh()
  useEffect(() => {
    if (seen.current === latest) return
    if (seen.current !== undefined && latest !== undefined) {
      refresh(versionsAtom(ref))
      if (latest !== "") refresh(latestContentAtom(ref))
    }
    seen.current = latest
  }, [latest, ref, refresh])
  const crumbs = <p className="admin-back"><Link href={`/o/${props.organizationId}`}>Organization</Link> / <Link href={`/o/${props.organizationId}/openapi`}>OpenAPI specs</Link></p>
  if (!AsyncResult.isSuccess(spec)) {
    return <div className="admin">{crumbs}<h1>{props.slug}</h1>{AsyncResult.isFailure(spec) ? <Failure result={spec} /> : <Loading what="the spec" />}</div>
  }
  const value = spec.value
  return (
    <div className="admin spec-screen">
      {crumbs}
      <h1>{value.slug}</h1>
      <Processing spec={value} />
      <Source organizationId={props.organizationId} spec={value} />
      <Visibility organizationId={props.organizationId} spec={value} />
      <section className="admin-section" aria-labelledby="operations-heading">
        <h2 id="operations-heading">Operations</h2>
        <Operations organizationId={props.organizationId} spec={value} at={ref} />
      </section>
      <section className="admin-section" aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <Versions at={ref} latest={value.lastVersion} />
      </section>
      <section className="admin-section" aria-labelledby="usages-heading">
        <h2 id="usages-heading">Used on</h2>
        <Usages at={ref} />
      </section>
      {value.permissions.edit ? <Danger organizationId={props.organizationId} spec={value} /> : null}
    </div>
  )
}
