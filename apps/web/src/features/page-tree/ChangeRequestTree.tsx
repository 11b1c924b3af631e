/**
 * A change request's page tree, editable: add a page, rename, delete, move by drag
 * (pragmatic-drag-and-drop with drag.ts's hitbox rules) or from the keyboard ("Move to…").
 * Each edit's `updateChangeRequestContent` changes come from tree-model.ts; the screen sends them
 * (`onChanges`) and reads the tree again.
 */
import { draggable, dropTargetForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter"
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine"
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { Link } from "../../ui/Link.tsx"
import { type Instruction, instructionAt, operationsFor, placementFor } from "./drag.ts"
import { addPage, type EditResult, fromApi, move, moveChoices, remove, rename, type Tree, type TreePage } from "./tree-model.ts"
import "./change-request-tree.css"

const Glyph = (props: { readonly d: string }) => (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false"><path d={props.d} /></svg>
)
const RenameGlyph = () => <Glyph d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
const MoveGlyph = () => <Glyph d="M8 4v16M4 8l4-4 4 4M16 20V4M12 16l4 4 4-4" />
const DeleteGlyph = () => <Glyph d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6" />

export interface TreeProps {
  readonly pages: ReadonlyArray<RevisionPage>
  /** `/s/<space>/~/changes/<n>`: a page's link is this plus its path. */
  readonly base: string
  readonly currentId?: string | undefined
  /** Sends the changes; rejects with the reason in words. */
  readonly onChanges: (changes: ReadonlyArray<ChangeRequestContentChange>) => Promise<void>
}

const pathsOf = (pages: ReadonlyArray<RevisionPage>, into = new Map<string, string>()) => {
  for (const page of pages) {
    if (page.path !== undefined) into.set(page.id, page.path)
    pathsOf(page.pages ?? [], into)
  }
  return into
}

interface Actions {
  readonly tree: Tree
  readonly paths: ReadonlyMap<string, string>
  readonly base: string
  readonly currentId?: string | undefined
  readonly apply: (result: EditResult) => void
}

/** The keyboard's "Move to…": a place chosen in a list (arrows do not move the page), then "Move". */
const MoveTo = (props: { readonly page: TreePage; readonly actions: Actions; readonly onClose: () => void }) => {
  const choices = moveChoices(props.actions.tree, props.page.id)
  const [chosen, setChosen] = useState("")
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const choice = choices[Number(chosen)]
    if (chosen === "" || choice === undefined || choice.current) return
    props.onClose()
    props.actions.apply(move(props.actions.tree, props.page.id, choice.placement))
  }
  return (
    <form className="cr-tree-move" onSubmit={onSubmit} onKeyDown={(e) => { if (e.key === "Escape") props.onClose() }}>
      <label>
        Move “{props.page.title}” to
        <select autoFocus value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="" disabled>Choose a place…</option>
          {choices.map((choice, index) => (
            <option key={index} value={index} disabled={choice.current}>{choice.label}{choice.current ? " (here now)" : ""}</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={chosen === ""}>Move</button>
      <button type="button" onClick={props.onClose}>Cancel</button>
    </form>
  )
}

const Row = (props: { readonly page: TreePage; readonly depth: number; readonly actions: Actions }) => {
  const { page, actions } = props
  const ref = useRef<HTMLDivElement>(null)
  const [over, setOver] = useState<Instruction | null>(null)
  const [mode, setMode] = useState<"idle" | "rename" | "move">("idle")
  const [title, setTitle] = useState(page.title)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    return combine(
      draggable({ element, getInitialData: () => ({ pageId: page.id }) }),
      dropTargetForElements({
        element,
        getData: ({ input, source }) => {
          const dragged = String(source.data["pageId"])
          const box = element.getBoundingClientRect()
          const instruction = instructionAt(input.clientY, box, operationsFor(actions.tree, dragged, page.id))
          return { instruction }
        },
        onDrag: ({ self }) => setOver((self.data["instruction"] as Instruction | null) ?? null),
        onDragLeave: () => setOver(null),
        onDrop: ({ self, source }) => {
          setOver(null)
          const instruction = self.data["instruction"] as Instruction | null
          if (!instruction) return
          const placement = placementFor(actions.tree, String(source.data["pageId"]), page.id, instruction)
          if (placement === null) return
          actions.apply(move(actions.tree, String(source.data["pageId"]), placement))
        }
      })
    )
  }, [page.id, actions])
  const path = actions.paths.get(page.id)
  const onRename = (event: FormEvent) => {
    event.preventDefault()
    setMode("idle")
    actions.apply(rename(actions.tree, page.id, title))
  }
  const indicator = over === null ? "" : over.blocked ? " drop-blocked" : ` drop-${over.operation}`
  return (
    <li>
      <div ref={ref} className={`cr-tree-row${indicator}`} style={{ paddingInlineStart: `${props.depth * 1}rem` }}>
        {mode === "rename"
          ? (
            <form onSubmit={onRename} className="cr-tree-rename">
              <input aria-label={`New title of ${page.title}`} value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
              <button type="submit">Save</button>
              <button type="button" onClick={() => setMode("idle")}>Cancel</button>
            </form>
          )
          : page.kind === "document" && path !== undefined
          ? <Link draggable={false} href={`${actions.base}/${path}`} aria-current={page.id === actions.currentId ? "page" : undefined}>{page.emoji ?? ""} {page.title}</Link>
          : <span className="cr-tree-label">{page.title}</span>}
        {mode === "idle" ? (
          <span className="cr-tree-actions">
            <button type="button" onClick={() => { setTitle(page.title); setMode("rename") }} aria-label={`Rename ${page.title}`} title="Rename"><RenameGlyph /></button>
            <button type="button" onClick={() => setMode("move")} aria-label={`Move ${page.title} to…`} title="Move to…"><MoveGlyph /></button>
            <button type="button" onClick={() => { if (window.confirm(`Delete “${page.title}” and its subpages from this change request?`)) actions.apply(remove(actions.tree, page.id)) }} aria-label={`Delete ${page.title}`} title="Delete"><DeleteGlyph /></button>
          </span>
        ) : null}
      </div>
      {mode === "move" ? <MoveTo page={page} actions={actions} onClose={() => setMode("idle")} /> : null}
      {page.children.length === 0 ? null : (
        <ul>{page.children.map((child) => <Row key={child.id} page={child} depth={props.depth + 1} actions={actions} />)}</ul>
      )}
    </li>
  )
}

export const ChangeRequestTree = (props: TreeProps) => {
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [newTitle, setNewTitle] = useState("")
  const tree = fromApi(props.pages)
  const paths = pathsOf(props.pages)
  const apply = (result: EditResult) => {
    if (!result.ok) return setError(result.reason)
    if (result.changes.length === 0) return
    setError(undefined)
    setBusy(true)
    props.onChanges(result.changes).then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false)
        setError(failure instanceof Error ? failure.message : String(failure))
      }
    )
  }
  const actions: Actions = { tree, paths, base: props.base, currentId: props.currentId, apply }
  const onAdd = (event: FormEvent) => {
    event.preventDefault()
    const result = addPage(tree, { kind: "document", title: newTitle, parent: null, ref: `new-${tree.length}-${newTitle.length}` })
    if (result.ok) setNewTitle("")
    apply(result)
  }
  return (
    <div className="cr-tree" aria-busy={busy}>
      <ul>{tree.map((page) => <Row key={page.id} page={page} depth={0} actions={actions} />)}</ul>
      <form className="cr-tree-add" onSubmit={onAdd}>
        <input aria-label="New page title" placeholder="New page title" value={newTitle} onChange={(e) => setNewTitle(e.target.value)} />
        <button type="submit" disabled={busy || newTitle.trim() === ""}>Add page</button>
      </form>
      {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
    </div>
  )
}
