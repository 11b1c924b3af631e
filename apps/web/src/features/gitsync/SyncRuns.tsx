/**
 * Import and Export of the connected repository (`importGitRepository`, `exportToGitRepository`)
 * and the last run of each in plain words: queued, running (how long), its commit, or why it
 * failed and what to check. The screen polls the state while a run is under way.
 */
import type { GitSyncRun, GitSyncState } from "@quire/api"
import { type FormEvent, useState } from "react"
import { useMutation } from "../../api/react.ts"
import { Field } from "../../ui/Field.tsx"
import { formatTime } from "../../ui/time.ts"
import { Confirm, FormError, useForm } from "../admin/ui.tsx"
import { problemOf } from "../admin/problems.ts"
import { adviceOf, isActive, runHeadline, type RunKind } from "./model.ts"
import { exportGit, gitKey, importGit } from "./queries.ts"

/** The repository fields of a sync request: the connection as shown, so the stored credentials serve it. */
const target = (state: GitSyncState) => ({
  url: state.url,
  ref: state.ref,
  ...(state.projectDirectory === "" ? {} : { repoProjectDirectory: state.projectDirectory })
})

const seconds = (since: string) => Math.max(0, Math.round((Date.now() - Date.parse(since)) / 1000))

const Run = (props: { readonly kind: RunKind; readonly run: GitSyncRun | null }) => {
  const { kind, run } = props
  const title = kind === "import" ? "Last import" : "Last export"
  if (run === null) return <div className="git-run"><h3>{title}</h3><p className="muted">None yet.</p></div>
  const { advice } = adviceOf(run)
  const active = isActive(run)
  return (
    <div className={`git-run git-run-${run.status}`} aria-busy={active}>
      <h3>{title}</h3>
      <p className="git-run-state">
        <span className="git-badge">{runHeadline(kind, run)}</span>{" "}
        <span className="muted">{active ? `for ${seconds(run.at)} s` : formatTime(run.at)}</span>
      </p>
      {run.error === null ? null : <p className={run.status === "failed" ? "field-error" : "muted"}>{run.error}</p>}
      {advice === undefined ? null : <p className="small">{advice}</p>}
    </div>
  )
}

export const SyncRuns = (props: {
  readonly spaceId: string
  readonly state: GitSyncState
  readonly canSync: boolean
  readonly onStarted: (message: string) => void
}) => {
  const { state } = props
  const [exporting, setExporting] = useState(false)
  const [importing, setImporting] = useState(false)
  const [importProblem, setImportProblem] = useState<string | undefined>(undefined)
  const [message, setMessage] = useState("Update from Quire")
  const runImport = useMutation(importGit)
  const runExport = useMutation(exportGit)
  const { busy, errors, submit, check } = useForm(["commitMessage"])
  const reactivityKeys = [gitKey(props.spaceId)]
  const active = isActive(state.lastImport) || isActive(state.lastExport)
  const onExport = (event: FormEvent) => {
    event.preventDefault()
    if (!check(message.trim() === "" ? { commitMessage: "Give the commit a message." } : {})) return
    void submit(async () => {
      await runExport({ params: { spaceId: props.spaceId }, payload: { ...target(state), commitMessage: message.trim() }, reactivityKeys })
      setExporting(false)
      props.onStarted("Export queued.")
    })
  }
  return (
    <>
      {props.canSync ? (
        <div className="toolbar">
          <button type="button" onClick={() => { setImportProblem(undefined); setImporting(true) }} disabled={active}>Import from Git</button>
          <button type="button" onClick={() => setExporting(true)} disabled={active || exporting} aria-expanded={exporting}>Export to Git</button>
          {active ? <span className="muted small">A sync is under way; wait for it to end.</span> : null}
        </div>
      ) : <p className="muted">Importing and exporting needs the edit permission on this space.</p>}
      {exporting ? (
        <form onSubmit={onExport} noValidate className="admin-form inline-form" aria-label="Export to Git">
          <FormError errors={errors} />
          <Field label="Commit message" name="commitMessage" value={message} onChange={setMessage} error={errors.fields["commitMessage"]} autoFocus autoComplete="off"
            hint={`One commit on ${state.branch} with the space's pages as they are now.`} />
          <div className="toolbar">
            <button type="submit" className="primary" disabled={busy} aria-busy={busy}>{busy ? "Queuing…" : "Export"}</button>
            <button type="button" onClick={() => setExporting(false)}>Cancel</button>
          </div>
        </form>
      ) : null}
      <div className="git-runs">
        <Run kind="import" run={state.lastImport} />
        <Run kind="export" run={state.lastExport} />
      </div>
      {importing ? (
        <Confirm title="Import from Git?" action="Import" busyAction="Queuing…" problem={importProblem} onClose={() => setImporting(false)}
          onConfirm={async () => {
            try {
              await runImport({ params: { spaceId: props.spaceId }, payload: target(state), reactivityKeys })
              setImporting(false)
              props.onStarted("Import queued.")
            } catch (error) {
              setImportProblem(problemOf(error, []).form)
            }
          }}>
          <p>The space's pages become those of {state.branch}{state.projectDirectory === "" ? "" : ` (${state.projectDirectory})`}, as a new revision; History keeps the pages as they are now.</p>
        </Confirm>
      ) : null}
    </>
  )
}
