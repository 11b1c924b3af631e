/**
 * The workspace's left sidebar: the brand and the organization switcher, the organization's
 * spaces and collections (the organization tree's, as links), and the slot where the open space's
 * or change request's pages are drawn (Frame.tsx). On a narrow screen it is a drawer (Shell.tsx).
 */
import { AsyncResult } from "effect/reactivity"
import { type ReactNode, type Ref, useMemo } from "react"
import { orgContentAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { buildTree, type TreeNode } from "../features/org-tree/tree-model.ts"
import { emojiOf } from "../features/palette/Palette.tsx"
import { FolderIcon, SpaceIcon } from "./icons.tsx"
import { Link } from "./Link.tsx"
import { OrgSwitcher } from "./OrgSwitcher.tsx"

/** Where the screen is: the space or collection open, to mark in the list. */
export interface Here {
  readonly spaceId?: string | undefined
  readonly collectionId?: string | undefined
}

const Nodes = (props: { readonly organizationId: string; readonly nodes: ReadonlyArray<TreeNode>; readonly here: Here }) => (
  <ul className="sidebar-tree">
    {props.nodes.map((node) => {
      const current = node.kind === "space" ? node.id === props.here.spaceId : node.id === props.here.collectionId
      return (
        <li key={node.id}>
          <Link className="sidebar-link" href={node.kind === "space" ? `/s/${node.id}` : `/o/${props.organizationId}/c/${node.id}`}
            aria-current={current ? "page" : undefined}>
            <span className="sidebar-icon" aria-hidden="true">{node.kind === "collection" ? <FolderIcon /> : emojiOf(node.emoji) || <SpaceIcon />}</span>
            <span className="sidebar-title">{node.title}</span>
          </Link>
          {node.children.length === 0 ? null : <Nodes organizationId={props.organizationId} nodes={node.children} here={props.here} />}
        </li>
      )
    })}
  </ul>
)

/** The organization's spaces and collections, as the organization's home shows them (its tree), to open. */
const OrgSpaces = (props: { readonly organizationId: string; readonly here: Here }) => {
  const content = useAtomValue(orgContentAtom(props.organizationId))
  const tree = useMemo(() => AsyncResult.isSuccess(content)
    ? buildTree([
      ...content.value.collections.map((c) => ({ kind: "collection" as const, id: c.id, title: c.title, parent: c.parent })),
      ...content.value.spaces.map((s) => ({ kind: "space" as const, id: s.id, title: s.title, emoji: s.emoji, parent: s.parent }))
    ])
    : undefined, [content])
  return (
    <nav className="sidebar-section" aria-label="Spaces">
      {/* Not a heading: the screen's own headings are what a person moves between. */}
      <div className="sidebar-heading" aria-hidden="true">Spaces</div>
      {AsyncResult.isFailure(content) ? <p className="muted sidebar-note">The spaces could not be listed.</p>
        : tree === undefined ? <p className="muted sidebar-note" role="status">Loading the spaces…</p>
        : tree.length === 0 ? <p className="muted sidebar-note">None yet.</p>
        : <Nodes organizationId={props.organizationId} nodes={tree} here={props.here} />}
    </nav>
  )
}

export const Sidebar = (props: {
  readonly organizationId: string | undefined
  readonly here: Here
  readonly pagesSlot: Ref<HTMLDivElement>
  /** The drawer's close button, on a narrow screen. */
  readonly close: ReactNode
}) => (
  <>
    <div className="sidebar-top">
      <Link className="brand" href="/">Quire</Link>
      {props.close}
    </div>
    <OrgSwitcher organizationId={props.organizationId} />
    {props.organizationId === undefined ? null : <OrgSpaces organizationId={props.organizationId} here={props.here} />}
    <div className="sidebar-pages" ref={props.pagesSlot} />
  </>
)
