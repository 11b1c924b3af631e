/**
 * A change request's page tree, editable: add a page, a group or a link page, rename, delete, move
 * by drag (pragmatic-drag-and-drop with drag.ts's hitbox rules; dropped left of a parent's last
 * child, a page goes one level up) or from the keyboard ("Move to…", and Alt+Shift+arrows on a
 * row: up, down, outdent, indent).
 * Each edit's `updateChangeRequestContent` changes come from tree-model.ts; the screen sends them
 * (`onChanges`) and reads the tree again.
 * Not `editable` (a merged or archived change request): only its links, to open its pages; no add
 * form, row actions, drag or key moves, which would only be refused.
 */
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"
import { type ReactNode, useLayoutEffect, useRef, useState } from "react"
import { type EditResult, find, fromApi } from "./tree-model.ts"
import { pathsOf, hrefsOf, type Actions } from "./tree/actions.ts"
import { TreeRow } from "./tree/TreeRow.tsx"
import { AddForm } from "./tree/AddForm.tsx"
import "./change-request-tree.css"

export interface TreeProps {
  readonly pages: ReadonlyArray<RevisionPage>
  /** `/s/<space>/~/changes/<n>`: a page's link is this plus its path. */
  readonly base: string
  readonly currentId?: string | undefined
  /** Shown beside a page's title (who else has it open, with live editing). */
  readonly marks?: ((pageId: string) => ReactNode) | undefined
  /** Sends the changes; rejects with the reason in words. */
  readonly onChanges: (changes: ReadonlyArray<ChangeRequestContentChange>) => Promise<void>
  /** False: the tree is shown to be read, without the means to change it. True unless said. */
  readonly editable?: boolean | undefined
}

export const ChangeRequestTree = (props: TreeProps) => {
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const [focusId, setFocusId] = useState<string | undefined>(undefined)
  const [moved, setMoved] = useState("")
  // A moved row is drawn anew under its new parent: the focus follows it once the tree is read again,
  // in the same commit that clears aria-busy, so a key pressed once the tree is idle lands where it
  // was aimed rather than on a row the focus jumps to a moment later.
  useLayoutEffect(() => {
    if (focusId === undefined) return
    const row = root.current?.querySelector<HTMLElement>(`[data-page-id="${CSS.escape(focusId)}"]`)
    row?.querySelector<HTMLElement>("a, button")?.focus()
    const moved = find(fromApi(props.pages), focusId)
    if (moved) setMoved(`Moved “${moved.page.title}” ${moved.parent === null ? "to the top level" : `into “${moved.parent.title}”`}, position ${moved.index + 1}.`)
    setFocusId(undefined)
  }, [focusId, props.pages])
  const tree = fromApi(props.pages)
  const paths = pathsOf(props.pages)
  const apply = (result: EditResult, focus?: string) => {
    if (!result.ok) return setError(result.reason)
    if (result.changes.length === 0) return
    setError(undefined)
    setBusy(true)
    props.onChanges(result.changes).then(
      () => {
        setBusy(false)
        if (focus !== undefined) setFocusId(focus)
      },
      (failure: unknown) => {
        setBusy(false)
        setError(failure instanceof Error ? failure.message : String(failure))
      }
    )
  }
  const editable = props.editable !== false
  const actions: Actions = { tree, paths, hrefs: hrefsOf(props.pages), base: props.base, currentId: props.currentId, marks: props.marks, apply, editable }
  return (
    <div className="cr-tree" aria-busy={busy} ref={root}>
      <ul>{tree.map((page) => <TreeRow key={page.id} page={page} depth={0} actions={actions} />)}</ul>
      {editable ? <AddForm tree={tree} busy={busy} apply={apply} onRefused={setError} /> : null}
      {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
      <p className="visually-hidden" role="status" aria-live="polite">{moved}</p>
      {editable ? <p className="cr-tree-hint muted">Drag to move; on a row, Alt+Shift+arrows move it up, down, out or in.</p> : null}
    </div>
  )
}
