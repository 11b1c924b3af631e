/**
 * What one revision changed from another, as GitBook's semantic changes: pages created, edited
 * (with the attributes that changed), moved (another parent, or another place among the siblings
 * both revisions share) and deleted; files created, edited and deleted; reusable contents created,
 * edited and deleted (ReusableContentChanges.ts); variables edited. Pure:
 * pages and files are matched by id. `lineDiff` is our extension, a unified diff of a page's markdown.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff"
import type { AttributeChange } from "./AttributeChange.ts"
import {
  type ContentRef,
  type FileNode,
  flattenPages,
  type PageCover,
  type PageLayout,
  type PageNode,
  type PageType,
  type Revision
} from "./domain/Revision.ts"
import { compareReusableContents, type ReusableContentChange } from "./ReusableContentChanges.ts"

/** A page as a change names it: in the revision that has it (the earlier one for a deleted page). */
export interface ChangedPage {
  readonly id: string
  readonly type: PageType
  readonly title: string
  readonly path: string
}

/**
 * The attributes GitBook reports for an edited page: documents all of them, groups `title`,
 * `emoji` and `slug`, links `title`, `emoji` and `target`. `document` is the hash of the markdown.
 */
export interface PageAttributes {
  readonly title?: AttributeChange<string>
  readonly description?: AttributeChange<string>
  readonly slug?: AttributeChange<string>
  readonly document?: AttributeChange<string>
  readonly cover?: AttributeChange<PageCover>
  readonly emoji?: AttributeChange<string>
  readonly layout?: AttributeChange<PageLayout>
  readonly variables?: AttributeChange<Readonly<Record<string, string>>>
  readonly target?: AttributeChange<ContentRef>
}

/** The attributes GitBook reports for an edited file; `blob` stands for its bytes (GitBook's `downloadURL`). */
export type FileAttribute = "name" | "contentType" | "size" | "dimensions" | "blob"

export type SemanticChange =
  | { readonly type: "page_created"; readonly page: ChangedPage }
  | {
    readonly type: "page_edited"
    readonly page: ChangedPage
    readonly attributes: PageAttributes
    /** The path the page had before, for a diff's `---` line. */
    readonly pathBefore: string
  }
  | { readonly type: "page_deleted"; readonly page: ChangedPage }
  | {
    readonly type: "page_moved"
    readonly page: ChangedPage
    /** The parent page before and after; absent at the top level. */
    readonly parent: AttributeChange<ChangedPage>
  }
  | { readonly type: "file_created"; readonly file: FileNode }
  | { readonly type: "file_edited"; readonly file: FileNode; readonly before: FileNode; readonly attributes: ReadonlyArray<FileAttribute> }
  | { readonly type: "file_deleted"; readonly file: FileNode }
  | { readonly type: "variables_edited"; readonly variables: Readonly<Record<string, AttributeChange<string>>> }
  | ReusableContentChange

/** What a revision holds that a comparison reads: an empty one stands for "before the first revision". */
export type Contents = Pick<Revision, "pages" | "files" | "variables" | "reusableContents">

export const emptyContents: Contents = { pages: [], files: [], variables: {} }

/** JSON with sorted keys, so that two equal values compare equal whatever their key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v)

const same = (a: unknown, b: unknown): boolean => a === b || canonical(a) === canonical(b)

const attribute = <A>(before: A | undefined, after: A | undefined): AttributeChange<A> | undefined =>
  same(before, after) ? undefined : { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) }

/** An empty layout or variables record is the same as none. */
const orNone = <A extends object>(value: A | undefined): A | undefined =>
  value === undefined || Object.values(value).every((v) => v === undefined) ? undefined : value

const attributesOf = (before: PageNode, after: PageNode): PageAttributes => {
  const common = {
    title: attribute(before.title, after.title),
    emoji: attribute(before.emoji || undefined, after.emoji || undefined)
  }
  const all: Record<string, AttributeChange<unknown> | undefined> = after.type === "document"
    ? {
      ...common,
      description: attribute(before.description || undefined, after.description || undefined),
      slug: attribute(before.slug, after.slug),
      document: attribute(before.document, after.document),
      cover: attribute(before.cover, after.cover),
      layout: attribute(orNone(before.layout), orNone(after.layout)),
      variables: attribute(orNone(before.variables), orNone(after.variables))
    }
    : after.type === "group"
    ? { ...common, slug: attribute(before.slug, after.slug) }
    : { ...common, target: attribute(before.target, after.target) }
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as PageAttributes
}

/**
 * Ids of `after`'s order that left their place: those outside a longest common subsequence with
 * `before`'s. Both hold the same ids (the siblings both revisions keep under one parent), so that
 * is a longest increasing run of their places in `before`, found in O(n log n) for any tree width.
 */
const displaced = (before: ReadonlyArray<string>, after: ReadonlyArray<string>): Set<string> => {
  const place = new Map(before.map((id, i) => [id, i]))
  const ranks = after.map((id) => place.get(id) ?? -1)
  // tails[k]: the index in `after` ending the best increasing run of length k + 1 found so far.
  const tails: Array<number> = []
  const previous: Array<number> = []
  ranks.forEach((rank, i) => {
    let low = 0
    let high = tails.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (ranks[tails[mid]!]! < rank) low = mid + 1
      else high = mid
    }
    previous[i] = low > 0 ? tails[low - 1]! : -1
    tails[low] = i
  })
  const kept = new Set<string>()
  for (let i = tails.at(-1) ?? -1; i >= 0; i = previous[i]!) kept.add(after[i]!)
  return new Set(after.filter((id) => !kept.has(id)))
}

const fileAttributes = (before: FileNode, after: FileNode): ReadonlyArray<FileAttribute> => {
  const changed: Array<FileAttribute> = []
  if (before.name !== after.name) changed.push("name")
  if (before.contentType !== after.contentType) changed.push("contentType")
  if (before.size !== after.size) changed.push("size")
  if (!same(before.dimensions, after.dimensions)) changed.push("dimensions")
  if (before.blob !== after.blob) changed.push("blob")
  return changed
}

const named = (entry: { readonly page: PageNode; readonly path: string }): ChangedPage => ({
  id: entry.page.id,
  type: entry.page.type,
  title: entry.page.title,
  path: entry.path
})

/** The ids of the pages under each parent (null: the top level), in order. */
const childrenOf = (entries: ReadonlyArray<{ readonly page: PageNode; readonly parentId: string | null }>) => {
  const out = new Map<string | null, Array<string>>()
  for (const entry of entries) {
    const siblings = out.get(entry.parentId)
    if (siblings === undefined) out.set(entry.parentId, [entry.page.id])
    else siblings.push(entry.page.id)
  }
  return out
}

/**
 * The changes from `before` to `after`: pages in `after`'s tree order (a page both moved and
 * edited gives both), then deleted pages in `before`'s order, then files, then variables.
 */
export const compare = (before: Contents, after: Contents): ReadonlyArray<SemanticChange> => {
  const old = new Map(flattenPages(before.pages).map((entry) => [entry.page.id, entry]))
  const now = flattenPages(after.pages)
  const nowById = new Map(now.map((entry) => [entry.page.id, entry]))

  // Siblings under each parent that both revisions put there: a page moved when it left their common order.
  const oldChildren = childrenOf([...old.values()])
  const reordered = new Set<string>()
  for (const [parent, ids] of childrenOf(now)) {
    const stayed = ids.filter((id) => old.get(id)?.parentId === parent)
    const before = (oldChildren.get(parent) ?? []).filter((id) => nowById.get(id)?.parentId === parent)
    for (const id of displaced(before, stayed)) reordered.add(id)
  }

  const changes: Array<SemanticChange> = []
  for (const entry of now) {
    const previous = old.get(entry.page.id)
    if (previous === undefined) {
      changes.push({ type: "page_created", page: named(entry) })
      continue
    }
    if (previous.parentId !== entry.parentId || reordered.has(entry.page.id)) {
      const parentBefore = previous.parentId === null ? undefined : old.get(previous.parentId)
      const parentAfter = entry.parentId === null ? undefined : nowById.get(entry.parentId)
      changes.push({
        type: "page_moved",
        page: named(entry),
        parent: {
          ...(parentBefore === undefined ? {} : { before: named(parentBefore) }),
          ...(parentAfter === undefined ? {} : { after: named(parentAfter) })
        }
      })
    }
    const attributes = attributesOf(previous.page, entry.page)
    if (Object.keys(attributes).length > 0) {
      changes.push({ type: "page_edited", page: named(entry), attributes, pathBefore: previous.path })
    }
  }
  for (const entry of old.values()) {
    if (!nowById.has(entry.page.id)) changes.push({ type: "page_deleted", page: named(entry) })
  }

  const oldFiles = new Map(before.files.map((f) => [f.id, f]))
  const nowFiles = new Set(after.files.map((f) => f.id))
  for (const file of after.files) {
    const previous = oldFiles.get(file.id)
    if (previous === undefined) {
      changes.push({ type: "file_created", file })
      continue
    }
    const attributes = fileAttributes(previous, file)
    if (attributes.length > 0) changes.push({ type: "file_edited", file, before: previous, attributes })
  }
  for (const file of before.files) {
    if (!nowFiles.has(file.id)) changes.push({ type: "file_deleted", file })
  }

  changes.push(...compareReusableContents(before.reusableContents, after.reusableContents))

  const variables: Record<string, AttributeChange<string>> = {}
  for (const name of new Set([...Object.keys(before.variables), ...Object.keys(after.variables)])) {
    const change = attribute(before.variables[name], after.variables[name])
    if (change !== undefined) variables[name] = change
  }
  if (Object.keys(variables).length > 0) changes.push({ type: "variables_edited", variables })
  return changes
}

/** How long one page's diff may take; past it the diff is left out rather than hold the server. */
const diffTimeoutMs = 2_000

/**
 * A unified diff (3 lines of context) of a page's markdown, `--- a/<path before>.md` and
 * `+++ b/<path after>.md` first; empty when the texts are equal; undefined when computing it took
 * longer than two seconds (two large texts that differ throughout).
 */
export const lineDiff = (pathBefore: string, pathAfter: string, before: string, after: string): string | undefined =>
  before === after
    ? ""
    : createTwoFilesPatch(`a/${pathBefore}.md`, `b/${pathAfter}.md`, before, after, undefined, undefined, {
      context: 3,
      headerOptions: FILE_HEADERS_ONLY,
      timeout: diffTimeoutMs
    })
