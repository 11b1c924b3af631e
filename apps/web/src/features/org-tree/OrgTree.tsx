/**
 * The organization's spaces and collections as a tree: rename and emoji in place, reorder and
 * move by drag (pragmatic-drag-and-drop) or by the keyboard's "Move to…" dialog. Every move is
 * computed by tree-model.ts and sent as one `moveSpace` / `moveCollection`; the tree shows the
 * result at once and settles on the API's answer (../../ui/useShownMove.ts).
 */
import { draggable, dropTargetForElements, monitorForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter"
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { orgKey, QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { FolderIcon, SpaceIcon } from "../../ui/icons.tsx"
import { Link } from "../../ui/Link.tsx"
import { useShownMove } from "../../ui/useShownMove.ts"
import { emojiOf } from "../palette/Palette.tsx"
import { applyMove, type DropTarget, moveDestinations, moveOperation, type MovePayload, type TreeNode } from "./tree-model.ts"
import { EmptyState } from "../../ui/EmptyState.tsx"

const moveSpace = QuireApi.mutation("spaces", "moveSpace")
const moveCollection = QuireApi.mutation("collections", "moveCollection")
const updateSpace = QuireApi.mutation("spaces", "updateSpaceById")
const updateCollection = QuireApi.mutation("collections", "updateCollectionById")

type Zone = "before" | "after" | "inside"

/** The part of a row the pointer is over: its top or bottom quarter, else its middle (inside a collection). */
const zoneOf = (element: Element, clientY: number, collection: boolean): Zone => {
  const rect = element.getBoundingClientRect()
  const ratio = (clientY - rect.top) / Math.max(rect.height, 1)
  if (collection) return ratio < 0.25 ? "before" : ratio > 0.75 ? "after" : "inside"
  return ratio < 0.5 ? "before" : "after"
}

const targetOf = (node: TreeNode, zone: Zone): DropTarget =>
  zone === "inside" ? { type: "inside", parent: node.id } : { type: zone, id: node.id }

/** What the tree's rows share: the tree, the organization, the calls that change it. */
interface TreeActions {
  readonly tree: ReadonlyArray<TreeNode>
  readonly organizationId: string
  readonly move: (id: string, target: DropTarget) => void
  readonly openMoveDialog: (node: TreeNode) => void
  readonly say: (message: string) => void
}

const Row = (props: { readonly node: TreeNode; readonly actions: TreeActions }) => {
  const { node, actions } = props
  const row = useRef<HTMLDivElement>(null)
  const [dragging, setDragging] = useState(false)
  const [zone, setZone] = useState<Zone | undefined>(undefined)
  const [editing, setEditing] = useState<"title" | "emoji" | undefined>(undefined)
  const [draft, setDraft] = useState("")
  const saveSpace = useMutation(updateSpace)
  const saveCollection = useMutation(updateCollection)
  // Renaming and moving need the space's or collection's admin permission: nothing the API would refuse is offered.
  const manage = node.manage !== false

  useEffect(() => {
    const element = row.current
    if (element === null) return
    return combine(
      draggable({
        element,
        canDrag: () => manage,
        getInitialData: () => ({ id: node.id }),
        onDragStart: () => setDragging(true),
        onDrop: () => setDragging(false)
      }),
      dropTargetForElements({
        element,
        canDrop: ({ source }) => source.data["id"] !== node.id,
        getData: ({ input }) => ({ id: node.id, zone: zoneOf(element, input.clientY, node.kind === "collection") }),
        onDrag: ({ self }) => setZone(self.data["zone"] as Zone),
        onDragLeave: () => setZone(undefined),
        onDrop: () => setZone(undefined)
      })
    )
  }, [node.id, node.kind, manage])

  const startEditing = (what: "title" | "emoji") => {
    setDraft(what === "title" ? node.title : emojiOf(node.emoji))
    setEditing(what)
  }
  const save = async (event: FormEvent) => {
    event.preventDefault()
    const what = editing
    setEditing(undefined)
    const value = draft.trim()
    if (what === undefined || (what === "title" && (value === "" || value === node.title))) return
    const reactivityKeys = [orgKey(actions.organizationId)]
    try {
      if (node.kind === "space") {
        await saveSpace({ params: { spaceId: node.id }, payload: what === "title" ? { title: value } : { emoji: value === "" ? null : value }, reactivityKeys })
      } else {
        await saveCollection({ params: { collectionId: node.id }, payload: { title: value }, reactivityKeys })
      }
      actions.say(what === "title" ? `Renamed to ${value}` : `Emoji of ${node.title} changed`)
    } catch (error) {
      actions.say(`Could not save: ${messageOf(error)}`)
    }
  }
  const label = node.kind === "space" ? "space" : "collection"
  const className = ["tree-row", dragging ? "dragging" : "", zone === undefined ? "" : `drop-${zone}`].filter(Boolean).join(" ")
  return (
    <li>
      <div ref={row} className={className} data-testid={`row-${node.id}`}>
        {node.kind === "space" && manage
          ? <button type="button" className="link emoji" aria-label={`Change the emoji of ${node.title}`} onClick={() => startEditing("emoji")}>{emojiOf(node.emoji) || <SpaceIcon />}</button>
          : <span className="emoji">{node.kind === "space" ? emojiOf(node.emoji) || <SpaceIcon /> : <FolderIcon />}</span>}
        {editing === undefined ? (
          <Link className="title" draggable={false} href={node.kind === "space" ? `/s/${node.id}` : `/o/${actions.organizationId}/c/${node.id}`}>
            {node.title === "" ? `Untitled ${label}` : node.title}
          </Link>
        ) : (
          <form onSubmit={(event) => void save(event)} style={{ flex: 1 }}>
            <label className="visually-hidden" htmlFor={`edit-${node.id}`}>{editing === "title" ? `New title of the ${label}` : `Emoji of ${node.title}`}</label>
            <input
              id={`edit-${node.id}`}
              value={draft}
              autoFocus
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Escape") setEditing(undefined)
              }}
              onBlur={(event) => void save(event)}
            />
          </form>
        )}
        {manage ? (
          <span className="actions">
            <button type="button" className="link" aria-label={`Rename ${node.title}`} onClick={() => startEditing("title")}>Rename</button>
            <button type="button" className="link" aria-label={`Move ${node.title} to…`} onClick={() => actions.openMoveDialog(node)}>Move…</button>
          </span>
        ) : null}
      </div>
      {node.children.length === 0 ? null : (
        <ul className="tree" style={{ paddingLeft: "1.25rem" }}>
          {node.children.map((child) => <Row key={child.id} node={child} actions={actions} />)}
        </ul>
      )}
    </li>
  )
}

const messageOf = (error: unknown) =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : "the server refused"

/** The keyboard's way to move: up or down among siblings, or into another collection (or the top level). */
const MoveDialog = (props: { readonly node: TreeNode; readonly tree: ReadonlyArray<TreeNode>; readonly onMove: (target: DropTarget) => void; readonly onClose: () => void }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => dialog.current?.showModal(), [])
  const entry = flattenSiblings(props.tree, props.node.id)
  const choose = (target: DropTarget) => {
    props.onMove(target)
    dialog.current?.close()
  }
  return (
    <dialog ref={dialog} aria-labelledby="move-title" onClose={props.onClose}>
      <div className="dialog-body">
        <h2 id="move-title">Move “{props.node.title}”</h2>
        <div className="toolbar">
          <button type="button" disabled={entry.previous === undefined} onClick={() => entry.previous && choose({ type: "before", id: entry.previous.id })}>Up one place</button>
          <button type="button" disabled={entry.next === undefined} onClick={() => entry.next && choose({ type: "after", id: entry.next.id })}>Down one place</button>
        </div>
        <p className="muted" id="move-into">Or move into:</p>
        <ul className="results" aria-labelledby="move-into">
          {moveDestinations(props.tree, props.node.id).map((destination) => (
            <li key={destination.id ?? "root"} style={{ paddingLeft: `${0.6 + destination.depth * 1}rem`, cursor: "default" }}>
              <button type="button" className="link" onClick={() => choose({ type: "inside", parent: destination.id })}>
                {destination.id === null ? destination.title : <><FolderIcon /> {destination.title}</>}
              </button>
            </li>
          ))}
        </ul>
        <div className="toolbar"><button type="button" onClick={() => dialog.current?.close()}>Cancel</button></div>
      </div>
    </dialog>
  )
}

/** The siblings of the same kind just before and after `id`. */
const flattenSiblings = (tree: ReadonlyArray<TreeNode>, id: string) => {
  const search = (nodes: ReadonlyArray<TreeNode>): { previous?: TreeNode; next?: TreeNode } | undefined => {
    const index = nodes.findIndex((node) => node.id === id)
    if (index !== -1) {
      const kind = nodes[index]!.kind
      const previous = nodes[index - 1]
      const next = nodes[index + 1]
      return { ...(previous?.kind === kind ? { previous } : {}), ...(next?.kind === kind ? { next } : {}) }
    }
    for (const node of nodes) {
      const found = search(node.children)
      if (found !== undefined) return found
    }
    return undefined
  }
  return search(tree) ?? {}
}

export const OrgTree = (props: { readonly organizationId: string; readonly tree: ReadonlyArray<TreeNode> }) => {
  const drawn = useShownMove(props.tree)
  const [moving, setMoving] = useState<TreeNode | undefined>(undefined)
  const [status, setStatus] = useState("")
  const sendSpace = useMutation(moveSpace)
  const sendCollection = useMutation(moveCollection)
  const tree = drawn.shown

  const move = (id: string, target: DropTarget) => {
    const operation = moveOperation(tree, id, target)
    if ("unchanged" in operation) return
    if ("refused" in operation) {
      setStatus(operation.refused)
      return
    }
    const node = findIn(tree, id)
    if (node === undefined) return
    void drawn.move(applyMove(tree, id, operation.payload), () => send(node, operation.payload))
  }
  const send = async (node: TreeNode, payload: MovePayload) => {
    const reactivityKeys = [orgKey(props.organizationId)]
    try {
      if (node.kind === "space") await sendSpace({ params: { spaceId: node.id }, payload, reactivityKeys })
      else await sendCollection({ params: { collectionId: node.id }, payload, reactivityKeys })
      setStatus(`Moved ${node.title}`)
      return true
    } catch (error) {
      setStatus(`Could not move ${node.title}: ${messageOf(error)}`)
      return false
    }
  }

  const actions: TreeActions = { tree, organizationId: props.organizationId, move, openMoveDialog: setMoving, say: setStatus }
  const latest = useRef(actions)
  latest.current = actions
  useEffect(() => monitorForElements({
    onDrop: ({ source, location }) => {
      const target = location.current.dropTargets[0]
      const id = source.data["id"]
      if (target === undefined || typeof id !== "string") return
      const node = findIn(latest.current.tree, target.data["id"] as string)
      if (node === undefined) return
      latest.current.move(id, targetOf(node, target.data["zone"] as Zone))
    }
  }), [])

  return (
    <>
      {tree.length === 0
        ? <EmptyState icon={<SpaceIcon size={20} />} title="No spaces yet">A space holds a set of pages, like a product's docs or a team's handbook. Create the first one with “New space”.</EmptyState>
        : <ul className="tree" aria-label="Spaces and collections">{tree.map((node) => <Row key={node.id} node={node} actions={actions} />)}</ul>}
      <p className="status" role="status">{status}</p>
      {moving === undefined ? null : <MoveDialog node={moving} tree={tree} onMove={(target) => move(moving.id, target)} onClose={() => setMoving(undefined)} />}
    </>
  )
}

const findIn = (tree: ReadonlyArray<TreeNode>, id: string): TreeNode | undefined => {
  for (const node of tree) {
    if (node.id === id) return node
    const found = findIn(node.children, id)
    if (found !== undefined) return found
  }
  return undefined
}
