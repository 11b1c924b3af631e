/** `SUMMARY.md` of a write: kept byte for byte while its meaning holds, else rendered reusing the lines it can. */
import { gitbookAnchorId, slugify } from "@quire/markdown"
import type { ReadState, RepoPage } from "./LayoutTypes.ts"
import { pageFileLink, pageFilesByRef } from "./PageLinks.ts"
import type { Placed } from "./PagePlacement.ts"
import { dirname, joinPath, relativePath } from "./Paths.ts"
import { renderSummary, type SummaryNode } from "./Summary.ts"

/**
 * A link page's `href` as an import reads it: a link to a page of the write (`/pages/<id or slug path>`,
 * with its anchor) is the page's file from the repository root (`docs/page.md#anchor`).
 */
const repoHref = (href: string, byRef: ReadonlyMap<string, string>): string => {
  const page = /^\/pages\/([^#?]+)(#.*)?$/.exec(href)
  if (page === null) return href
  const file = byRef.get(page[1]!)
  return file === undefined ? href : `${file}${page[2] ?? ""}`
}

/** A link page's target as a summary writes it: a URL as it is, a page's file (see `repoHref`) relative to the summary. */
const linkTarget = (href: string, summaryDir: string): string => {
  const page = pageFileLink(href)
  return page === undefined ? href : `${relativePath(summaryDir, page.path)}${page.anchor === undefined ? "" : `#${page.anchor}`}`
}

/** What a summary says of a page: kind, title, label, and its group slug or its file or URL. */
const shape = (page: RepoPage, target: string | undefined) => [page.kind, page.title, page.linkTitle, page.kind === "group" ? page.slug : target]

/** The new text of `summaryPath` for `tree`, or undefined when the previous one (at the previous config's `previousSummary`) still says it. */
export const writeSummary = (tree: ReadonlyArray<Placed>, state: ReadState | undefined, summaryPath: string, previousSummary: string): string | undefined => {
  const summaryDir = dirname(summaryPath)
  const byRef = pageFilesByRef(tree)
  const nodes = (list: ReadonlyArray<Placed>): Array<SummaryNode> =>
    list.map((placed): SummaryNode => {
      const { page } = placed
      const children = nodes(placed.children)
      if (page.kind === "group") {
        // A heading line says the group's slug by its anchor, else by its title.
        const line = state?.summaryLines.get(`group:${page.title}`)
        const reuse = line !== undefined && (gitbookAnchorId(line) ?? slugify(page.title)) === page.slug ? line : undefined
        return { kind: "group", title: page.title, slug: page.slug, reuse, children }
      }
      if (page.kind === "link") {
        const href = repoHref(page.href ?? "", byRef)
        const line = state?.summaryLines.get(href)
        const reuse = line !== undefined && line.includes(`[${page.title}]`) ? line : undefined
        return { kind: "entry", title: page.title, target: linkTarget(href, summaryDir), label: page.linkTitle, reuse, children }
      }
      const path = placed.path!
      const info = page.path === undefined ? undefined : state?.pageInfo.get(page.path)
      const same = info?.page.title === page.title && info.page.linkTitle === page.linkTitle
      const reuse = placed.kept && same ? state?.summaryLines.get(path) : undefined
      return { kind: "entry", title: page.title, target: relativePath(summaryDir, path), label: page.linkTitle, reuse, children }
    })
  // The table of contents' meaning (kinds, titles, labels, group slugs, files or URLs, nesting): unchanged, it keeps its bytes.
  const shapeOfNew = (list: ReadonlyArray<Placed>): ReadonlyArray<unknown> =>
    list.map((p) => [...shape(p.page, p.page.kind === "link" ? repoHref(p.page.href ?? "", byRef) : p.path), shapeOfNew(p.children)])
  const shapeOfOld = (list: ReadonlyArray<RepoPage>): ReadonlyArray<unknown> =>
    list.map((p) => [...shape(p, p.kind === "link" ? p.href : p.path), shapeOfOld(p.children)])
  const unchanged = state !== undefined && summaryPath === joinPath(state.docsRoot, previousSummary) &&
    JSON.stringify(shapeOfNew(tree)) === JSON.stringify(shapeOfOld(state.content.pages))
  return unchanged ? undefined : renderSummary(nodes(tree), state?.summary)
}
