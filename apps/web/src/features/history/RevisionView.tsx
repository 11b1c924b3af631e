/** One revision: what it changed, its pages, a changed page's diff against the parent revision, and "Restore this revision". */
import { AsyncResult } from "effect/reactivity"
import { lazy, Suspense, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useAtomValue, useRegistry } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { appPath, Link } from "../../ui/Link.tsx"
import { Failure, Loading } from "../../ui/States.tsx"
import { pageSidesAtom, revisionAtom } from "./queries.ts"
import { restoreRevision } from "./restore.ts"
import { describeChange } from "./wording.ts"
import { flattenPages, PageTree } from "../space/PageTree.tsx"
import "../space/space.css"
import "../review/review.css"
import { formatTime } from "../../ui/time.ts"

// The diff (ProseMirror schema, markdown codec) loads on demand.
const DiffView = lazy(() => import("../review/DiffView.tsx").then((module) => ({ default: module.DiffView })))

const PageDiff = (props: { readonly spaceId: string; readonly revisionId: string; readonly parentId: string; readonly pageId: string }) => {
  const sides = useAtomValue(pageSidesAtom(`${props.spaceId}\n${props.revisionId}\n${props.parentId}\n${props.pageId}`))
  if (AsyncResult.isInitial(sides)) return <Loading what="the diff" />
  if (AsyncResult.isFailure(sides)) return <Failure result={sides} />
  if (sides.value.base === sides.value.head) return <p className="muted">This page's content did not change in this revision.</p>
  return (
    <div className="revision-diff">
      <Suspense fallback={<Loading what="the diff" />}>
        <DiffView base={sides.value.base} head={sides.value.head} files={sides.value.files} />
      </Suspense>
    </div>
  )
}

const Restore = (props: { readonly spaceId: string; readonly revisionId: string; readonly label: string }) => {
  const registry = useRegistry()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const run = () => {
    setBusy(true)
    setError(undefined)
    const atom = QuireApi.runtime.fn(() => restoreRevision(props.spaceId, props.revisionId, props.label))
    const unmount = registry.mount(atom)
    const unsubscribe = registry.subscribe(atom, (result) => {
      if (result.waiting || AsyncResult.isInitial(result)) return
      queueMicrotask(() => { unsubscribe(); unmount() })
      if (AsyncResult.isSuccess(result)) navigate(appPath(result.value))
      else { setBusy(false); setError("Could not restore this revision: the change request could not be opened. Try again, or ask an administrator if you may edit this space.") }
    })
    registry.set(atom, undefined)
  }
  return (
    <p>
      <button type="button" className="button" onClick={run} disabled={busy} aria-busy={busy}>{busy ? "Restoring…" : "Restore this revision"}</button>
      {error === undefined ? null : <span role="alert" className="form-error"> {error}</span>}
    </p>
  )
}

export const RevisionView = (props: { readonly spaceId: string; readonly revisionId: string; readonly pagePath: string }) => {
  const result = useAtomValue(revisionAtom(`${props.spaceId}\n${props.revisionId}`))
  if (AsyncResult.isInitial(result)) return <Loading what="the revision" />
  if (AsyncResult.isFailure(result)) return <Failure result={result} />
  const { revision, changes } = result.value
  const label = `the revision of ${formatTime(revision.createdAt)}`
  const all = flattenPages(revision.pages)
  const edited = changes.changes.flatMap((change) => "page" in change && change.type !== "page_moved" ? [change.page] : [])
  const chosen = props.pagePath === "" ? edited[0] : all.find((page) => page.path === props.pagePath) ?? edited.find((page) => page.path === props.pagePath)
  const base = `/s/${props.spaceId}/~/revisions/${props.revisionId}`
  // A page this revision created has no parent side to read.
  const created = new Set(changes.changes.flatMap((change) => change.type === "page_created" ? [change.page.id] : []))
  return (
    <>
      <p className="muted">
        {formatTime(revision.createdAt)}
        {changes.mergedFrom === undefined ? null : <> · merged <Link href={appPath(changes.mergedFrom.urls.app)}>#{changes.mergedFrom.number} {changes.mergedFrom.subject}</Link> by {changes.mergedFrom.createdBy.displayName}</>}
      </p>
      <Restore spaceId={props.spaceId} revisionId={props.revisionId} label={label} />
      <section aria-labelledby="rev-changes">
        <h2 id="rev-changes">Changes</h2>
        {changes.changes.length === 0 ? <p className="muted">No page changes.</p>
          : <ul>{changes.changes.map((change, index) => (
            <li key={index}>{"page" in change && change.page.path !== undefined && change.type !== "page_deleted"
              ? <Link href={`${base}/${change.page.path}`}>{describeChange(change)}</Link> : describeChange(change)}</li>
          ))}</ul>}
      </section>
      <div className="space-layout">
        <nav aria-label="Pages in this revision"><PageTree pages={revision.pages} hrefOf={(page) => `${base}/${page.path}`} current={chosen?.id} /></nav>
        <section aria-labelledby="rev-diff">
          <h2 id="rev-diff">{chosen === undefined ? "No page chosen" : chosen.title}</h2>
          {chosen === undefined ? <p className="muted">Choose a page to see what this revision changed in it.</p>
            : <PageDiff spaceId={props.spaceId} revisionId={props.revisionId} parentId={created.has(chosen.id) ? "" : revision.parents[0] ?? ""} pageId={chosen.id} />}
        </section>
      </div>
    </>
  )
}
