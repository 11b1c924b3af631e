/**
 * A row that moves among its siblings: dragged by its handle onto a sibling's top or bottom half,
 * or from the keyboard with Alt+Up / Alt+Down while focus is in it, or by its Move buttons.
 */
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine"
import { draggable, dropTargetForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter"
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react"
import { dropPosition, edgeOf, type Position, stepPosition } from "../order.ts"

export interface MovableRowProps {
  readonly id: string
  readonly group: string
  readonly siblings: ReadonlyArray<string>
  readonly label: string
  readonly admin: boolean
  /** Moves a row of this list (this one, or one dropped on it) to `position`. */
  readonly onMove: (id: string, position: Position) => void
  readonly className?: string
  readonly children: ReactNode
  readonly actions?: ReactNode
  readonly testId?: string
}

export const MovableRow = (props: MovableRowProps) => {
  const row = useRef<HTMLDivElement>(null)
  const handle = useRef<HTMLSpanElement>(null)
  const [dragging, setDragging] = useState(false)
  const [edge, setEdge] = useState<"top" | "bottom" | undefined>(undefined)
  const { id, group, admin, onMove, siblings } = props
  const latest = useRef({ onMove, siblings })
  latest.current = { onMove, siblings }
  useEffect(() => {
    const element = row.current
    const dragHandle = handle.current
    if (!admin || element === null || dragHandle === null) return
    return combine(
      draggable({ element, dragHandle, getInitialData: () => ({ id, group }), onDragStart: () => setDragging(true), onDrop: () => setDragging(false) }),
      dropTargetForElements({
        element,
        canDrop: ({ source }) => source.data["group"] === group && source.data["id"] !== id,
        getData: ({ input }) => ({ id, edge: edgeOf(element, input.clientY) }),
        onDrag: ({ self }) => setEdge(self.data["edge"] as "top" | "bottom"),
        onDragLeave: () => setEdge(undefined),
        onDrop: ({ source, self }) => {
          setEdge(undefined)
          // The drop lands on this row; the row dragged is the one that moves.
          const dragged = String(source.data["id"])
          const position = dropPosition(latest.current.siblings, dragged, id, self.data["edge"] as "top" | "bottom")
          if (position !== undefined) latest.current.onMove(dragged, position)
        }
      })
    )
  }, [id, group, admin])
  // A row moved from the keyboard keeps the focus where it was once the new order is drawn.
  const refocus = useRef<HTMLElement | null>(null)
  const index = siblings.indexOf(id)
  useEffect(() => {
    const element = refocus.current
    refocus.current = null
    if (element !== null && element.isConnected && document.activeElement !== element) element.focus()
  }, [index])
  const step = (direction: -1 | 1) => {
    const position = stepPosition(siblings, id, direction)
    if (position === undefined) return
    refocus.current = document.activeElement instanceof HTMLElement && row.current?.contains(document.activeElement) === true ? document.activeElement : null
    onMove(id, position)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (!admin || !event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return
    event.preventDefault()
    event.stopPropagation()
    step(event.key === "ArrowUp" ? -1 : 1)
  }
  const className = ["site-row", props.className ?? "", dragging ? "dragging" : "", edge === undefined ? "" : `drop-${edge}`].filter(Boolean).join(" ")
  return (
    <div ref={row} className={className} onKeyDown={onKeyDown} data-testid={props.testId}>
      {admin ? <span ref={handle} className="drag-handle" aria-hidden="true" title="Drag to reorder">⋮⋮</span> : null}
      <div className="site-row-body">{props.children}</div>
      {admin ? (
        <div className="site-row-actions">
          {siblings.length > 1 ? (
            <>
              <button type="button" className="link" aria-label={`Move ${props.label} up`} aria-keyshortcuts="Alt+ArrowUp" disabled={index <= 0} onClick={() => step(-1)}>↑</button>
              <button type="button" className="link" aria-label={`Move ${props.label} down`} aria-keyshortcuts="Alt+ArrowDown" disabled={index === siblings.length - 1} onClick={() => step(1)}>↓</button>
            </>
          ) : null}
          {props.actions}
        </div>
      )
        : null}
    </div>
  )
}
