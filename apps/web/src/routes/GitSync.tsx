/**
 * `/s/<space>/~/git`: the space's Git sync. The repository, branch, directory and whether
 * credentials are stored; for admins, connect, change or disconnect; Import and Export with their
 * progress (the state is polled while a run is under way) and the last runs' outcomes; for admins
 * the push webhook. Loaded with `import()` (App.tsx), with its stylesheet.
 */
import type { GitSyncState } from "@quire/api"
import { AsyncResult, Atom } from "effect/reactivity"
import { useEffect, useRef, useState } from "react"
import { usePolling } from "../api/polling.ts"
import { pagesAtom, spaceAtom } from "../api/queries.ts"
import { useAtomValue, useMutation, useRefresh } from "../api/react.ts"
import { problemOf } from "../features/admin/problems.ts"
import { Confirm } from "../features/admin/ui.tsx"
import { ConnectForm } from "../features/gitsync/ConnectForm.tsx"
import { adviceOf, anyActive, latestRun, runHeadline } from "../features/gitsync/model.ts"
import { disconnectGit, gitInfoAtom } from "../features/gitsync/queries.ts"
import { SyncRuns } from "../features/gitsync/SyncRuns.tsx"
import { Webhook } from "../features/gitsync/Webhook.tsx"
import "../features/gitsync/gitsync.css"
import { Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"

const noInfo: Atom.Atom<AsyncResult.AsyncResult<GitSyncState, unknown>> = Atom.make(AsyncResult.initial<GitSyncState, unknown>())

/** The connection as it stands; the field the last failed run is about carries its words. */
const Summary = (props: { readonly state: GitSyncState }) => {
  const { state } = props
  const latest = latestRun(state)
  const at = latest === undefined ? undefined : adviceOf(latest.run).field
  const failed = (field: string) =>
    latest !== undefined && at === field
      ? <p className="field-error">The last {latest.kind} failed here: {adviceOf(latest.run).advice}</p>
      : null
  return (
    <dl className="admin-facts git-facts">
      <dt>Repository</dt>
      <dd><code>{state.url}</code>{failed("url")}</dd>
      <dt>Branch</dt>
      <dd><code>{state.branch}</code>{failed("branch")}</dd>
      <dt>Directory</dt>
      <dd>{state.projectDirectory === "" ? <span className="muted">the whole repository</span> : <code>{state.projectDirectory}</code>}</dd>
      <dt>Credentials</dt>
      <dd>{state.credentials ? "Stored, never shown" : <span className="muted">None (a public repository)</span>}{failed("credentials")}</dd>
      <dt>Automatic sync</dt>
      <dd>{state.connected ? "Merges are exported; pushes with the webhook are imported" : "Off"}</dd>
    </dl>
  )
}

export const GitSync = (props: { readonly spaceId: string }) => {
  const { spaceId } = props
  const space = useAtomValue(spaceAtom(spaceId))
  // A space with a repository says so in its `gitSync`; only then is there a state to read (else a 404).
  const hasRepository = AsyncResult.isSuccess(space) && space.value.gitSync !== undefined
  const info = useAtomValue<AsyncResult.AsyncResult<GitSyncState, unknown>>(hasRepository ? gitInfoAtom(spaceId) : noInfo)
  const refresh = useRefresh()
  const disconnect = useMutation(disconnectGit)
  const [editing, setEditing] = useState(false)
  const [disconnecting, setDisconnecting] = useState(false)
  const [disconnectProblem, setDisconnectProblem] = useState<string | undefined>(undefined)
  const [status, setStatus] = useState("")
  const state = hasRepository && AsyncResult.isSuccess(info) ? info.value : undefined
  const active = anyActive(state)

  // Live progress: the state read again every second while a run is queued or running.
  usePolling(gitInfoAtom(spaceId), active)
  // A run that ended may have changed the pages: the space's screens read them again.
  const wasActive = useRef(false)
  useEffect(() => {
    if (wasActive.current && !active) {
      refresh(pagesAtom(spaceId))
      refresh(spaceAtom(spaceId))
      const latest = state === undefined ? undefined : latestRun(state)
      if (latest !== undefined) setStatus(`${latest.kind === "import" ? "Import" : "Export"}: ${runHeadline(latest.kind, latest.run)}.`)
    }
    wasActive.current = active
  }, [active, refresh, spaceId, state])

  const crumbs = (
    <p className="crumbs">
      <Link href={`/s/${spaceId}`}>{AsyncResult.isSuccess(space) ? space.value.title || "Untitled space" : "Space"}</Link> / Git sync
    </p>
  )
  if (AsyncResult.isFailure(space)) return <div className="git-screen">{crumbs}<h1>Git sync</h1><Failure result={space} /></div>
  if (!AsyncResult.isSuccess(space) || (hasRepository && AsyncResult.isInitial(info))) {
    return <div className="git-screen">{crumbs}<h1>Git sync</h1><Loading what="the Git sync" /></div>
  }
  if (AsyncResult.isFailure(info)) return <div className="git-screen">{crumbs}<h1>Git sync</h1><Failure result={info} /></div>
  const { permissions } = space.value
  const admin = permissions.admin
  return (
    <div className="git-screen">
      {crumbs}
      <h1>Git sync</h1>
      <p className="muted">Keep this space's pages in a Git repository as markdown, in GitBook's layout: import a branch into the space, export the space as one commit.</p>
      <span className="status" role="status">{status}</span>
      <section aria-labelledby="git-repository-heading" className="admin-section">
        <h2 id="git-repository-heading">Repository</h2>
        {state === undefined && !editing ? (
          admin ? <ConnectForm spaceId={spaceId} organizationId={space.value.organization} state={undefined} onDone={setStatus} />
            : <p>This space is not connected to a Git repository. An administrator of the space can connect one.</p>
        ) : editing || state === undefined ? (
          <ConnectForm spaceId={spaceId} organizationId={space.value.organization} state={state} onDone={(message) => { setStatus(message); setEditing(false) }} onCancel={() => setEditing(false)} />
        ) : (
          <>
            <Summary state={state} />
            {admin ? (
              <div className="toolbar">
                <button type="button" onClick={() => { setStatus(""); setEditing(true) }}>Change the connection</button>
                <button type="button" className="danger" onClick={() => { setDisconnectProblem(undefined); setDisconnecting(true) }}>Disconnect</button>
              </div>
            ) : null}
          </>
        )}
      </section>
      {state === undefined ? null : (
        <section aria-labelledby="git-sync-heading" className="admin-section">
          <h2 id="git-sync-heading">Import and export</h2>
          <SyncRuns spaceId={spaceId} state={state} canSync={permissions.triggerGitSync || admin} onStarted={setStatus} />
        </section>
      )}
      {state === undefined || !admin ? null : (
        <section aria-labelledby="git-webhook-heading" className="admin-section">
          <h2 id="git-webhook-heading">Webhook</h2>
          <Webhook spaceId={spaceId} state={state} />
        </section>
      )}
      {disconnecting ? (
        <Confirm title="Disconnect from Git?" action="Disconnect" busyAction="Disconnecting…" problem={disconnectProblem} onClose={() => setDisconnecting(false)}
          onConfirm={async () => {
            try {
              // Only the space: its `gitSync` gone, the state and the webhook are no longer read (they would be 404s).
              await disconnect({ params: { spaceId }, reactivityKeys: [`space:${spaceId}`] })
              setDisconnecting(false)
              setStatus("Disconnected.")
            } catch (error) {
              setDisconnectProblem(problemOf(error, []).form)
            }
          }}>
          <p>The pages stay as they are. Merges are no longer exported, the webhook stops working, and the stored credentials and the last runs are forgotten.</p>
        </Confirm>
      ) : null}
    </div>
  )
}
