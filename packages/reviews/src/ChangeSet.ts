/**
 * Pure edits of a page tree: a batch of changes (GitBook's updateChangeRequestContent operations)
 * applied in order to a revision's pages and files, answering the new tree, the documents the
 * batch introduces and what happened to each page, or the first change that cannot apply and why.
 * No I/O: ids, the instant and the files' stored descriptions are given, so merges can reuse it.
 */
import { coverRefOf, documentHash, type FileNode, insertedPageKind, type PageFrontmatter, pageFrontmatterOf, type PageNode, type PageType, validSlug } from "@quire/content"
import { alertsToHints, maxSlugLength, parseDocument, readFrontmatter, slugify, splitFrontmatter, uniqueSlug } from "@quire/markdown"

/** Page metadata an insert or an update may set. */
export interface PageMetadata {
  readonly title?: string | undefined
  readonly slug?: string | undefined
  /** Empty: removes it. */
  readonly emoji?: string | undefined
  /** GitBook's icon name (`gear`); empty: removes it. */
  readonly icon?: string | undefined
  readonly description?: string | undefined
  readonly hidden?: boolean | undefined
  /** The label the navigation shows instead of the title (GitBook's `linkTitle`); empty: removes it. */
  readonly linkTitle?: string | undefined
}

/** A `linkTitle` change: blank removes the label. */
const linkTitleField = (given: string | undefined, current: string | undefined): string | undefined =>
  given === undefined ? current : given.trim() === "" ? undefined : given.trim()

export type Change =
  | PageMetadata & {
    readonly operation: "insert_page"
    /** Absent: a document; a group (top level, no document) or a link page (to `href`). */
    readonly type?: PageType | undefined
    /** Link pages: a URL, or a page's id or batch ref. */
    readonly href?: string | undefined
    readonly markdown: string
    /** The parent page (an id, or the ref of a page inserted earlier in the batch); absent: the root. */
    readonly into?: string | undefined
    /** Index among the new siblings; absent: at the end. */
    readonly at?: number | undefined
    /** A name later changes of the batch may use for this page (in `into`, `page`, and links `./<ref>.md`). */
    readonly ref?: string | undefined
  }
  | PageMetadata & {
    readonly operation: "update_page"
    readonly page: string
    readonly markdown?: string | undefined
    /** New parent: an id or ref; null: the root; absent: unchanged. */
    readonly into?: string | null | undefined
    readonly at?: number | undefined
  }
  | { readonly operation: "delete_page"; readonly page: string }
  /** Files already stored (their bytes are in the BlobStore); the batch adds them to the revision. */
  | { readonly operation: "insert_files"; readonly files: ReadonlyArray<FileNode> }

export type Outcome =
  | { readonly kind: "created"; readonly pageId: string; readonly ref?: string | undefined }
  | { readonly kind: "updated"; readonly pageId: string }
  | { readonly kind: "deleted"; readonly pageId: string }

export interface Applied {
  readonly pages: ReadonlyArray<PageNode>
  readonly files: ReadonlyArray<FileNode>
  /** The markdown of the documents the batch wrote, by hash. */
  readonly documents: ReadonlyMap<string, string>
  /** One per page touched, in the order the batch first touched them. */
  readonly outcomes: ReadonlyArray<Outcome>
}

/** Why a batch was refused: the index of the change in the batch, and the reason. */
export interface Rejected {
  readonly index: number
  readonly reason: string
}

export interface ApplyOptions {
  readonly makeId: () => string
  /** ISO instant of the edit. */
  readonly now: string
}

interface Draft {
  node: Omit<PageNode, "pages">
  children: Array<Draft>
  parent: Draft | null
}

class Refusal extends Error {}
const refuse = (reason: string): never => {
  throw new Refusal(reason)
}

const draftsOf = (pages: ReadonlyArray<PageNode>, parent: Draft | null, index: Map<string, Draft>): Array<Draft> =>
  pages.map((page) => {
    const { pages: children, ...node } = page
    const draft: Draft = { node, children: [], parent }
    index.set(page.id, draft)
    draft.children = draftsOf(children, draft, index)
    return draft
  })

const treeOf = (drafts: ReadonlyArray<Draft>): ReadonlyArray<PageNode> =>
  drafts.map((draft) => ({ ...draft.node, pages: treeOf(draft.children) }))

const withoutUndefined = <A extends object>(value: A): A =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as A

const checkSlug = (slug: string): string => {
  if (slug === "" || slug.length > maxSlugLength || !validSlug.test(slug)) {
    refuse(`slug ${JSON.stringify(slug)} is not valid (1 to ${maxSlugLength} letters, digits, "-" or "_")`)
  }
  return slug
}

/** Rewrites links to batch refs (`./<ref>.md`, `<ref>.md`) into links to the pages' ids. */
const resolveRefs = (markdown: string, refs: ReadonlyMap<string, string>): string =>
  refs.size === 0
    ? markdown
    : markdown.replace(/(\]\(\s*<?)(?:\.\/)?([^)\s>#/]+)\.md(?=[#)\s>])/g, (match, open: string, ref: string) => {
      const id = refs.get(ref)
      return id === undefined ? match : `${open}/pages/${id}`
    })

/** Title, description and body of a page from the change's fields and its markdown (GitHub's alerts become hints). */
export const metadataOf = (change: PageMetadata, given: string | undefined) => {
  const markdown = given === undefined ? undefined : alertsToHints(given)
  const parsed = markdown === undefined ? undefined : parseDocument(markdown)
  // An explicit title keeps the markdown whole (but its frontmatter, which sets the page's fields) unless its own title says the same.
  const body = parsed === undefined || markdown === undefined
    ? undefined
    : change.title === undefined || change.title === parsed.title
    ? parsed.body
    : splitFrontmatter(markdown).body.replace(/^(?:[ \t]*\r?\n)+/, "")
  return { title: change.title ?? parsed?.title, description: change.description ?? parsed?.description, body }
}

/**
 * What the frontmatter of a change's markdown says of the page (`undefined` without frontmatter);
 * refuses invalid YAML and values of the wrong type, naming the key.
 */
const frontmatterOf = (given: string | undefined): PageFrontmatter | undefined => {
  if (given === undefined) return undefined
  const { yaml } = splitFrontmatter(given)
  if (yaml === undefined) return undefined
  const read = readFrontmatter(yaml)
  if (!read.ok) return refuse(read.reason)
  const problems: Array<string> = []
  const front = pageFrontmatterOf(read.data, problems)
  if (problems.length > 0) refuse(`frontmatter: ${problems.map((problem) => problem.replace(/; ignored$/, "")).join("; ")}`)
  return front
}

/** The page fields a change's frontmatter sets (only those it has; `frontmatter` always, as the unmodelled keys are the document's). */
const frontmatterFields = (front: PageFrontmatter, files: ReadonlyArray<FileNode>): Partial<PageNode> => ({
  ...(front.icon === undefined ? {} : { icon: front.icon === "" ? undefined : front.icon }),
  ...(front.emoji === undefined ? {} : { emoji: front.emoji === "" ? undefined : front.emoji }),
  ...(front.hidden === undefined ? {} : { hidden: front.hidden }),
  ...(front.layout === undefined ? {} : { layout: Object.keys(front.layout).length === 0 ? undefined : front.layout }),
  ...(front.cover === undefined
    ? {}
    : {
      cover: front.cover.trim() === "" ? undefined : {
        ref: coverRefOf(front.cover, files),
        ...(front.coverY === undefined ? {} : { yPos: front.coverY }),
        ...(front.coverHeight === undefined ? {} : { height: front.coverHeight })
      }
    }),
  frontmatter: Object.keys(front.extra).length === 0 ? undefined : front.extra
})

/** `icon` or `emoji` of a change: empty removes it, absent keeps `was`. */
const iconField = (given: string | undefined, was: string | undefined) => given === undefined ? was : given === "" ? undefined : given

/** The node of a page an insert_page change adds: its frontmatter's fields, then the change's. */
const insertedNode = (
  change: Extract<Change, { readonly operation: "insert_page" }>,
  page: { readonly id: string; readonly kind: ReturnType<typeof insertedPageKind>; readonly title: string; readonly slug: string },
  meta: ReturnType<typeof metadataOf>,
  front: PageFrontmatter | undefined,
  files: ReadonlyArray<FileNode>,
  options: ApplyOptions
): Draft["node"] => {
  const { id, kind, slug, title } = page
  return withoutUndefined({
    id,
    type: kind.ok ? kind.type : "document",
    ...(kind.ok && kind.target !== undefined ? { target: kind.target } : {}),
    title,
    slug,
    ...(front === undefined ? {} : frontmatterFields(front, files)),
    ...(change.emoji === undefined ? {} : { emoji: iconField(change.emoji, undefined) }),
    ...(change.icon === undefined ? {} : { icon: iconField(change.icon, undefined) }),
    ...(change.hidden === undefined ? {} : { hidden: change.hidden }),
    linkTitle: linkTitleField(change.linkTitle, undefined),
    description: meta.description,
    createdAt: options.now,
    updatedAt: options.now
  })
}

/** A page's node after an update_page change: the change's fields over its frontmatter's over the page's. */
const updatedNode = (
  node: Draft["node"],
  change: Extract<Change, { readonly operation: "update_page" }>,
  slug: string,
  meta: ReturnType<typeof metadataOf>,
  front: PageFrontmatter | undefined,
  files: ReadonlyArray<FileNode>,
  options: ApplyOptions
): Draft["node"] => {
  const fromFront = front === undefined ? {} : frontmatterFields(front, files)
  return withoutUndefined({
    ...node,
    ...fromFront,
    slug,
    title: meta.title ?? node.title,
    emoji: iconField(change.emoji, "emoji" in fromFront ? fromFront.emoji : node.emoji),
    icon: iconField(change.icon, "icon" in fromFront ? fromFront.icon : node.icon),
    description: meta.description ?? node.description,
    hidden: change.hidden ?? ("hidden" in fromFront ? fromFront.hidden : node.hidden),
    linkTitle: linkTitleField(change.linkTitle, node.linkTitle),
    updatedAt: options.now
  })
}

/**
 * Applies `changes` in order to a revision's `pages` and `files`. Each change sees the result of
 * those before it; the first that cannot apply rejects the whole batch.
 */
export const applyChanges = (
  base: { readonly pages: ReadonlyArray<PageNode>; readonly files: ReadonlyArray<FileNode> },
  changes: ReadonlyArray<Change>,
  options: ApplyOptions
): { readonly kind: "applied"; readonly value: Applied } | { readonly kind: "rejected"; readonly value: Rejected } => {
  const index = new Map<string, Draft>()
  const root: Draft = { node: { id: "", type: "group", title: "", slug: "", createdAt: "", updatedAt: "" }, children: [], parent: null }
  root.children = draftsOf(base.pages, null, index)
  const files = [...base.files]
  const refs = new Map<string, string>()
  const written = new Map<string, string>()
  /** Markdown of documents written by the batch, by page id, so refs resolve once every page exists. */
  const pending = new Map<string, string>()
  const outcomes = new Map<string, Outcome>()

  const siblingsOf = (draft: Draft) => (draft.parent ?? root).children
  const resolve = (idOrRef: string): Draft => {
    const found = index.get(refs.get(idOrRef) ?? idOrRef)
    return found ?? refuse(`no page ${JSON.stringify(idOrRef)} in the change request`)
  }
  const containerOf = (into: string | null | undefined): Draft => (into === undefined || into === null ? root : resolve(into))
  const takenIn = (container: Draft, except?: Draft) =>
    new Set(container.children.filter((child) => child !== except).map((child) => child.node.slug))
  const place = (container: Draft, draft: Draft, at: number | undefined) => {
    const siblings = container.children
    if (at !== undefined && at > siblings.length) refuse(`at ${at} is beyond the ${siblings.length} pages there`)
    siblings.splice(at ?? siblings.length, 0, draft)
    draft.parent = container === root ? null : container
  }
  const document = (draft: Draft, markdown: string) => {
    pending.set(draft.node.id, markdown)
  }

  for (const [position, change] of changes.entries()) {
    try {
      switch (change.operation) {
        case "insert_page": {
          const container = containerOf(change.into)
          if (container !== root && container.node.type === "link") refuse("pages cannot go inside a link page")
          if (change.ref !== undefined && (refs.has(change.ref) || index.has(change.ref))) {
            refuse(`ref ${JSON.stringify(change.ref)} is already used in this batch`)
          }
          const kind = insertedPageKind(change, (idOrRef) => index.get(refs.get(idOrRef) ?? idOrRef)?.node.id)
          if (!kind.ok) refuse(kind.reason)
          const meta = metadataOf(change, change.markdown)
          const front = frontmatterOf(change.markdown)
          const title = meta.title ?? "Untitled"
          const taken = takenIn(container)
          const slug = change.slug === undefined ? uniqueSlug(slugify(title), taken) : checkSlug(change.slug)
          if (taken.has(slug)) refuse(`slug ${JSON.stringify(slug)} is taken by a sibling page`)
          const id = options.makeId()
          const draft: Draft = {
            node: insertedNode(change, { id, kind, title, slug }, meta, front, files, options),
            children: [],
            parent: null
          }
          place(container, draft, change.at)
          index.set(id, draft)
          if (draft.node.type === "document") document(draft, meta.body ?? "")
          if (change.ref !== undefined) refs.set(change.ref, id)
          outcomes.set(id, { kind: "created", pageId: id, ref: change.ref })
          break
        }
        case "update_page": {
          const draft = resolve(change.page)
          const meta = metadataOf(change, change.markdown)
          const front = frontmatterOf(change.markdown)
          if (meta.body !== undefined && draft.node.type !== "document") refuse(`page ${JSON.stringify(change.page)} is a ${draft.node.type}, not a document`)
          if (change.into !== undefined || change.at !== undefined) {
            const container = change.into === undefined ? (draft.parent ?? root) : containerOf(change.into)
            for (let up: Draft | null = container; up !== null && up !== root; up = up.parent) {
              if (up === draft) refuse("a page cannot move into itself or one of its subpages")
            }
            if (container !== root && container.node.type === "link") refuse("pages cannot go inside a link page")
            if (container !== root && draft.node.type === "group") refuse("into: a group goes at the top level, not inside a page")
            const siblings = siblingsOf(draft)
            const from = siblings.indexOf(draft)
            siblings.splice(from, 1)
            const sameParent = container.children === siblings
            place(container, draft, change.at ?? (sameParent ? from : undefined))
            if (takenIn(container, draft).has(draft.node.slug)) {
              draft.node = { ...draft.node, slug: uniqueSlug(draft.node.slug, takenIn(container, draft)) }
            }
          }
          const slug = change.slug === undefined ? draft.node.slug : checkSlug(change.slug)
          if (slug !== draft.node.slug && takenIn(draft.parent ?? root, draft).has(slug)) {
            refuse(`slug ${JSON.stringify(slug)} is taken by a sibling page`)
          }
          draft.node = updatedNode(draft.node, change, slug, meta, front, files, options)
          if (meta.body !== undefined) document(draft, meta.body)
          if (!outcomes.has(draft.node.id)) outcomes.set(draft.node.id, { kind: "updated", pageId: draft.node.id })
          break
        }
        case "delete_page": {
          const draft = resolve(change.page)
          const siblings = siblingsOf(draft)
          siblings.splice(siblings.indexOf(draft), 1)
          const forget = (d: Draft) => {
            index.delete(d.node.id)
            pending.delete(d.node.id)
            const previous = outcomes.get(d.node.id)
            if (previous?.kind === "created") outcomes.delete(d.node.id)
            else outcomes.set(d.node.id, { kind: "deleted", pageId: d.node.id })
            d.children.forEach(forget)
          }
          forget(draft)
          break
        }
        case "insert_files": {
          for (const file of change.files) {
            if (files.some((f) => f.id === file.id)) refuse(`file id ${JSON.stringify(file.id)} already exists`)
            files.push(file)
          }
          break
        }
      }
    } catch (error) {
      if (error instanceof Refusal) return { kind: "rejected", value: { index: position, reason: error.message } }
      throw error
    }
  }

  for (const [pageId, markdown] of pending) {
    const draft = index.get(pageId)!
    const resolved = resolveRefs(markdown, refs)
    const hash = documentHash(resolved)
    written.set(hash, resolved)
    draft.node = { ...draft.node, document: hash }
  }
  return {
    kind: "applied",
    value: { pages: treeOf(root.children), files, documents: written, outcomes: Array.from(outcomes.values()) }
  }
}
