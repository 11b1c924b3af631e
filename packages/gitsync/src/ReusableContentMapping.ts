/**
 * Between the repository's `.gitbook/includes/` and a revision's reusable contents: an import keeps
 * the id of the reusable content read before from the same file, an export writes each back to
 * the file it came from.
 */
import { Effect } from "effect"
import type { Ids } from "@quire/kernel"
import { documentHash, maxReusableContentTitle, type ReusableContentNode, type Revision } from "@quire/content"
import type { IncludeToWrite, RepoInclude } from "./layout/Includes.ts"

/** The reusable contents of an import and the documents they introduce. */
export const importReusableContents = (
  parent: Revision,
  includes: ReadonlyArray<RepoInclude>,
  ids: Ids.Ids["Service"]
): Effect.Effect<{ readonly nodes: ReadonlyArray<ReusableContentNode>; readonly documents: ReadonlyMap<string, string> }> =>
  Effect.gen(function*() {
    const byPath = new Map((parent.reusableContents ?? []).flatMap((node) => (node.git === undefined ? [] : [[node.git.path, node] as const])))
    const documents = new Map<string, string>()
    const nodes: Array<ReusableContentNode> = []
    for (const include of includes) {
      const before = byPath.get(include.path)
      const document = include.markdown.trim() === "" ? undefined : documentHash(include.markdown)
      if (document !== undefined) documents.set(document, include.markdown)
      nodes.push({
        id: before?.id ?? (yield* ids.make),
        title: include.title.slice(0, maxReusableContentTitle),
        ...(document === undefined ? {} : { document }),
        git: { oid: include.oid, path: include.path }
      })
    }
    return { nodes, documents }
  })

/** A revision's reusable contents as files to write, with their markdown from `documents`. */
export const exportIncludes = (revision: Revision, documents: ReadonlyMap<string, string>): ReadonlyArray<IncludeToWrite> =>
  (revision.reusableContents ?? []).map((node) => ({
    ...(node.git === undefined ? {} : { path: node.git.path }),
    title: node.title,
    markdown: node.document === undefined ? "" : (documents.get(node.document) ?? "")
  }))
