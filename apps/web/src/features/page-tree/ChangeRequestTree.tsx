/**
 * A change request's page tree, editable: add a page, a group or a link page, rename, delete, move
 * by drag (pragmatic-drag-and-drop with drag.ts's hitbox rules; dropped left of a parent's last
 * child, a page goes one level up) or from the keyboard ("Move to…", and Alt+Shift+arrows on a
 * row: up, down, outdent, indent).
 * Each edit's `updateChangeRequestContent` changes come from tree-model.ts; the screen sends them
 * (`onChanges`) and reads the tree again.
 */
import { draggable, dropTargetForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter"
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine"
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import { Link } from "../../ui/Link.tsx"
import { type Instruction, instructionAt, operationsFor, outdentPlacement, placementFor } from "./drag.ts"
import { addPage, type EditResult, find, flatten, fromApi, indentOf, move, moveChoices, outdentOf, type PageKind, type Placement, remove, rename, stepOf, type Tree, type TreePage } from "./tree-model.ts"
import "./change-request-tree.css"

const Glyph = (props: { readonly d: string }) => (
  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false"><path d={props.d} /></svg>
)
const RenameGlyph = () => <Glyph d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
const MoveGlyph = () => <Glyph d="M8 4v16M4 8l4-4 4 4M16 20V4M12 16l4 4 4-4" />
const DeleteGlyph = () => <Glyph d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6" />
const LinkGlyph = () => <Glyph d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />

/** One indentation level of the tree, in pixels (the rows' `1rem` per level). */
const indentPerLevel = 16

/** Alt+Shift+arrow on a row: where the page goes. */
const keyMoves: Readonly<Record<string, (tree: Tree, id: string) => Placement | null>> = {
  ArrowUp: (tree, id) => stepOf(tree, id, -1),
  ArrowDown: (tree, id) => stepOf(tree, id, 1),
  ArrowLeft: outdentOf,
  ArrowRight: indentOf
}

export interface TreeProps {
  readonly pages: ReadonlyArray<RevisionPage>
  /** `/s/<space>/~/changes/<n>`: a page's link is this plus its path. */
  readonly base: string
  readonly currentId?: string | undefined
  /** Shown beside a page's title (who else has it open, with live editing). */
  readonly marks?: ((pageId: string) => ReactNode) | undefined
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
  readonly hrefs: ReadonlyMap<string, string>
  readonly marks?: ((pageId: string) => ReactNode) | undefined
  /** Sends an edit's changes; `focus`: the page whose row keeps the focus once the tree is read again. */
  readonly apply: (result: EditResult, focus?: string) => void
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

const shortcuts = "Alt+Shift+ArrowUp Alt+Shift+ArrowDown Alt+Shift+ArrowLeft Alt+Shift+ArrowRight"

const Row = (props: { readonly page: TreePage; readonly depth: number; readonly actions: Actions }) => {
  const { page, actions } = props
  const ref = useRef<HTMLDivElement>(null)
  const [over, setOver] = useState<Instruction | null>(null)
  const [outdented, setOutdented] = useState(false)
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
          // Below a parent's last child, left of its level: one level up (after the ancestor at the pointer's level).
          const outdent = instruction?.operation === "reorder-after"
            ? outdentPlacement(actions.tree, dragged, page.id, input.clientX, { left: box.left, indentPerLevel })
            : null
          return { instruction: outdent === null ? instruction : { operation: "reorder-after", blocked: false }, outdent }
        },
        onDrag: ({ self }) => {
          setOver((self.data["instruction"] as Instruction | null) ?? null)
          setOutdented(self.data["outdent"] !== null)
        },
        onDragLeave: () => setOver(null),
        onDrop: ({ self, source }) => {
          setOver(null)
          const dragged = String(source.data["pageId"])
          const instruction = self.data["instruction"] as Instruction | null
          const outdent = self.data["outdent"] as Placement | null
          const placement = outdent ?? (instruction ? placementFor(actions.tree, dragged, page.id, instruction) : null)
          if (placement === null) return
          actions.apply(move(actions.tree, dragged, placement), dragged)
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
  const indicator = over === null ? "" : over.blocked ? " drop-blocked" : ` drop-${over.operation}${outdented ? " drop-outdent" : ""}`
  const onKeyDown = (event: KeyboardEvent) => {
    const to = event.altKey && event.shiftKey ? keyMoves[event.key] : undefined
    if (to === undefined || mode !== "idle") return
    event.preventDefault()
    const placement = to(actions.tree, page.id)
    if (placement !== null) actions.apply(move(actions.tree, page.id, placement), page.id)
  }
  const kindClass = page.kind === "document" ? "" : ` cr-tree-${page.kind}`
  const href = actions.hrefs.get(page.id)
  return (
    <li>
      <div ref={ref} className={`cr-tree-row${kindClass}${indicator}`} data-page-id={page.id} style={{ paddingInlineStart: `${props.depth * 1}rem` }}
        onKeyDown={onKeyDown}>
        {mode === "rename"
          ? (
            <form onSubmit={onRename} className="cr-tree-rename">
              <input aria-label={`New title of ${page.title}`} value={title} onChange={(e) => setTitle(e.target.value)} autoFocus />
              <button type="submit">Save</button>
              <button type="button" onClick={() => setMode("idle")}>Cancel</button>
            </form>
          )
          : page.kind === "document" && path !== undefined
          ? <Link draggable={false} href={`${actions.base}/${path}`} aria-current={page.id === actions.currentId ? "page" : undefined} aria-keyshortcuts={shortcuts}>{page.emoji ?? ""} {page.title}</Link>
          : page.kind === "link"
          ? <span className="cr-tree-label" title={href}><LinkGlyph /> {page.title}<span className="visually-hidden">, link to {href ?? "a page"}</span></span>
          : <span className="cr-tree-label">{page.title}<span className="visually-hidden">, group</span></span>}
        {mode === "rename" ? null : actions.marks?.(page.id)}
        {mode === "idle" ? (
          <span className="cr-tree-actions">
            <button type="button" onClick={() => { setTitle(page.title); setMode("rename") }} aria-label={`Rename ${page.title}`} title="Rename"><RenameGlyph /></button>
            <button type="button" onClick={() => setMode("move")} aria-label={`Move ${page.title} to…`} title="Move to… (or Alt+Shift+arrows)" aria-keyshortcuts={shortcuts}><MoveGlyph /></button>
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

const hrefsOf = (pages: ReadonlyArray<RevisionPage>, into = new Map<string, string>()) => {
  for (const page of pages) {
    const target = page.href ?? (page.target?.kind === "url" ? page.target.url : undefined)
    if (page.type === "link" && target !== undefined) into.set(page.id, target)
    hrefsOf(page.pages ?? [], into)
  }
  return into
}

/** The add form: a title, then a page, a group, or a link (which asks for its URL first). */
const AddForm = (props: { readonly tree: Tree; readonly busy: boolean; readonly apply: Actions["apply"]; readonly onRefused: (reason: string) => void }) => {
  const [title, setTitle] = useState("")
  const [href, setHref] = useState("")
  const [linking, setLinking] = useState(false)
  const listId = useId()
  const add = (kind: PageKind) => {
    const result = addPage(props.tree, { kind, title, parent: null, ref: `new-${props.tree.length}-${title.length}`, ...(kind === "link" ? { href } : {}) })
    if (!result.ok) return props.onRefused(result.reason)
    setTitle("")
    setHref("")
    setLinking(false)
    props.apply(result)
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    add(linking ? "link" : "document")
  }
  const empty = title.trim() === ""
  return (
    <form className="cr-tree-add" onSubmit={onSubmit} onKeyDown={(e) => { if (e.key === "Escape" && linking) setLinking(false) }}>
      <input aria-label="New page title" placeholder="New page title" value={title} onChange={(e) => setTitle(e.target.value)} />
      {linking
        ? (
          <>
            <input aria-label="Link URL" placeholder="https://… or a page's title" value={href} onChange={(e) => setHref(e.target.value)} autoFocus list={`${listId}-pages`} />
            <datalist id={`${listId}-pages`}>
              {flatten(props.tree).filter((l) => l.page.kind === "document").map((l) => <option key={l.page.id} value={l.page.title} />)}
            </datalist>
            <button type="submit" disabled={props.busy || empty}>Add link</button>
            <button type="button" onClick={() => setLinking(false)}>Cancel</button>
          </>
        )
        : (
          <>
            <button type="submit" disabled={props.busy || empty}>Add page</button>
            <button type="button" disabled={props.busy || empty} onClick={() => add("group")}>Add group</button>
            <button type="button" disabled={props.busy || empty} onClick={() => setLinking(true)}>Add link…</button>
          </>
        )}
    </form>
  )
}

export const ChangeRequestTree = (props: TreeProps) => {
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const [focusId, setFocusId] = useState<string | undefined>(undefined)
  const [moved, setMoved] = useState("")
  // A moved row is drawn anew under its new parent: the focus follows it once the tree is read again.
  useEffect(() => {
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
  const actions: Actions = { tree, paths, hrefs: hrefsOf(props.pages), base: props.base, currentId: props.currentId, marks: props.marks, apply }
  return (
    <div className="cr-tree" aria-busy={busy} ref={root}>
      <ul>{tree.map((page) => <Row key={page.id} page={page} depth={0} actions={actions} />)}</ul>
      <AddForm tree={tree} busy={busy} apply={apply} onRefused={setError} />
      {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
      <p className="visually-hidden" role="status" aria-live="polite">{moved}</p>
      <p className="cr-tree-hint muted">Drag to move; on a row, Alt+Shift+arrows move it up, down, out or in.</p>
    </div>
  )
}
