/** A revision's reusable content in GitBook's `RevisionReusableContent` shape. */
import type { RevisionReusableContent as ReusableContentResponse } from "@quire/api"
import type { ReusableContentNode } from "@quire/content"

/** `metadata=false` leaves out `git`; `markdown` (ours) only when the caller asked for it. */
export const reusableContent = (
  node: ReusableContentNode,
  options: { readonly metadata: boolean },
  markdown?: string
): ReusableContentResponse => ({
  id: node.id,
  title: node.title,
  ...(options.metadata && node.git !== undefined ? { git: { oid: node.git.oid, path: node.git.path } } : {}),
  ...(node.document === undefined ? {} : { document: node.document }),
  ...(markdown === undefined ? {} : { markdown })
})
