/** What a row of the change request's tree is given and reads: the tree, its pages' paths and links, the keyboard's moves, and how an edit is sent. */
import type { RevisionPage } from "@quire/api"
import type { ReactNode } from "react"
import { type EditResult, indentOf, outdentOf, type Placement, stepOf, type Tree } from "../tree-model.ts"

/** One indentation level of the tree, in pixels (the rows' `1rem` per level). */
export const indentPerLevel = 16

/** Alt+Shift+arrow on a row: where the page goes. */
export const keyMoves: Readonly<Record<string, (tree: Tree, id: string) => Placement | null>> = {
  ArrowUp: (tree, id) => stepOf(tree, id, -1),
  ArrowDown: (tree, id) => stepOf(tree, id, 1),
  ArrowLeft: outdentOf,
  ArrowRight: indentOf
}

export const pathsOf = (pages: ReadonlyArray<RevisionPage>, into = new Map<string, string>()) => {
  for (const page of pages) {
    if (page.path !== undefined) into.set(page.id, page.path)
    pathsOf(page.pages ?? [], into)
  }
  return into
}

export interface Actions {
  readonly tree: Tree
  readonly paths: ReadonlyMap<string, string>
  readonly base: string
  readonly currentId?: string | undefined
  readonly hrefs: ReadonlyMap<string, string>
  readonly marks?: ((pageId: string) => ReactNode) | undefined
  /** Sends an edit's changes; `focus`: the page whose row keeps the focus once the tree is read again. */
  readonly apply: (result: EditResult, focus?: string) => void
  /** False: rows are links only (no rename, move, delete, drag or Alt+Shift+arrows). */
  readonly editable: boolean
}

export const hrefsOf = (pages: ReadonlyArray<RevisionPage>, into = new Map<string, string>()) => {
  for (const page of pages) {
    const target = page.href ?? (page.target?.kind === "url" ? page.target.url : undefined)
    if (page.type === "link" && target !== undefined) into.set(page.id, target)
    hrefsOf(page.pages ?? [], into)
  }
  return into
}

export const shortcuts = "Alt+Shift+ArrowUp Alt+Shift+ArrowDown Alt+Shift+ArrowLeft Alt+Shift+ArrowRight"
