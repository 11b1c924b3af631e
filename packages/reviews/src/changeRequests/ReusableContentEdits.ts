/**
 * Writing a change request's reusable contents (GitBook's `.gitbook/includes/`, which GitBook's
 * API only reads): create, rename, replace the markdown of, or delete one; each is one new
 * revision of the change request's branch, as a batch of page edits is. Merging brings them to main.
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { Access, type ContentChange, documentHash, type ReusableContentNode, type Revision } from "@quire/content"
import type { Branch } from "./Branch.ts"

/** One edit of a change request's reusable contents. */
export type ReusableContentEdit =
  | { readonly kind: "create"; readonly title: string; readonly markdown: string }
  | { readonly kind: "update"; readonly id: string; readonly title?: string | undefined; readonly markdown?: string | undefined }
  | { readonly kind: "delete"; readonly id: string }

const notFound = (id: string) => new Errors.NotFound({ resource: "ReusableContent", id })

/** The node with its body replaced by `markdown` (empty: no document), and the document it introduces. */
interface Applied {
  readonly nodes: ReadonlyArray<ReusableContentNode>
  readonly node: ReusableContentNode | undefined
  readonly documents: ReadonlyMap<string, string>
}

const withBody = (node: ReusableContentNode, markdown: string): { readonly node: ReusableContentNode; readonly documents: ReadonlyMap<string, string> } => {
  const { document: _, ...rest } = node
  if (markdown === "") return { node: rest, documents: new Map<string, string>() }
  const hash = documentHash(markdown)
  return { node: { ...rest, document: hash }, documents: new Map([[hash, markdown]]) }
}

/** The reusable contents after `edit`, the node it wrote (none for a delete) and the documents it introduces. */
const apply = (parent: Revision, edit: ReusableContentEdit, newId: string): Effect.Effect<Applied, Errors.NotFound> => {
  const nodes = parent.reusableContents ?? []
  if (edit.kind === "create") {
    const written = withBody({ id: newId, title: edit.title }, edit.markdown)
    return Effect.succeed({ nodes: [...nodes, written.node], node: written.node, documents: written.documents })
  }
  const index = nodes.findIndex((node) => node.id === edit.id)
  if (index < 0) return Effect.fail(notFound(edit.id))
  if (edit.kind === "delete") return Effect.succeed({ nodes: nodes.filter((_, i) => i !== index), node: undefined, documents: new Map<string, string>() })
  const titled = edit.title === undefined ? nodes[index]! : { ...nodes[index]!, title: edit.title }
  const written = edit.markdown === undefined ? { node: titled, documents: new Map<string, string>() } : withBody(titled, edit.markdown)
  return Effect.succeed({ nodes: nodes.map((node, i) => (i === index ? written.node : node)), node: written.node, documents: written.documents })
}

export const reusableContentEdits = (branch: Branch) => {
  const { ids, resolve, commitTo } = branch

  const editReusableContent = Effect.fn("ChangeRequests.editReusableContent")(function*(spaceId: string, ref: string, edit: ReusableContentEdit) {
    // Refused before anything is stored (the branch head checks again on every attempt).
    const found = yield* resolve(spaceId, ref)
    yield* Access.ensure(found.access.permissions.edit, "edit this change request's reusable content")
    const newId = yield* ids.make
    let wrote: ReusableContentNode | undefined
    const result = yield* commitTo(spaceId, ref, (parent) =>
      Effect.map(apply(parent, edit, newId), (next) => {
        wrote = next.node
        return { pages: parent.pages, reusableContents: next.nodes, documents: next.documents } satisfies ContentChange
      }))
    return { access: result.access, changeRequest: result.changeRequest, outdated: result.outdated, revision: result.revision, node: wrote }
  })

  return { editReusableContent }
}
