/**
 * `/s/<space>/~/import`: imports into the space, for its editors. Upload a Confluence or Notion
 * export, a Word document or a zip of markdown or HTML files (or give a website's URL), choose what
 * it is, and follow the run's progress (polled while it runs); a finished run lists the pages it
 * added, each a link. As GitBook does, an import is proposed as a new change request unless the
 * person chooses to import straight into the space; the change request then opens once the run
 * completes. Loaded with `import()` (App.tsx), with its stylesheet.
 */
import type { ContentImportRun } from "@quire/api"
import { AsyncResult } from "effect/reactivity"
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from "react"
import { callApi } from "../api/call.ts"
import { usePolling } from "../api/polling.ts"
import { pagesAtom, spaceAtom } from "../api/queries.ts"
import { useAtomValue, useMutation, useRefresh, useRegistry } from "../api/react.ts"
import { getChangeRequest } from "../features/editing/content.ts"
import { FormError, SelectField, useForm } from "../features/admin/ui.tsx"
import { isActive, percent, runHeadline, type SourceKind, sourceKinds, sourceWords } from "../features/imports/model.ts"
import { cancelImport, importRunsAtom, importsKey, startImport, UploadRefused, uploadImportFile } from "../features/imports/queries.ts"
import "../features/imports/imports.css"
import { flattenPages } from "../features/space/PageTree.tsx"
import { Field } from "../ui/Field.tsx"
import { navigate } from "../router.ts"
import { Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import { formatTime } from "../ui/time.ts"
import { EmptyState } from "../ui/EmptyState.tsx"
import { UploadIcon } from "../ui/icons.tsx"

const accepts: Record<SourceKind, string> = {
  auto: ".zip,.docx,.md,.markdown,.html,.htm",
  markdown: ".zip,.md,.markdown,.html,.htm",
  confluence: ".zip",
  notion: ".zip",
  docx: ".docx",
  website: ""
}

/** The change request a run imports into, as a link to it (its number read from the API). */
const ChangeRequestOf = (props: { readonly spaceId: string; readonly changeRequestId: string; readonly done: boolean }) => {
  const registry = useRegistry()
  const [number, setNumber] = useState<number | undefined>(undefined)
  useEffect(() => {
    let live = true
    callApi(registry, getChangeRequest(props.spaceId, props.changeRequestId)).then((cr) => { if (live) setNumber(cr.number) }, () => undefined)
    return () => { live = false }
  }, [registry, props.spaceId, props.changeRequestId])
  if (number === undefined) return <p className="muted">Into a change request</p>
  return (
    <p>
      {props.done ? "Imported into " : "Into "}
      <Link href={`/s/${props.spaceId}/~/changes/${number}`}>change request #{number}</Link>
      {props.done ? <>: <Link href={`/s/${props.spaceId}/~/changes/${number}/~/review`}>review it</Link> before merging.</> : null}
    </p>
  )
}

/** One run: its state, a progress bar while it runs, why it failed, the pages it added. */
const Run = (props: { readonly run: ContentImportRun; readonly spaceId: string; readonly pageLinks: ReadonlyMap<string, { readonly title: string; readonly path: string }>; readonly onCancel: (run: ContentImportRun) => void }) => {
  const { run } = props
  const active = isActive(run)
  const added = run.pages.flatMap((page) => {
    const found = props.pageLinks.get(page.id)
    return found === undefined ? [] : [{ id: page.id, ...found }]
  })
  return (
    <li className={`import-run import-run-${run.status}`} aria-busy={active}>
      <p>
        <span className="import-badge">{runHeadline(run)}</span>{" "}
        <span className="muted">{sourceWords(run)} · {formatTime(run.createdAt)}</span>
      </p>
      {active ? <progress max={100} value={percent(run)} aria-label={`Import progress: ${runHeadline(run)}`}>{percent(run)}%</progress> : null}
      {run.status === "failed" && run.reason !== undefined ? <p className="field-error">{run.reason}</p> : null}
      {run.target.changeRequest === undefined ? null : <ChangeRequestOf spaceId={props.spaceId} changeRequestId={run.target.changeRequest} done={run.status === "completed"} />}
      {added.length > 0 ? (
        <ul className="import-pages" aria-label="Imported pages">
          {added.slice(0, 50).map((page) => <li key={page.id}><Link href={`/s/${props.spaceId}/${page.path}`}>{page.title}</Link></li>)}
        </ul>
      ) : null}
      {active ? <div className="toolbar"><button type="button" onClick={() => props.onCancel(run)}>Cancel this import</button></div> : null}
    </li>
  )
}

export const Import = (props: { readonly spaceId: string }) => {
  const { spaceId } = props
  const space = useAtomValue(spaceAtom(spaceId))
  const organizationId = AsyncResult.isSuccess(space) ? space.value.organization : ""
  const runs = useAtomValue(importRunsAtom(`${organizationId}|${spaceId}`))
  const pages = useAtomValue(pagesAtom(spaceId))
  const refresh = useRefresh()
  const start = useMutation(startImport)
  const cancel = useMutation(cancelImport)
  const form = useForm(["source", "file", "url", "target"], (message) => (/url/i.test(message) ? "url" : "file"))
  const [kind, setKind] = useState<SourceKind>("auto")
  const [url, setUrl] = useState("")
  const [files, setFiles] = useState<ReadonlyArray<File>>([])
  const [destination, setDestination] = useState<"change-request" | "main">("change-request")
  const [status, setStatus] = useState("")
  const fileInput = useRef<HTMLInputElement>(null)
  const fileId = useId()
  const list = useMemo(() => (AsyncResult.isSuccess(runs) ? runs.value.items : []), [runs])
  const active = list.some(isActive)
  usePolling(importRunsAtom(`${organizationId}|${spaceId}`), active)
  // A run that completed changed the pages (a quick one may complete before the list shows it running):
  // the space's screens read them again.
  const completed = list.filter((run) => run.status === "completed").map((run) => run.id).join(",")
  useEffect(() => {
    if (completed !== "") refresh(pagesAtom(spaceId))
  }, [completed, refresh, spaceId])
  // The run this screen started: its end is announced once; one that completed into a change
  // request opens it, where the imported pages are reviewed and edited.
  const [watching, setWatching] = useState<string | undefined>(undefined)
  const registry = useRegistry()
  useEffect(() => {
    const run = list.find((item) => item.id === watching)
    if (run === undefined || isActive(run)) return
    setStatus(`Import: ${runHeadline(run)}${run.status === "failed" && run.reason !== undefined ? `: ${run.reason}` : ""}.`)
    setWatching(undefined)
    const changeRequestId = run.target.changeRequest
    if (run.status !== "completed" || changeRequestId === undefined) return
    callApi(registry, getChangeRequest(spaceId, changeRequestId)).then(
      (cr) => navigate(`/s/${spaceId}/~/changes/${cr.number}`),
      // The run's own line still links to its change request.
      () => undefined
    )
  }, [list, watching, registry, spaceId])

  const crumbs = (
    <p className="crumbs">
      <Link href={`/s/${spaceId}`}>{AsyncResult.isSuccess(space) ? space.value.title || "Untitled space" : "Space"}</Link> / Import
    </p>
  )
  if (AsyncResult.isFailure(space)) return <div className="import-screen">{crumbs}<h1>Import</h1><Failure result={space} /></div>
  if (!AsyncResult.isSuccess(space)) return <div className="import-screen">{crumbs}<h1>Import</h1><Loading what="the space" /></div>
  const canEdit = space.value.permissions.edit
  const pageLinks = new Map((AsyncResult.isSuccess(pages) ? flattenPages(pages.value.pages) : []).map((page) => [page.id, { title: page.title, path: page.path ?? "" }]))

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const website = kind === "website"
    if (!form.check(website ? (url.trim() === "" ? { url: "Give the address of the website's first page." } : {}) : files.length === 0 ? { file: "Choose a file to import." } : {})) return
    setStatus("")
    void form.submit(async () => {
      try {
        const keys = website ? [] : await Promise.all(files.map((file) => uploadImportFile(organizationId, file)))
        const source = kind === "website" ? { type: "website" as const, url: url.trim() } : { type: "file" as const, files: keys, format: kind }
        const run = await start({ params: { organizationId }, payload: { source, target: { space: spaceId }, ...(destination === "change-request" ? { newChangeRequest: {} } : {}) }, reactivityKeys: [importsKey(spaceId)] })
        setWatching(run.id)
      } catch (error) {
        if (error instanceof UploadRefused) {
          form.check({ file: error.message })
          return
        }
        throw error
      }
      setFiles([])
      if (fileInput.current !== null) fileInput.current.value = ""
      setStatus("The import started. Its progress shows below.")
    })
  }
  const onCancel = (run: ContentImportRun) => {
    void cancel({ params: { organizationId, importRunId: run.id }, reactivityKeys: [importsKey(spaceId)] }).then(
      () => setStatus("The import was cancelled; the space is as it was."),
      () => setStatus("The import had already finished.")
    )
  }
  const fileError = form.errors.fields["file"]
  return (
    <div className="import-screen">
      {crumbs}
      <h1>Import</h1>
      <p className="muted">Bring pages from another tool into this space: a Confluence space or a Notion workspace exported as a zip, Word documents, a zip of markdown or HTML files (MkDocs, Docusaurus, Docsify or any folder), or a website. Images become the space's files, links between imported pages stay links, and a failed import changes nothing.</p>
      <span className="status" role="status">{status}</span>
      {canEdit ? (
        <form className="import-form" onSubmit={onSubmit} aria-labelledby="import-new-heading" noValidate>
          <h2 id="import-new-heading">New import</h2>
          <SelectField label="What are you importing?" name="source" value={kind} onChange={(value) => setKind(value as SourceKind)} options={sourceKinds} error={form.errors.fields["source"]} />
          {kind === "website" ? (
            <Field label="Website address" name="url" type="url" value={url} onChange={setUrl} error={form.errors.fields["url"]} hint="Its first page; the pages it links to on the same site are imported too." />
          ) : (
            <div className="field">
              <label htmlFor={fileId}>File</label>
              <input ref={fileInput} id={fileId} name="file" type="file" multiple accept={accepts[kind]}
                onChange={(event) => setFiles(Array.from(event.target.files ?? []))}
                aria-invalid={fileError === undefined ? undefined : true} aria-describedby={fileError === undefined ? `${fileId}-hint` : `${fileId}-hint ${fileId}-error`} />
              <span id={`${fileId}-hint`} className="hint">A .zip, a .docx, or .md and .html files; a zip holds at most 5,000 files.</span>
              {fileError === undefined ? null : <p id={`${fileId}-error`} className="field-error" role="alert">{fileError}</p>}
            </div>
          )}
          <fieldset className="field import-destination">
            <legend>Where the pages go</legend>
            <label>
              <input type="radio" name="destination" value="change-request" checked={destination === "change-request"} onChange={() => setDestination("change-request")} aria-describedby={`${fileId}-cr-hint`} />
              <span>Propose them in a new change request<span id={`${fileId}-cr-hint`} className="hint">Reviewed before they reach the space; it opens once the import is done.</span></span>
            </label>
            <label>
              <input type="radio" name="destination" value="main" checked={destination === "main"} onChange={() => setDestination("main")} aria-describedby={`${fileId}-main-hint`} />
              <span>Straight into the space<span id={`${fileId}-main-hint`} className="hint">Readers see them at once, without a review.</span></span>
            </label>
          </fieldset>
          <FormError errors={form.errors} />
          <div className="toolbar"><button type="submit" className="primary" disabled={form.busy}>{form.busy ? "Starting…" : "Start the import"}</button></div>
        </form>
      ) : <p>Only the space's editors can import into it.</p>}
      <section aria-labelledby="import-runs-heading" className="admin-section">
        <h2 id="import-runs-heading">Imports into this space</h2>
        {AsyncResult.isFailure(runs) ? <Failure result={runs} /> : AsyncResult.isInitial(runs) ? <Loading what="imports" />
          : list.length === 0 ? <EmptyState compact icon={<UploadIcon />} title="None yet." />
          : <ul className="import-runs">{list.map((run) => <Run key={run.id} run={run} spaceId={spaceId} pageLinks={pageLinks} onCancel={onCancel} />)}</ul>}
      </section>
    </div>
  )
}
