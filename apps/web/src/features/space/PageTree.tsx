/**
 * A space's pages as the reader's tree (the space screen's and a revision's): groups as headings
 * with their pages always shown; a page with pages under it has a toggle, and only the open
 * branches are drawn. The branch of the current page starts open, as GitBook's sidebar does, so a
 * space of 1,000 pages draws its top level and one path, not every page.
 */
import { useState } from "react"
import { type RevisionPage, safeHref } from "@quire/api"
import { emojiOf } from "../palette/Palette.tsx"
import { Link } from "../../ui/Link.tsx"

export interface PageTreeProps {
  readonly pages: ReadonlyArray<RevisionPage>
  /** The app path a document page opens at. */
  readonly hrefOf: (page: RevisionPage) => string
  /** The current page's id, when it is in the tree. */
  readonly current: string | undefined
}

/** Every page of the tree, each before the pages under it. */
export const flattenPages = (pages: ReadonlyArray<RevisionPage>): ReadonlyArray<RevisionPage> =>
  pages.flatMap((page) => [page, ...flattenPages(page.pages ?? [])])

/** The ids of the pages above `id` and `id` itself, top first; empty when it is not in the tree. */
export const branchOf = (pages: ReadonlyArray<RevisionPage>, id: string | undefined): ReadonlyArray<string> => {
  if (id === undefined) return []
  for (const page of pages) {
    if (page.id === id) return [page.id]
    const below = branchOf(page.pages ?? [], id)
    if (below.length > 0) return [page.id, ...below]
  }
  return []
}

const Branch = (props: PageTreeProps & { readonly open: (id: string) => boolean; readonly toggle: (id: string) => void }) => (
  <ul className="page-tree">
    {props.pages.map((page) => {
      const children = page.pages ?? []
      // A group is a heading: its pages are always listed.
      const open = children.length > 0 && (page.kind === "group" || props.open(page.id))
      return (
        <li key={page.id}>
          <div className="page-tree-row">
            {page.kind === "group" ? <div className="group">{page.title}</div>
              : page.kind === "link" ? <a href={safeHref(page.href ?? "#")} rel="noreferrer">{page.title} ↗</a>
              : <Link href={props.hrefOf(page)} aria-current={page.id === props.current ? "page" : undefined}>{`${emojiOf(page.emoji)} ${page.title}`.trim()}</Link>}
            {children.length === 0 || page.kind === "group" ? null : (
              <button type="button" className="page-tree-toggle" aria-expanded={open} aria-label={`${open ? "Hide" : "Show"} the pages under “${page.title}”`} onClick={() => props.toggle(page.id)}>
                <span aria-hidden="true">{open ? "▾" : "▸"}</span>
              </button>
            )}
          </div>
          {open ? <Branch {...props} pages={children} /> : null}
        </li>
      )
    })}
  </ul>
)

export const PageTree = (props: PageTreeProps) => {
  // What the person opened or closed; every other page is open when it is on the current page's branch.
  const [chosen, setChosen] = useState<ReadonlyMap<string, boolean>>(new Map())
  const branch = new Set(branchOf(props.pages, props.current))
  const open = (id: string) => chosen.get(id) ?? branch.has(id)
  const toggle = (id: string) => setChosen(new Map([...chosen, [id, !open(id)]]))
  return <Branch {...props} open={open} toggle={toggle} />
}
