/**
 * A space's page tree inside a change request, pure (no React, no API calls): the tree built from
 * the API's `RevisionPage`s (documents, groups, link pages, nested pages), the edits the tree
 * screen makes (add, rename, move, delete), where a page may go, and for each edit the new tree
 * and the `updateChangeRequestContent` changes that carry it out on the server.
 *
 * The placement rules are GitBook's (its OpenAPI `RevisionPageGroup.pages` and
 * `RevisionPageDocument.pages` hold documents and links, never groups): groups only at the top
 * level; documents and links inside a group or a document; nothing inside a link page; never a page
 * into itself or one of its subpages. `at` is the API's: the index among the new siblings once the
 * moved page has left its old place.
 */
import type { ChangeRequestContentChange, RevisionPage } from "@quire/api"

export type PageKind = "document" | "group" | "link"

export interface TreePage {
  readonly id: string
  readonly kind: PageKind
  readonly title: string
  readonly slug: string
  readonly emoji?: string | undefined
  readonly icon?: string | undefined
  readonly hidden: boolean
  readonly children: ReadonlyArray<TreePage>
}

export type Tree = ReadonlyArray<TreePage>

/** Where a page goes: under `parent` (null: the top level), at index `at` among its new siblings. */
export interface Placement {
  readonly parent: string | null
  readonly at: number
}

/** What a drop means in the tree: before or after a row, or inside it (as its last child). */
export type DropTarget =
  | { readonly type: "before" | "after"; readonly id: string }
  | { readonly type: "inside"; readonly id: string }

/** An edit applied: the tree after it and the changes of one `updateChangeRequestContent` batch (empty: nothing to send). */
export type EditResult =
  | { readonly ok: true; readonly tree: Tree; readonly changes: ReadonlyArray<ChangeRequestContentChange> }
  | { readonly ok: false; readonly reason: string }

/** The one request an edit sends: GitBook's `updateChangeRequestContent` (POST …/change-requests/:id/content). */
export interface ContentRequest {
  readonly operationId: "updateChangeRequestContent"
  readonly method: "POST"
  readonly path: string
  readonly params: { readonly spaceId: string; readonly changeRequestId: string }
  readonly payload: { readonly changes: ReadonlyArray<ChangeRequestContentChange>; readonly baseRevision?: string }
}

/** The request carrying `changes` to a change request; `baseRevision` lets the server merge concurrent edits three-way. */
export const contentRequest = (
  target: { readonly spaceId: string; readonly changeRequestId: string; readonly baseRevision?: string | undefined },
  changes: ReadonlyArray<ChangeRequestContentChange>
): ContentRequest => ({
  operationId: "updateChangeRequestContent",
  method: "POST",
  path: `/v1/spaces/${encodeURIComponent(target.spaceId)}/change-requests/${encodeURIComponent(target.changeRequestId)}/content`,
  params: { spaceId: target.spaceId, changeRequestId: target.changeRequestId },
  payload: target.baseRevision === undefined ? { changes } : { changes, baseRevision: target.baseRevision }
})

const kindOf = (page: RevisionPage): PageKind => page.type

/** The tree of the API's pages (`listPagesInChangeRequest`), in their order. */
export const fromApi = (pages: ReadonlyArray<RevisionPage>): Tree =>
  pages.map((page) => ({
    id: page.id,
    kind: kindOf(page),
    title: page.title,
    slug: page.slug,
    ...(page.emoji === undefined ? {} : { emoji: page.emoji }),
    ...(page.icon === undefined ? {} : { icon: page.icon }),
    hidden: page.hidden,
    children: fromApi(page.pages ?? [])
  }))

export interface Located {
  readonly page: TreePage
  readonly parent: TreePage | null
  readonly index: number
  readonly depth: number
}

/** Every page, depth first, with its parent, index among its siblings and depth (0 at the top level). */
export const flatten = (tree: Tree): ReadonlyArray<Located> => {
  const out: Array<Located> = []
  const walk = (pages: Tree, parent: TreePage | null, depth: number) =>
    pages.forEach((page, index) => {
      out.push({ page, parent, index, depth })
      walk(page.children, page, depth + 1)
    })
  walk(tree, null, 0)
  return out
}

export const find = (tree: Tree, id: string): Located | undefined => flatten(tree).find((l) => l.page.id === id)

const childrenOf = (tree: Tree, parent: string | null): Tree | undefined =>
  parent === null ? tree : find(tree, parent)?.page.children

/** Whether `id` is `ancestor` or below it. */
const isWithin = (tree: Tree, id: string, ancestor: string): boolean => {
  const top = find(tree, ancestor)
  return top !== undefined && flatten([top.page]).some((l) => l.page.id === id)
}

/** Why a page of `kind` cannot go under `parent` (null: it can). `moving` is the page's id when it already exists. */
export const refusal = (tree: Tree, kind: PageKind, parent: string | null, moving?: string): string | null => {
  if (parent === null) return null
  const container = find(tree, parent)
  if (!container) return `no page ${parent}`
  if (moving !== undefined && isWithin(tree, parent, moving)) return "a page cannot move into itself or one of its subpages"
  if (container.page.kind === "link") return "pages cannot go inside a link page"
  if (kind === "group") return "groups stay at the top level"
  return null
}

const mapChildren = (tree: Tree, parent: string | null, edit: (children: Tree) => Tree): Tree =>
  parent === null
    ? edit(tree)
    : tree.map((page) =>
      page.id === parent
        ? { ...page, children: edit(page.children) }
        : page.children.length === 0 ? page : { ...page, children: mapChildren(page.children, parent, edit) }
    )

const without = (tree: Tree, id: string): Tree =>
  tree.filter((page) => page.id !== id).map((page) =>
    page.children.length === 0 ? page : { ...page, children: without(page.children, id) }
  )

const insertAt = (children: Tree, at: number, page: TreePage): Tree => [...children.slice(0, at), page, ...children.slice(at)]

const cleanTitle = (title: string): string | { reason: string } => {
  const trimmed = title.trim()
  if (trimmed === "") return { reason: "a title cannot be empty" }
  if (trimmed.length > 200) return { reason: "a title has at most 200 characters" }
  return trimmed
}

export interface NewPage {
  readonly kind: PageKind
  readonly title: string
  readonly parent: string | null
  /** Index among the parent's children; absent: at the end. */
  readonly at?: number | undefined
  /** A batch ref (the page's temporary id in the tree until the server's answer is read back). */
  readonly ref: string
  /** Link pages: where it points, a URL (`https://…`), or a page's id or title. */
  readonly href?: string | undefined
}

const urlScheme = /^[a-z][a-z0-9+.-]*:/i

/** A link's href as written, or why it cannot be sent: an absolute URL, or the id of a page of the tree. */
const cleanHref = (tree: Tree, href: string | undefined): string | { reason: string } => {
  const trimmed = (href ?? "").trim()
  if (trimmed === "") return { reason: "a link needs a URL, such as https://example.com" }
  if (trimmed.length > 2048) return { reason: "a link's URL has at most 2048 characters" }
  if (urlScheme.test(trimmed)) return URL.canParse(trimmed) ? trimmed : { reason: `“${trimmed}” is not a valid URL` }
  if (find(tree, trimmed)) return trimmed
  // A page of the tree by its title: the link points to its id.
  const named = flatten(tree).find((l) => l.page.kind === "document" && l.page.title.toLowerCase() === trimmed.toLowerCase())
  if (named) return named.page.id
  return trimmed.includes(".")
    ? { reason: `“${trimmed}” is not a URL: write it in full, such as https://${trimmed}` }
    : { reason: `“${trimmed}” is neither a URL (https://…) nor the title of a page here` }
}

/**
 * Adds a document (an empty page), a group (top level only) or a link page (to `href`): the
 * API's `insert_page` with its `type`; groups and links have no document.
 */
export const addPage = (tree: Tree, page: NewPage): EditResult => {
  const title = cleanTitle(page.title)
  if (typeof title !== "string") return { ok: false, reason: title.reason }
  const why = refusal(tree, page.kind, page.parent)
  if (why !== null) return { ok: false, reason: why }
  if (find(tree, page.ref)) return { ok: false, reason: `ref ${page.ref} is already a page id` }
  const href = page.kind === "link" ? cleanHref(tree, page.href) : undefined
  if (typeof href === "object") return { ok: false, reason: href.reason }
  const siblings = childrenOf(tree, page.parent)!
  const at = page.at ?? siblings.length
  if (at < 0 || at > siblings.length || !Number.isInteger(at)) return { ok: false, reason: `at ${at} is beyond the ${siblings.length} pages there` }
  const node: TreePage = { id: page.ref, kind: page.kind, title, slug: "", hidden: false, children: [] }
  return {
    ok: true,
    tree: mapChildren(tree, page.parent, (children) => insertAt(children, at, node)),
    changes: [{
      operation: "insert_page",
      ...(page.kind === "document" ? {} : { type: page.kind }),
      ...(href === undefined ? {} : { href }),
      ref: page.ref,
      title,
      document: page.kind === "document" ? { markdown: "" } : {},
      ...(page.parent === null ? {} : { into: page.parent }),
      at
    }]
  }
}

export const rename = (tree: Tree, id: string, newTitle: string): EditResult => {
  const title = cleanTitle(newTitle)
  if (typeof title !== "string") return { ok: false, reason: title.reason }
  const found = find(tree, id)
  if (!found) return { ok: false, reason: `no page ${id}` }
  if (found.page.title === title) return { ok: true, tree, changes: [] }
  const edit = (pages: Tree): Tree =>
    pages.map((page) => page.id === id ? { ...page, title } : page.children.length === 0 ? page : { ...page, children: edit(page.children) })
  return { ok: true, tree: edit(tree), changes: [{ operation: "update_page", page: id, title }] }
}

/** Moves a page (with its subpages) to `to`; refuses a place the rules forbid, and sends nothing when it stays where it is. */
export const move = (tree: Tree, id: string, to: Placement): EditResult => {
  const found = find(tree, id)
  if (!found) return { ok: false, reason: `no page ${id}` }
  const why = refusal(tree, found.page.kind, to.parent, id)
  if (why !== null) return { ok: false, reason: why }
  const rest = without(tree, id)
  const siblings = childrenOf(rest, to.parent)!
  if (!Number.isInteger(to.at) || to.at < 0 || to.at > siblings.length) {
    return { ok: false, reason: `at ${to.at} is beyond the ${siblings.length} pages there` }
  }
  const from = found.parent?.id ?? null
  if (from === to.parent && found.index === to.at) return { ok: true, tree, changes: [] }
  return {
    ok: true,
    tree: mapChildren(rest, to.parent, (children) => insertAt(children, to.at, found.page)),
    changes: [{ operation: "update_page", page: id, into: to.parent, at: to.at }]
  }
}

/** Deletes a page and its subpages; `removed` counts them all (for the confirmation). */
export const remove = (tree: Tree, id: string): EditResult & { readonly removed?: number } => {
  const found = find(tree, id)
  if (!found) return { ok: false, reason: `no page ${id}` }
  return { ok: true, tree: without(tree, id), changes: [{ operation: "delete_page", page: id }], removed: flatten([found.page]).length }
}

/** The placement a drop on a row means for page `id`, or why it cannot go there. */
export const placementOf = (tree: Tree, id: string, drop: DropTarget): Placement | { readonly reason: string } => {
  const target = find(tree, drop.id)
  if (!target) return { reason: `no page ${drop.id}` }
  if (drop.type === "inside") {
    const rest = without(tree, id)
    const children = childrenOf(rest, drop.id)
    return { parent: drop.id, at: children?.length ?? 0 }
  }
  const parent = target.parent?.id ?? null
  if (drop.id === id) {
    const moving = find(tree, id)!
    return { parent, at: moving.index }
  }
  const rest = without(tree, id)
  const index = (childrenOf(rest, parent) ?? []).findIndex((page) => page.id === drop.id)
  if (index < 0) return { reason: "a page cannot move into itself or one of its subpages" }
  return { parent, at: drop.type === "before" ? index : index + 1 }
}

/** A drop, applied: its placement, then `move`. */
export const drop = (tree: Tree, id: string, target: DropTarget): EditResult => {
  const placement = placementOf(tree, id, target)
  return "reason" in placement ? { ok: false, reason: placement.reason } : move(tree, id, placement)
}

export interface MoveChoice {
  readonly placement: Placement
  /** What a keyboard user hears: "Top level, before Intro", "Inside Guides › Setup, at the end". */
  readonly label: string
  /** Depth of the parent (0: the top level), to indent the list. */
  readonly depth: number
  /** Whether this is where the page is now (listed, so the list reads as the tree does). */
  readonly current: boolean
}

const trail = (tree: Tree, id: string): string => {
  const names: Array<string> = []
  for (let at: Located | undefined = find(tree, id); at; at = at.parent ? find(tree, at.parent.id) : undefined) names.unshift(at.page.title)
  return names.join(" › ")
}

/**
 * The keyboard "Move to…" list for page `id`: every parent it may go under (the top level first,
 * then each allowed page, in tree order) and, under each, every gap between the other pages there.
 */
export const moveChoices = (tree: Tree, id: string): ReadonlyArray<MoveChoice> => {
  const found = find(tree, id)
  if (!found) return []
  const rest = without(tree, id)
  const from = found.parent?.id ?? null
  const parents: Array<{ id: string | null; depth: number; name: string }> = [{ id: null, depth: 0, name: "Top level" }]
  for (const l of flatten(rest)) {
    if (refusal(tree, found.page.kind, l.page.id, id) === null) parents.push({ id: l.page.id, depth: l.depth + 1, name: `Inside ${trail(tree, l.page.id)}` })
  }
  return parents.flatMap((parent) => {
    const siblings = childrenOf(rest, parent.id) ?? []
    return Array.from({ length: siblings.length + 1 }, (_, at) => ({
      placement: { parent: parent.id, at },
      label: `${parent.name}, ${at < siblings.length ? `before ${siblings[at]!.title}` : siblings.length === 0 ? "first" : "at the end"}`,
      depth: parent.depth,
      current: parent.id === from && at === found.index
    }))
  })
}

/** The keyboard's outdent: the page goes right after its parent, one level up (null at the top level, or where the rules refuse it). */
export const outdentOf = (tree: Tree, id: string): Placement | null => {
  const found = find(tree, id)
  if (!found || found.parent === null) return null
  const parent = find(tree, found.parent.id)!
  const to = { parent: parent.parent?.id ?? null, at: parent.index + 1 }
  return refusal(tree, found.page.kind, to.parent, id) === null ? to : null
}

/** The keyboard's indent: the page goes last inside the sibling above it (null without one, or where the rules refuse it). */
export const indentOf = (tree: Tree, id: string): Placement | null => {
  const found = find(tree, id)
  if (!found || found.index === 0) return null
  const above = (found.parent?.children ?? tree)[found.index - 1]!
  if (refusal(tree, found.page.kind, above.id, id) !== null) return null
  return { parent: above.id, at: above.children.length }
}

/** The keyboard's up and down: one place among the siblings (null at the edge). */
export const stepOf = (tree: Tree, id: string, by: -1 | 1): Placement | null => {
  const found = find(tree, id)
  if (!found) return null
  const count = (found.parent?.children ?? tree).length
  const at = found.index + by
  return at < 0 || at >= count ? null : { parent: found.parent?.id ?? null, at }
}
