/** Relative links between page files, made to follow the files a write moves (links to deleted pages stay as written). */
import type { RepositoryFiles, ReadState } from "./Layout.ts"
import type { Placed } from "./PagePlacement.ts"
import { joinPath, relativePath } from "./Paths.ts"

// A relative link to a markdown file: a link destination (`](x.md)`, `](<x y.md>)`) or a GitBook
// block's `url="x.md"`; URLs, absolute paths and anchors alone are left out.
const relativePageLink = /(\]\(|\burl=")(<?)((?![a-z][a-z0-9+.-]*:|\/|#)[^\s"<>)]*?(?: [^\s"<>)]+?)*\.md)(#[^\s")>]*)?(>?)/gi

/**
 * The rebasing of a write: `rebase(body, from, to)` is a body written in the folder `from`, moved
 * to the folder `to`, whose relative links point where the pages they name went.
 */
export const linkRebaser = (
  tree: ReadonlyArray<Placed>,
  state: ReadState | undefined,
  previous: RepositoryFiles,
  used: ReadonlySet<string>
) => {
  // Where each previous page file went, for the relative links that point to it.
  const moves = new Map<string, string | null>()
  const collectMoves = (list: ReadonlyArray<Placed>) => {
    for (const placed of list) {
      if (placed.page.kind === "document" && placed.page.path !== undefined && state?.pageInfo.has(placed.page.path) && placed.path !== placed.page.path) {
        if (!moves.has(placed.page.path)) moves.set(placed.page.path, placed.path ?? null)
      }
      collectMoves(placed.children)
    }
  }
  collectMoves(tree)
  for (const path of state?.pageInfo.keys() ?? []) if (!used.has(path) && !moves.has(path)) moves.set(path, null)
  return (body: string, from: string, to: string): string => {
    if (!body.includes(".md") || (from === to && moves.size === 0)) return body
    return body.replace(relativePageLink, (match, lead: string, open: string, destination: string, anchor: string | undefined, close: string) => {
      let decoded = destination
      try {
        decoded = decodeURI(destination)
      } catch {
        return match
      }
      const target = joinPath(from, decoded)
      const moved = moves.get(target)
      if (moved === null) return match
      const final = moved ?? target
      if (moved === undefined && !previous.has(target) && !used.has(target)) return match
      if (final === target && from === to) return match
      let relative = relativePath(to, final)
      if (destination !== decoded) relative = encodeURI(relative)
      else if (open === "" && /[\s()]/.test(relative) && lead.endsWith("(")) return `${lead}<${relative}${anchor ?? ""}>${close}`
      return `${lead}${open}${relative}${anchor ?? ""}${close}`
    })
  }
}
