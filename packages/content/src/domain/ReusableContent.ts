/**
 * What a revision may hold of reusable contents (GitBook's `.gitbook/includes/`): unique ids,
 * bounded in number and title, so their list stays a small row beside the revision.
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import type { ReusableContentNode } from "./Revision.ts"

/** Reusable contents of one revision. */
export const maxReusableContents = 2_000

/** Characters of a reusable content's title. */
export const maxReusableContentTitle = 500

/** The documents of a revision's reusable contents. */
export const reusableDocuments = (nodes: ReadonlyArray<ReusableContentNode> | undefined): ReadonlyArray<string> =>
  (nodes ?? []).flatMap((node) => (node.document === undefined ? [] : [node.document]))

const invalid = (reason: string) => Effect.fail(new Errors.InvalidInput({ field: "reusableContents", reason }))

/** A list a revision may hold, else InvalidInput naming `reusableContents`. */
export const checkReusableContents = (nodes: ReadonlyArray<ReusableContentNode>): Effect.Effect<void, Errors.InvalidInput> => {
  if (nodes.length > maxReusableContents) return invalid(`${nodes.length} reusable contents, more than the limit of ${maxReusableContents}`)
  const ids = new Set<string>()
  for (const node of nodes) {
    if (ids.has(node.id)) return invalid(`reusable content id ${JSON.stringify(node.id)} appears twice`)
    ids.add(node.id)
    if (node.title.length > maxReusableContentTitle) {
      return invalid(`the title of reusable content ${JSON.stringify(node.id)} is over ${maxReusableContentTitle} characters`)
    }
  }
  return Effect.void
}
