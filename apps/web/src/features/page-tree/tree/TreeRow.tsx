/** A page of the tree: its link, rename, delete, "Move to…" and its drag handle, Alt+Shift+arrows to move it; its children below. */
import { draggable, dropTargetForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter"
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine"
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react"
import { Link } from "../../../ui/Link.tsx"
import { type Instruction, instructionAt, operationsFor, outdentPlacement, placementFor } from "../drag.ts"
import { move, type Placement, remove, rename, type TreePage } from "../tree-model.ts"
import { RenameGlyph, MoveGlyph, DeleteGlyph, LinkGlyph } from "./glyphs.tsx"
import { indentPerLevel, keyMoves, shortcuts, type Actions } from "./actions.ts"
import { MoveTo } from "./MoveTo.tsx"

export interface TreeRowProps {
  readonly page: TreePage
  readonly depth: number
  readonly actions: Actions
}

export const TreeRow = (props: TreeRowProps) => {
  const { page, actions } = props
  const ref = useRef<HTMLDivElement>(null)
  const [over, setOver] = useState<Instruction | null>(null)
  const [outdented, setOutdented] = useState(false)
  const [mode, setMode] = useState<"idle" | "rename" | "move">("idle")
  const [title, setTitle] = useState(page.title)
  useEffect(() => {
    const element = ref.current
    if (!element || !actions.editable) return
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
    if (to === undefined || mode !== "idle" || !actions.editable) return
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
          ? <Link draggable={false} href={`${actions.base}/${path}`} aria-current={page.id === actions.currentId ? "page" : undefined} aria-keyshortcuts={actions.editable ? shortcuts : undefined}>{page.emoji ?? ""} {page.title}</Link>
          : page.kind === "link"
          ? <span className="cr-tree-label" title={href}><LinkGlyph /> {page.title}<span className="visually-hidden">, link to {href ?? "a page"}</span></span>
          : <span className="cr-tree-label">{page.title}<span className="visually-hidden">, group</span></span>}
        {mode === "rename" ? null : actions.marks?.(page.id)}
        {mode === "idle" && actions.editable ? (
          <span className="cr-tree-actions">
            <button type="button" onClick={() => { setTitle(page.title); setMode("rename") }} aria-label={`Rename ${page.title}`} title="Rename"><RenameGlyph /></button>
            <button type="button" onClick={() => setMode("move")} aria-label={`Move ${page.title} to…`} title="Move to… (or Alt+Shift+arrows)" aria-keyshortcuts={shortcuts}><MoveGlyph /></button>
            <button type="button" onClick={() => { if (window.confirm(`Delete “${page.title}” and its subpages from this change request?`)) actions.apply(remove(actions.tree, page.id)) }} aria-label={`Delete ${page.title}`} title="Delete"><DeleteGlyph /></button>
          </span>
        ) : null}
      </div>
      {mode === "move" ? <MoveTo page={page} actions={actions} onClose={() => setMode("idle")} /> : null}
      {page.children.length === 0 ? null : (
        <ul>{page.children.map((child) => <TreeRow key={child.id} page={child} depth={props.depth + 1} actions={actions} />)}</ul>
      )}
    </li>
  )
}
