/** Use cases that read a space's reusable contents (GitBook's `.gitbook/includes/`), in its current revision or another. */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import type { Revision } from "../domain/Revision.ts"
import type { ContentEdit } from "./ContentEdit.ts"

export const reusableContentReading = (edit: ContentEdit) => {
  const { revisions, current } = edit

  const reusableContentIn = Effect.fn("SpaceContent.reusableContentIn")(function*(revision: Revision, reusableContentId: string) {
    const node = (revision.reusableContents ?? []).find((candidate) => candidate.id === reusableContentId)
    if (node === undefined) return yield* new Errors.NotFound({ resource: "ReusableContent", id: reusableContentId })
    const hash = node.document
    if (hash === undefined) return { revision, node, markdown: "" }
    const markdown = (yield* revisions.documents([hash])).get(hash)
    if (markdown === undefined) return yield* Effect.die(new Error(`Document ${hash} of reusable content ${reusableContentId} is missing`))
    return { revision, node, markdown }
  })

  const reusableContent = Effect.fn("SpaceContent.reusableContent")(function*(spaceId: string, reusableContentId: string) {
    const content = yield* current(spaceId)
    return { ...content, ...(yield* reusableContentIn(content.revision, reusableContentId)) }
  })

  /** Every reusable content of the current revision, in order, with its markdown (their documents read at once). */
  const reusableContents = Effect.fn("SpaceContent.reusableContents")(function*(spaceId: string) {
    const content = yield* current(spaceId)
    const nodes = content.revision.reusableContents ?? []
    const hashes = nodes.flatMap((node) => (node.document === undefined ? [] : [node.document]))
    const documents = hashes.length === 0 ? new Map<string, string>() : yield* revisions.documents(hashes)
    const items = yield* Effect.forEach(nodes, (node) => {
      const markdown = node.document === undefined ? "" : documents.get(node.document)
      return markdown === undefined
        ? Effect.die(new Error(`Document ${node.document} of reusable content ${node.id} is missing`))
        : Effect.succeed({ revision: content.revision, node, markdown })
    })
    return { ...content, items }
  })

  return { reusableContentIn, reusableContent, reusableContents }
}
