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

type OwnFields = Omit<PageNode, "pages">

/** A page of the tree a batch edits (see `draftTree`). */
interface Draft {
  /** The page as the base tree has it; undefined for a page the batch inserted. */
  readonly base: PageNode | undefined
  /** Its own fields once a change set them; until then, the base node's. */
  own: OwnFields | undefined
  /** Its subpages once a change looked among them; until then, the base node's, untouched. */
  kids: Array<Draft> | undefined
  parent: Draft | null
}

class Refusal extends Error {}
const refuse = (reason: string): never => {
  throw new Refusal(reason)
}

/** A page's own fields: all but its subpages. */
const ownFields = (page: PageNode): OwnFields => {
  const { pages: _, ...own } = page
  return own
}

/** The pages from `pages` down to the page `id` (itself last), or undefined when it is not there. */
const pathTo = (pages: ReadonlyArray<PageNode>, id: string): Array<PageNode> | undefined => {
  for (const page of pages) {
    if (page.id === id) return [page]
    if (page.pages.length > 0) {
      const below = pathTo(page.pages, id)
      if (below !== undefined) {
        below.unshift(page)
        return below
      }
    }
  }
  return undefined
}

/** `pages`, or `before` itself when every page of both is the same object. */
const sameListOr = (pages: Array<PageNode>, before: ReadonlyArray<PageNode> | undefined): ReadonlyArray<PageNode> =>
  before !== undefined && pages.length === before.length && pages.every((page, i) => page === before[i]) ? before : pages

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
): OwnFields => {
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
  node: OwnFields,
  change: Extract<Change, { readonly operation: "update_page" }>,
  slug: string,
  meta: ReturnType<typeof metadataOf>,
  front: PageFrontmatter | undefined,
  files: ReadonlyArray<FileNode>,
  options: ApplyOptions
): OwnFields => {
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
 * The tree a batch edits, as drafts made on demand over the base tree's immutable nodes: only the
 * pages a change names, those on the way to them and their siblings get one. `pages` answers the
 * tree as edited, every page no change touched (and every list of them) the base's, by identity.
 */
const draftTree = (pages: ReadonlyArray<PageNode>) => {
  const index = new Map<string, Draft>()
  const root: Draft = {
    base: { id: "", type: "group", title: "", slug: "", createdAt: "", updatedAt: "", pages },
    own: undefined,
    kids: undefined,
    parent: null
  }

  const nodeOf = (draft: Draft): OwnFields => draft.own ?? draft.base!
  const ownOf = (draft: Draft): OwnFields => draft.own ?? ownFields(draft.base!)
  /** A draft's subpages as drafts, made (and indexed) the first time a change looks among them. */
  const kidsOf = (draft: Draft): Array<Draft> => {
    draft.kids ??= (draft.base?.pages ?? []).map((page) => {
      const kid: Draft = { base: page, own: undefined, kids: undefined, parent: draft === root ? null : draft }
      index.set(page.id, kid)
      return kid
    })
    return draft.kids
  }
  /** The draft of page `id`, made with those on the way to it when no change touched it yet. */
  const locate = (id: string): Draft | undefined => {
    const search = (draft: Draft): Draft | undefined => {
      if (draft.kids !== undefined) {
        for (const kid of draft.kids) {
          const found = search(kid)
          if (found !== undefined) return found
        }
        return undefined
      }
      // Drafts made so far are indexed: the page can only be among subpages no change looked at.
      const path = pathTo(draft.base?.pages ?? [], id)
      let at: Draft | undefined = path === undefined ? undefined : draft
      for (const page of path ?? []) at = kidsOf(at!).find((kid) => kid.base === page)
      return at
    }
    return index.get(id) ?? search(root)
  }
  /** A page as the batch left it: one no change touched is its base node. */
  const pageOf = (draft: Draft): PageNode => {
    const before = draft.base?.pages
    const pages = draft.kids === undefined ? before ?? [] : sameListOr(draft.kids.map(pageOf), before)
    return draft.own === undefined && pages === before ? draft.base! : { ...ownOf(draft), pages }
  }

  return { root, index, nodeOf, ownOf, kidsOf, locate, pages: () => pageOf(root).pages }
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
  const { root, index, nodeOf, ownOf, kidsOf, locate, pages } = draftTree(base.pages)
  let files = base.files
  const refs = new Map<string, string>()
  const written = new Map<string, string>()
  /** Markdown of documents written by the batch, by page id, so refs resolve once every page exists. */
  const pending = new Map<string, string>()
  const outcomes = new Map<string, Outcome>()

  const siblingsOf = (draft: Draft) => kidsOf(draft.parent ?? root)
  const resolve = (idOrRef: string): Draft => {
    const found = locate(refs.get(idOrRef) ?? idOrRef)
    return found ?? refuse(`no page ${JSON.stringify(idOrRef)} in the change request`)
  }
  const containerOf = (into: string | null | undefined): Draft => (into === undefined || into === null ? root : resolve(into))
  const takenIn = (container: Draft, except?: Draft) =>
    new Set(kidsOf(container).filter((child) => child !== except).map((child) => nodeOf(child).slug))
  const place = (container: Draft, draft: Draft, at: number | undefined) => {
    const siblings = kidsOf(container)
    if (at !== undefined && at > siblings.length) refuse(`at ${at} is beyond the ${siblings.length} pages there`)
    siblings.splice(at ?? siblings.length, 0, draft)
    draft.parent = container === root ? null : container
  }
  const document = (draft: Draft, markdown: string) => {
    pending.set(nodeOf(draft).id, markdown)
  }

  for (const [position, change] of changes.entries()) {
    try {
      switch (change.operation) {
        case "insert_page": {
          const container = containerOf(change.into)
          if (container !== root && nodeOf(container).type === "link") refuse("pages cannot go inside a link page")
          if (change.ref !== undefined && (refs.has(change.ref) || locate(change.ref) !== undefined)) {
            refuse(`ref ${JSON.stringify(change.ref)} is already used in this batch`)
          }
          const kind = insertedPageKind(change, (idOrRef) => {
            const found = locate(refs.get(idOrRef) ?? idOrRef)
            return found === undefined ? undefined : nodeOf(found).id
          })
          if (!kind.ok) refuse(kind.reason)
          const meta = metadataOf(change, change.markdown)
          const front = frontmatterOf(change.markdown)
          const title = meta.title ?? "Untitled"
          const taken = takenIn(container)
          const slug = change.slug === undefined ? uniqueSlug(slugify(title), taken) : checkSlug(change.slug)
          if (taken.has(slug)) refuse(`slug ${JSON.stringify(slug)} is taken by a sibling page`)
          const id = options.makeId()
          const draft: Draft = {
            base: undefined,
            own: insertedNode(change, { id, kind, title, slug }, meta, front, files, options),
            kids: [],
            parent: null
          }
          place(container, draft, change.at)
          index.set(id, draft)
          if (nodeOf(draft).type === "document") document(draft, meta.body ?? "")
          if (change.ref !== undefined) refs.set(change.ref, id)
          outcomes.set(id, { kind: "created", pageId: id, ref: change.ref })
          break
        }
        case "update_page": {
          const draft = resolve(change.page)
          const meta = metadataOf(change, change.markdown)
          const front = frontmatterOf(change.markdown)
          const type = nodeOf(draft).type
          if (meta.body !== undefined && type !== "document") refuse(`page ${JSON.stringify(change.page)} is a ${type}, not a document`)
          if (change.into !== undefined || change.at !== undefined) {
            const container = change.into === undefined ? (draft.parent ?? root) : containerOf(change.into)
            for (let up: Draft | null = container; up !== null && up !== root; up = up.parent) {
              if (up === draft) refuse("a page cannot move into itself or one of its subpages")
            }
            if (container !== root && nodeOf(container).type === "link") refuse("pages cannot go inside a link page")
            if (container !== root && type === "group") refuse("into: a group goes at the top level, not inside a page")
            const siblings = siblingsOf(draft)
            const from = siblings.indexOf(draft)
            siblings.splice(from, 1)
            const sameParent = kidsOf(container) === siblings
            place(container, draft, change.at ?? (sameParent ? from : undefined))
            if (takenIn(container, draft).has(nodeOf(draft).slug)) {
              draft.own = { ...ownOf(draft), slug: uniqueSlug(nodeOf(draft).slug, takenIn(container, draft)) }
            }
          }
          const slug = change.slug === undefined ? nodeOf(draft).slug : checkSlug(change.slug)
          if (slug !== nodeOf(draft).slug && takenIn(draft.parent ?? root, draft).has(slug)) {
            refuse(`slug ${JSON.stringify(slug)} is taken by a sibling page`)
          }
          draft.own = updatedNode(ownOf(draft), change, slug, meta, front, files, options)
          const id = nodeOf(draft).id
          if (meta.body !== undefined) document(draft, meta.body)
          if (!outcomes.has(id)) outcomes.set(id, { kind: "updated", pageId: id })
          break
        }
        case "delete_page": {
          const draft = resolve(change.page)
          const siblings = siblingsOf(draft)
          siblings.splice(siblings.indexOf(draft), 1)
          const forget = (id: string) => {
            index.delete(id)
            pending.delete(id)
            if (outcomes.get(id)?.kind === "created") outcomes.delete(id)
            else outcomes.set(id, { kind: "deleted", pageId: id })
          }
          // Subpages no change looked at have no draft (nor a document pending, nor an outcome yet).
          const forgetPages = (pages: ReadonlyArray<PageNode>): void =>
            pages.forEach((page) => {
              forget(page.id)
              forgetPages(page.pages)
            })
          const forgetDraft = (d: Draft): void => {
            forget(nodeOf(d).id)
            if (d.kids === undefined) forgetPages(d.base?.pages ?? [])
            else d.kids.forEach(forgetDraft)
          }
          forgetDraft(draft)
          break
        }
        case "insert_files": {
          const added = [...files]
          for (const file of change.files) {
            if (added.some((f) => f.id === file.id)) refuse(`file id ${JSON.stringify(file.id)} already exists`)
            added.push(file)
          }
          files = added
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
    draft.own = { ...ownOf(draft), document: hash }
  }
  return {
    kind: "applied",
    value: { pages: pages(), files, documents: written, outcomes: Array.from(outcomes.values()) }
  }
}
