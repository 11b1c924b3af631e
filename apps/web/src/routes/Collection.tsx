/** `/o/<org>/c/<collection>`: a collection, its spaces and collections (the organization tree's branch). */
import { AsyncResult } from "effect/reactivity"
import { useMemo } from "react"
import { orgContentAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { emojiOf } from "../features/palette/Palette.tsx"
import { buildTree, findNode } from "../features/org-tree/tree-model.ts"
import { BackIcon, FolderIcon, SpaceIcon } from "../ui/icons.tsx"
import { Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"
import { ShareButton } from "../features/admin/ShareButton.tsx"
import { EmptyState } from "../ui/EmptyState.tsx"

export const Collection = (props: { readonly organizationId: string; readonly collectionId: string }) => {
  const content = useAtomValue(orgContentAtom(props.organizationId))
  const node = useMemo(() => {
    if (!AsyncResult.isSuccess(content)) return undefined
    const tree = buildTree([
      ...content.value.collections.map((c) => ({ kind: "collection" as const, id: c.id, title: c.title, parent: c.parent })),
      ...content.value.spaces.map((s) => ({ kind: "space" as const, id: s.id, title: s.title, emoji: s.emoji, parent: s.parent }))
    ])
    return findNode(tree, props.collectionId)?.node
  }, [content, props.collectionId])
  if (AsyncResult.isFailure(content)) return <Failure result={content} />
  if (!AsyncResult.isSuccess(content)) return <Loading what="the collection" />
  if (node === undefined || node.kind !== "collection") {
    return <div className="panel" role="alert"><p>This collection does not exist, or you cannot see it.</p></div>
  }
  const collection = content.value.collections.find((c) => c.id === node.id)
  const description = collection?.description
  return (
    <>
      <h1>{node.title}</h1>
      {description === undefined || description === "" ? null : <p className="muted">{description}</p>}
      <div className="toolbar">
        <Link className="button" href={`/o/${props.organizationId}`}><BackIcon />Back to the organization</Link>
        {collection === undefined ? null : <ShareButton target={{ kind: "collection", id: collection.id, title: collection.title, organizationId: props.organizationId, admin: collection.permissions.admin }} />}
      </div>
      {node.children.length === 0 ? <EmptyState icon={<FolderIcon size={20} />} title="This collection is empty">Move spaces or collections into it from the organization's home, by dragging them or with Move….</EmptyState> : (
        <ul className="tree" aria-label={`In ${node.title}`}>
          {node.children.map((child) => (
            <li key={child.id} className="tree-row">
              <span className="emoji">{child.kind === "collection" ? <FolderIcon /> : emojiOf(child.emoji) || <SpaceIcon />}</span>
              <Link className="title" href={child.kind === "space" ? `/s/${child.id}` : `/o/${props.organizationId}/c/${child.id}`}>{child.title}</Link>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
