/**
 * Links of imported pages (templates, websites) kept pointing at their pages when a top-level
 * slug had to change to stay unique among the space's pages.
 */
import { documentHash, type PageNode } from "../domain/Revision.ts"

/**
 * Rewrites the relative `.md` links of `markdown` whose first path segment is a top-level slug that
 * had to change (`quickstart.md` to `quickstart-2.md`, `guides/setup.md` to `guides-2/setup.md`).
 */
export const rewriteLinks = (markdown: string, renames: ReadonlyMap<string, string>): string =>
  renames.size === 0
    ? markdown
    : markdown.replace(
      /(\]\(\s*<?)(\.\/)?([^)\s>#/]+)((?:\/[^)\s>#]*)?\.md)(?=[#)\s>])/g,
      (match, open: string, dot: string | undefined, first: string, rest: string) => {
        const renamed = renames.get(first)
        return renamed === undefined ? match : `${open}${dot ?? ""}${renamed}${rest}`
      }
    )

/** Rewrites the links of the documents of `pages` for top-level slugs that had to change. */
export const relink = (pages: ReadonlyArray<PageNode>, documents: Map<string, string>, renames: ReadonlyMap<string, string>) => {
  if (renames.size === 0) return { pages, documents }
  const rewritten = new Map<string, string>()
  const visit = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
    nodes.map((node) => {
      const markdown = node.document === undefined ? undefined : documents.get(node.document)
      const children = visit(node.pages)
      if (markdown === undefined) return { ...node, pages: children }
      const next = rewriteLinks(markdown, renames)
      const hash = documentHash(next)
      rewritten.set(hash, next)
      return { ...node, document: hash, pages: children }
    })
  return { pages: visit(pages), documents: rewritten }
}
