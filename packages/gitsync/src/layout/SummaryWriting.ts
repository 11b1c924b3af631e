/** `SUMMARY.md` of a write: kept byte for byte while its meaning holds, else rendered reusing the lines it can. */
import type { ReadState, RepoPage } from "./Layout.ts"
import type { Placed } from "./PagePlacement.ts"
import { dirname, joinPath, relativePath } from "./Paths.ts"
import { renderSummary, type SummaryNode } from "./Summary.ts"

/** The new text of `summaryPath` for `tree`, or undefined when the previous one (at the previous config's `previousSummary`) still says it. */
export const writeSummary = (tree: ReadonlyArray<Placed>, state: ReadState | undefined, summaryPath: string, previousSummary: string): string | undefined => {
  const summaryDir = dirname(summaryPath)
  const nodes = (list: ReadonlyArray<Placed>): Array<SummaryNode> =>
    list.map((placed): SummaryNode => {
      const { page } = placed
      const children = nodes(placed.children)
      if (page.kind === "group") return { kind: "group", title: page.title, reuse: state?.summaryLines.get(`group:${page.title}`), children }
      if (page.kind === "link") {
        const href = page.href ?? ""
        const line = state?.summaryLines.get(href)
        const reuse = line !== undefined && line.includes(`[${page.title}]`) ? line : undefined
        return { kind: "entry", title: page.title, target: href, reuse, children }
      }
      const path = placed.path!
      const info = page.path === undefined ? undefined : state?.pageInfo.get(page.path)
      const reuse = placed.kept && info?.page.title === page.title ? state?.summaryLines.get(path) : undefined
      return { kind: "entry", title: page.title, target: relativePath(summaryDir, path), reuse, children }
    })
  // The table of contents' meaning (kinds, titles, files or URLs, nesting): unchanged, it keeps its bytes.
  const shapeOfNew = (list: ReadonlyArray<Placed>): ReadonlyArray<unknown> =>
    list.map((p) => [p.page.kind, p.page.title, p.page.kind === "link" ? p.page.href : p.path, shapeOfNew(p.children)])
  const shapeOfOld = (list: ReadonlyArray<RepoPage>): ReadonlyArray<unknown> =>
    list.map((p) => [p.kind, p.title, p.kind === "link" ? p.href : p.path, shapeOfOld(p.children)])
  const unchanged = state !== undefined && summaryPath === joinPath(state.docsRoot, previousSummary) &&
    JSON.stringify(shapeOfNew(tree)) === JSON.stringify(shapeOfOld(state.content.pages))
  return unchanged ? undefined : renderSummary(nodes(tree), state?.summary)
}
