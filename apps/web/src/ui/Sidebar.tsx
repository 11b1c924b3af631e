/**
 * The workspace's left sidebar: the brand and the organization switcher, the organization's
 * spaces and collections (the organization tree's, as links), and the slot where the open space's
 * or change request's pages are drawn (Frame.tsx). On a narrow screen it is a drawer (Shell.tsx).
 */
import { AsyncResult } from "effect/reactivity"
import { type ReactNode, type Ref, useMemo } from "react"
import { orgContentAtom, organizationsAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { buildTree, type TreeNode } from "../features/org-tree/tree-model.ts"
import { emojiOf } from "../features/palette/Palette.tsx"
import { FolderIcon, HomeIcon, MembersIcon, SearchIcon, SettingsIcon, SpaceIcon } from "./icons.tsx"
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

/** GitBook's first items: the organization's home, search (the command palette), and, for those who may, its members and settings. */
const OrgShortcuts = (props: { readonly organizationId: string; readonly onSearch: () => void }) => {
  const orgs = useAtomValue(organizationsAtom)
  const org = AsyncResult.isSuccess(orgs) ? orgs.value.items.find((item) => item.id === props.organizationId) : undefined
  const here = window.location.pathname
  const item = (href: string, icon: ReactNode, label: string) => (
    <li>
      <Link className="sidebar-link" href={href} aria-current={here === href ? "page" : undefined}>
        <span className="sidebar-icon">{icon}</span><span className="sidebar-title">{label}</span>
      </Link>
    </li>
  )
  return (
    <nav className="sidebar-section" aria-label="Workspace">
      <ul className="sidebar-tree">
        {item(`/o/${props.organizationId}`, <HomeIcon />, "Home")}
        <li>
          <button type="button" className="sidebar-link" onClick={props.onSearch} aria-keyshortcuts="Control+K Meta+K">
            <span className="sidebar-icon"><SearchIcon /></span><span className="sidebar-title">Search</span>
          </button>
        </li>
        {org?.permissions.listMembers === true ? item(`/o/${props.organizationId}/members`, <MembersIcon />, "Members") : null}
        {org?.permissions.admin === true ? item(`/o/${props.organizationId}/settings`, <SettingsIcon />, "Settings") : null}
      </ul>
    </nav>
  )
}

export const Sidebar = (props: {
  readonly organizationId: string | undefined
  readonly here: Here
  readonly pagesSlot: Ref<HTMLDivElement>
  /** The drawer's close button, on a narrow screen. */
  readonly close: ReactNode
  /** Opens the command palette. */
  readonly onSearch: () => void
}) => (
  <>
    <div className="sidebar-top">
      <Link className="brand" href="/">Quire</Link>
      {props.close}
    </div>
    <OrgSwitcher organizationId={props.organizationId} />
    {props.organizationId === undefined ? null : <OrgShortcuts organizationId={props.organizationId} onSearch={props.onSearch} />}
    {props.organizationId === undefined ? null : <OrgSpaces organizationId={props.organizationId} here={props.here} />}
    <div className="sidebar-pages" ref={props.pagesSlot} />
  </>
)
