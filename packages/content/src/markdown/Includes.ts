/**
 * `{% include %}` of reusable contents expanded in a page's markdown, the bodies read from the
 * document store (the tags themselves: `IncludeTags.ts`).
 */
import { Effect } from "effect"
import type { ReusableContentNode } from "../domain/Revision.ts"
import { expandWith, findReusableContent, includeRefs } from "./IncludeTags.ts"

/** How deep includes may nest (a reusable content including another). */
const maxDepth = 3

/**
 * A page's markdown with its includes expanded from the revision's reusable contents `nodes`
 * (their markdown read through `documents`), nested ones to a few levels; a reusable content
 * never includes itself, however deep. Published pages, the search index, the page's JSON
 * document and its PDF all read a page through this.
 */
export const withIncludes = (
  markdown: string,
  nodes: ReadonlyArray<ReusableContentNode> | undefined,
  pageFile: string | undefined,
  documents: (hashes: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
): Effect.Effect<string> =>
  Effect.gen(function*() {
    if (nodes === undefined || nodes.length === 0 || !markdown.includes("include")) return markdown
    const bodies = new Map<string, string>()
    // Read the bodies level by level: each level's includes name the next level's, relative to
    // the file that includes them (the page's, then each reusable content's own).
    let pending: ReadonlyArray<{ readonly text: string; readonly file: string | undefined }> = [{ text: markdown, file: pageFile }]
    for (let depth = 0; depth < maxDepth && pending.length > 0; depth++) {
      const wanted = new Map<string, ReusableContentNode>()
      for (const { text, file } of pending) {
        for (const ref of includeRefs(text)) {
          const node = findReusableContent(ref, file, nodes)
          if (node?.document !== undefined && !bodies.has(node.document)) wanted.set(node.document, node)
        }
      }
      const read = yield* documents([...wanted.keys()])
      for (const [hash, body] of read) bodies.set(hash, body)
      pending = [...read].map(([hash, text]) => ({ text, file: wanted.get(hash)?.git?.path }))
    }
    const expand = (text: string, file: string | undefined, seen: ReadonlySet<string>): string =>
      expandWith(text, (ref) => {
        const node = findReusableContent(ref, file, nodes)
        if (node === undefined || node.document === undefined || seen.has(node.id) || seen.size >= maxDepth) return undefined
        const body = bodies.get(node.document)
        return body === undefined ? undefined : expand(body, node.git?.path, new Set([...seen, node.id]))
      })
    return expand(markdown, pageFile, new Set())
  })
