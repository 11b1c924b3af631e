/**
 * The one write path of a space's content. Every writer (edits of main, templates, imports, a
 * change request's edits, merge, update, Git import) names the head it moves and a `build` step;
 * the writer does the rest once: see "Space content" in docs/content.md.
 */
import { Clock, Context, Data, Effect, HashMap, HashSet, Layer, Option, Result } from "effect"
import { Errors, Ids, Transactor } from "@quire/kernel"
import { type FileNode, flattenPages, type PageNode, type ReusableContentNode, type Revision, type RevisionGit, type RevisionType } from "./domain/Revision.ts"
import { checkReusableContents, reusableDocuments } from "./domain/ReusableContent.ts"
import { checkRevisionLimits, defaultRevisionLimits, type RevisionLimits, treeMeasure } from "./domain/RevisionLimits.ts"
import { shareFiles, sharePages, treeChanges } from "./domain/TreeDiff.ts"
import type { Space } from "./domain/Space.ts"
import { MainObservers } from "./MainObservers.ts"
import { keepMovedLinks } from "./MovedLinks.ts"
import { maxSlugLength } from "@quire/markdown"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { documentLinksOf } from "./markdown/DocumentLinks.ts"
import { ParsePool } from "./markdown/ParsePool.ts"
import { indexUpdate } from "./Search.ts"
import { SearchIndex } from "./SearchIndex.ts"
import { type HeldBlob, OrganizationStorageBytes, StorageUsageRepo } from "./StorageUsageRepo.ts"

/** What a `build` answers: the new revision's content, and the documents it introduces. */
export interface ContentChange {
  readonly pages: ReadonlyArray<PageNode>
  /** Absent: the parent revision's files. */
  readonly files?: ReadonlyArray<FileNode> | undefined
  /** Absent: the parent revision's variables. */
  readonly variables?: Readonly<Record<string, string>> | undefined
  /** Absent: the parent revision's reusable contents; their markdown is documents like pages'. */
  readonly reusableContents?: ReadonlyArray<ReusableContentNode> | undefined
  /**
   * The markdown of the documents the new pages point to and the parent does not, by
   * `documentHash`. Documents the parent already has are shared, never written again; documents
   * of other revisions (a duplicated space, a change request) are found in the store.
   */
  readonly documents?: ReadonlyMap<string, string> | undefined
  /** Default `edits`. */
  readonly type?: RevisionType | undefined
  /** Parents after the head (a merge: the change request's head; an update: main). */
  readonly otherParents?: ReadonlyArray<string> | undefined
  readonly git?: RevisionGit | null | undefined
}

/** A head as read at the start of an attempt: the space it belongs to and the revision it points at. */
export interface HeadState {
  readonly space: Space
  readonly revisionId: string
}

/** A head that moves by compare-and-set: a space's main content or a change request's branch. */
export interface Head<H extends HeadState, E = never, R = never> {
  /** Reads the head and checks that the caller may move it; runs at the start of every attempt. */
  readonly read: Effect.Effect<H, E, R>
  /** Points the head at `next` only if it still points at `head.revisionId` (inside the write's transaction). */
  readonly move: (head: H, next: Revision) => Effect.Effect<boolean>
  /** The space's main content: the search index follows it. */
  readonly main: boolean
  /** What the head is, for the Conflict after too many lost races ("space \"…\"", "change request 3"). */
  readonly describe: (head: H) => string
}

/** A write that landed. */
export interface Written<H extends HeadState, C extends ContentChange, A> {
  readonly revision: Revision
  readonly parent: Revision
  readonly head: H
  readonly change: C
  /** What `within` answered. */
  readonly result: A
}

export interface WriteOptions<H extends HeadState, C extends ContentChange, A, E, R> {
  /** A write by Quire itself (Git Sync): allowed on a locked space. The head still checks the caller. */
  readonly system?: boolean | undefined
  /** More writes of the same transaction, after the head moved (a failure rolls the revision back too). */
  readonly within?: ((written: Omit<Written<H, C, unknown>, "result">) => Effect.Effect<A, E, R>) | undefined
}

export interface RevisionWriterShape {
  /**
   * Turns the head's revision into a new immutable one with `build`, stores it and moves the head
   * by compare-and-set in one transaction. A lost race rolls back and runs `build` again on the
   * newer head, a few times, then fails with Conflict: a concurrent write is never lost. A revision
   * over the limits of domain/RevisionLimits.ts fails with InvalidInput naming the limit.
   */
  readonly write: <H extends HeadState, C extends ContentChange, E1 = never, R1 = never, E2 = never, R2 = never, A = undefined, E3 = never, R3 = never>(
    head: Head<H, E1, R1>,
    build: (parent: Revision, head: H) => Effect.Effect<C, E2, R2>,
    options?: WriteOptions<H, C, A, E3, R3>
  ) => Effect.Effect<Written<H, C, A>, E1 | E2 | E3 | Errors.Forbidden | Errors.Conflict | Errors.InvalidInput, R1 | R2 | R3>
}

/** Options of {@link RevisionWriter.layerWith}. */
export interface RevisionWriterOptions {
  /** Attempts of a write that keeps losing the race before it fails with Conflict (default 5). */
  readonly attempts?: number
  /** Bytes of files each organization may store; default `QUIRE_ORG_STORAGE_BYTES`, else 10 GiB. */
  readonly storageQuota?: number
  /**
   * What one revision may hold (default `defaultRevisionLimits`): tests lower them to prove a
   * refusal without building a revision of 100,000 pages.
   */
  readonly limits?: RevisionLimits
}

/** The head moved between reading it and moving it: the attempt rolls back and runs again. */
class LostRace extends Data.TaggedError("LostRace")<{ readonly head: string }> {}

/** Refuses content writes to a locked space, unless Quire itself writes (Git Sync). */
export const ensureWritable = (space: Space, system = false): Effect.Effect<void, Errors.Forbidden> =>
  space.editMode === "locked" && !system
    ? Effect.fail(
      new Errors.Forbidden({ reason: `Space ${JSON.stringify(space.id)} is locked: set its editMode to "live" to change its content` })
    )
    : Effect.void

const invalid = (field: string, reason: string) => Effect.fail(new Errors.InvalidInput({ field, reason }))

const validSlug = (slug: string) => slug !== "" && slug.length <= maxSlugLength && !slug.includes("/")

const checkPages = (pages: ReadonlyArray<PageNode>): Effect.Effect<void, Errors.InvalidInput> => {
  const ids = new Set<string>()
  const walk = (nodes: ReadonlyArray<PageNode>): Effect.Effect<void, Errors.InvalidInput> | undefined => {
    const slugs = new Set<string>()
    for (const page of nodes) {
      if (ids.has(page.id)) return invalid("pages", `page id ${JSON.stringify(page.id)} appears twice`)
      ids.add(page.id)
      if (!validSlug(page.slug)) {
        return invalid("slug", `${JSON.stringify(page.slug)} is not a valid slug (1 to ${maxSlugLength} characters, no "/")`)
      }
      if (slugs.has(page.slug)) return invalid("slug", `two sibling pages have the slug ${JSON.stringify(page.slug)}`)
      slugs.add(page.slug)
      if (page.type === "document" && page.document === undefined) {
        return invalid("pages", `document page ${JSON.stringify(page.id)} has no document`)
      }
      const nested = walk(page.pages)
      if (nested !== undefined) return nested
    }
    return undefined
  }
  return walk(pages) ?? Effect.void
}

const checkFiles = (files: ReadonlyArray<FileNode>): Effect.Effect<void, Errors.InvalidInput> => {
  const fileIds = new Set<string>()
  for (const file of files) {
    if (fileIds.has(file.id)) return invalid("files", `file id ${JSON.stringify(file.id)} appears twice`)
    fileIds.add(file.id)
  }
  return Effect.void
}

/** A tree a revision may hold: unique page and file ids, unique non-empty slugs among siblings, documents with a document. */
export const checkTree = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode>): Effect.Effect<void, Errors.InvalidInput> =>
  Effect.andThen(checkPages(pages), checkFiles(files))

/** A page's own rules of `checkTree`: a valid slug, and a document if it is one. */
const validPage = (page: PageNode) => validSlug(page.slug) && !(page.type === "document" && page.document === undefined)

const uniqueSlugs = (pages: ReadonlyArray<PageNode>) => pages.length < 2 || new Set(pages.map((page) => page.slug)).size === pages.length

/** The ids of a page tree's pages. */
type PageIds = HashSet.HashSet<string>

const pageIdsOf = (pages: ReadonlyArray<PageNode>): PageIds => HashSet.fromIterable(flattenPages(pages).map(({ page }) => page.id))

/** Pages a write may add for `keepsValid` to look for their ids in the tree before it rather than make the tree's set of ids. */
const fewAdded = 16

/**
 * Whether the pages `changes` adds have ids of their own: not another added page's, nor one of
 * `before`'s that `changes` does not remove (what `keepsValid` asks of the set of ids). A walk of
 * `before` costs a few tenths of a millisecond for 10,000 pages; the persistent set of their ids
 * took tens, and the first write that adds a page after a restart made it.
 */
const addedIdsFree = (before: ReadonlyArray<PageNode>, changes: { readonly added: ReadonlyArray<{ readonly page: PageNode }>; readonly removed: ReadonlyArray<{ readonly page: PageNode }> }): boolean => {
  const added = new Set<string>()
  for (const { page } of changes.added) {
    if (added.has(page.id)) return false
    added.add(page.id)
  }
  const removed = new Set(changes.removed.map(({ page }) => page.id))
  const stack = [before]
  for (let nodes = stack.pop(); nodes !== undefined; nodes = stack.pop()) {
    for (const page of nodes) {
      if (added.has(page.id) && !removed.has(page.id)) return false
      if (page.pages.length > 0) stack.push(page.pages)
    }
  }
  return true
}

/** The blobs of `files` that `parent` does not point to, each once. */
const introducedBlobs = (parent: ReadonlyArray<FileNode>, files: ReadonlyArray<FileNode>): ReadonlyArray<HeldBlob> => {
  const inherited = new Set(parent.map((f) => f.blob))
  const introduced = new Map<string, number>()
  for (const file of files) if (!inherited.has(file.blob)) introduced.set(file.blob, file.size)
  return Array.from(introduced, ([blob, size]) => ({ blob, size }))
}

/** The documents of a page tree, with how many of its pages point to each. */
type DocumentCounts = HashMap.HashMap<string, number>

/** Counted in a plain map, then made persistent once per document rather than updated once per page. */
const countDocuments = (pages: ReadonlyArray<PageNode>): DocumentCounts => {
  const counts = new Map<string, number>()
  const stack = [pages]
  for (let nodes = stack.pop(); nodes !== undefined; nodes = stack.pop()) {
    for (const page of nodes) {
      if (page.document !== undefined) counts.set(page.document, (counts.get(page.document) ?? 0) + 1)
      if (page.pages.length > 0) stack.push(page.pages)
    }
  }
  return HashMap.mutate(HashMap.empty<string, number>(), (draft) => {
    for (const [hash, count] of counts) HashMap.set(draft, hash, count)
  })
}

const moveCount = (counts: DocumentCounts, hash: string | undefined, by: number): DocumentCounts => {
  if (hash === undefined) return counts
  const count = Option.getOrElse(HashMap.get(counts, hash), () => 0) + by
  return count === 0 ? HashMap.remove(counts, hash) : HashMap.set(counts, hash, count)
}

/**
 * What a writer knows of trees, kept by object: nodes are immutable and a write shares its
 * parent's (`sharePages`), so a tree's size, that it passed the checks and its documents are
 * found again instead of computed again.
 */
const treeKnowledge = () => {
  const measure = treeMeasure()
  const validPages = new WeakSet<ReadonlyArray<PageNode>>()
  const validFiles = new WeakSet<ReadonlyArray<FileNode>>()
  /** The ids of valid trees, once a write that adds pages needed them. */
  const pageIds = new WeakMap<ReadonlyArray<PageNode>, PageIds>()
  const documentCounts = new WeakMap<ReadonlyArray<PageNode>, DocumentCounts>()
  const countsOf = (pages: ReadonlyArray<PageNode>): DocumentCounts => {
    const known = documentCounts.get(pages)
    if (known !== undefined) return known
    const counts = countDocuments(pages)
    documentCounts.set(pages, counts)
    return counts
  }
  const rememberCounts = (pages: ReadonlyArray<PageNode>, counts: DocumentCounts) => {
    documentCounts.set(pages, counts)
  }
  /**
   * Whether `after` passes `checkTree`'s page rules given that `before` does, looking only at what
   * the diff names: the pages changed or added have a valid slug and a document if they are one,
   * the lists where a page was added or renamed keep their slugs unique, and the added pages' ids
   * are not among the others (the ids of `before`, made once, then kept along the writes). False
   * when a page moved or a rule is broken: the caller checks the whole tree (and names the rule).
   */
  const keepsValid = (before: ReadonlyArray<PageNode>, after: ReadonlyArray<PageNode>): boolean => {
    if (before === after) return true
    const changes = treeChanges(before, after)
    if (changes === undefined || !changes.changed.every(({ after: page }) => validPage(page)) || !changes.lists.every(uniqueSlugs)) return false
    if (!changes.added.every(({ page }) => validPage(page) && uniqueSlugs(page.pages))) return false
    const known = pageIds.get(before)
    if (changes.added.length === 0 && known === undefined) return true
    if (known === undefined && changes.added.length <= fewAdded) return addedIdsFree(before, changes)
    let ids = known ?? pageIdsOf(before)
    for (const { page } of changes.removed) ids = HashSet.remove(ids, page.id)
    for (const { page } of changes.added) {
      if (HashSet.has(ids, page.id)) return false
      ids = HashSet.add(ids, page.id)
    }
    pageIds.set(after, ids)
    return true
  }
  /** `checkTree`, over what differs from a parent that passed it when no page moved. */
  const checkWritten = (parent: Revision, pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode>) =>
    Effect.gen(function*() {
      if (!(validPages.has(parent.pages) && keepsValid(parent.pages, pages))) yield* checkPages(pages)
      if (!(validFiles.has(parent.files) && files === parent.files)) yield* checkFiles(files)
      validPages.add(pages)
      validFiles.add(files)
    })
  /**
   * The documents `change` may introduce over `parent` (what its diff names, or all of its tree when
   * a page moved), and whether `parent`'s tree points to a document already.
   */
  const candidateDocuments = (parent: Revision, change: ContentChange) => {
    // No page moved: only the pages the diff names can point to a new document.
    const changes = treeChanges(parent.pages, change.pages)
    const candidates = new Set(reusableDocuments(change.reusableContents ?? parent.reusableContents))
    let inherited: (hash: string) => boolean
    if (changes === undefined) {
      const parentCounts = countsOf(parent.pages)
      const counts = countDocuments(change.pages)
      for (const [hash] of counts) candidates.add(hash)
      rememberCounts(change.pages, counts)
      inherited = (hash) => HashMap.has(parentCounts, hash)
    } else {
      for (const { after } of changes.changed) if (after.document !== undefined) candidates.add(after.document)
      for (const { page } of changes.added) if (page.document !== undefined) candidates.add(page.document)
      // A parent this process has not counted (the first write to a space after a start, which
      // reads and splits the whole tree anyway) is counted once; its descendants' counts follow
      // from the diff, so later writes never walk the tree.
      const parentCounts = countsOf(parent.pages)
      // In one mutation: an import adds every page of its tree at once.
      const counts = HashMap.mutate(parentCounts, (draft) => {
        for (const { before, after } of changes.changed) {
          if (before.document !== after.document) moveCount(moveCount(draft, before.document, -1), after.document, 1)
        }
        for (const { page } of changes.removed) moveCount(draft, page.document, -1)
        for (const { page } of changes.added) moveCount(draft, page.document, 1)
      })
      rememberCounts(change.pages, counts)
      inherited = (hash) => HashMap.has(parentCounts, hash)
    }
    return { candidates, inherited }
  }
  return { measure, candidateDocuments, checkWritten }
}

export class RevisionWriter extends Context.Service<RevisionWriter, RevisionWriterShape>()("@quire/content/RevisionWriter") {
  static readonly layerWith = (options: RevisionWriterOptions = {}) =>
    Layer.effect(
      RevisionWriter,
      Effect.gen(function*() {
        const revisions = yield* RevisionsRepo
        const pool = yield* ParsePool
        const searchIndex = yield* SearchIndex
        const ids = yield* Ids.Ids
        const transactor = yield* Transactor.Transactor
        const observers = yield* MainObservers
        const usage = yield* StorageUsageRepo
        const quota = options.storageQuota ?? (yield* Effect.orDie(OrganizationStorageBytes))
        const attempts = Math.max(1, options.attempts ?? 5)
        const limits = options.limits ?? defaultRevisionLimits
        const { measure, candidateDocuments, checkWritten } = treeKnowledge()

        const stored = (revisionId: string, what: string) =>
          Effect.flatMap(revisions.find(revisionId), Option.match({
            onNone: () => Effect.die(new Error(`${what} points at a missing revision ${revisionId}`)),
            onSome: Effect.succeed
          }))

        /**
         * The documents to write (those the new tree points to that its parent does not), and those
         * it takes from the store (other revisions' documents; each must be known).
         */
        const introducedDocuments = Effect.fnUntraced(function*(parent: Revision, change: ContentChange) {
          const inheritedReusable = new Set(reusableDocuments(parent.reusableContents))
          const { candidates, inherited } = candidateDocuments(parent, change)
          const given = change.documents ?? new Map<string, string>()
          const introduced = new Map<string, string>()
          const unknown: Array<string> = []
          for (const hash of candidates) {
            if (inherited(hash) || inheritedReusable.has(hash)) continue
            const markdown = given.get(hash)
            if (markdown === undefined) unknown.push(hash)
            else introduced.set(hash, markdown)
          }
          if (unknown.length > 0) {
            const found = yield* revisions.documents(unknown)
            const missing = unknown.filter((hash) => !found.has(hash))
            if (missing.length > 0) return yield* Effect.die(new Error(`A write points at unknown documents: ${missing.join(", ")}`))
          }
          return { introduced, shared: unknown }
        })

        const write = <H extends HeadState, C extends ContentChange, E1, R1, E2, R2, A, E3, R3>(
          head: Head<H, E1, R1>,
          build: (parent: Revision, head: H) => Effect.Effect<C, E2, R2>,
          writeOptions?: WriteOptions<H, C, A, E3, R3>
        ) => {
          const attempt = Effect.gen(function*() {
            const state = yield* head.read
            yield* ensureWritable(state.space, writeOptions?.system === true)
            const parent = yield* stored(state.revisionId, head.describe(state))
            const made = yield* build(parent, state)
            // Pages and files equal to the parent's are the parent's: what follows skips them by identity.
            const files = shareFiles(parent.files, made.files ?? parent.files)
            const pages = sharePages(parent.pages, made.pages)
            const built: C = pages === made.pages ? made : { ...made, pages }
            // Links to a page the write moved (and a moved page's own relative links) follow it, in this revision.
            const relinked = yield* keepMovedLinks(parent, built, files, revisions.documents)
            const change: C = relinked === undefined ? built : { ...built, ...relinked, pages: sharePages(parent.pages, relinked.pages) }
            yield* checkWritten(parent, change.pages, files)
            const reusableContents = change.reusableContents ?? parent.reusableContents ?? []
            yield* checkReusableContents(reusableContents)
            const { introduced: documents, shared } = yield* introducedDocuments(parent, change)
            const createdAt = new Date(yield* Clock.currentTimeMillis)
            const next: Revision = {
              id: yield* ids.make,
              spaceId: state.space.id,
              parents: [parent.id, ...(change.otherParents ?? [])],
              type: change.type ?? "edits",
              pages: change.pages,
              files,
              ...(reusableContents.length === 0 ? {} : { reusableContents }),
              variables: change.variables ?? parent.variables,
              git: change.git ?? null,
              createdAt
            }
            // What any write may store (pages, files, tree and markdown sizes), so every row reads back.
            yield* checkRevisionLimits(next, documents, limits, measure)
            // Only the pages this write changed are parsed, before the transaction: for the search
            // index, and for the links of the documents it introduces (the link graph reads them).
            const indexing = head.main ? yield* indexUpdate(revisions, parent, next, documents).pipe(Effect.provideService(ParsePool, pool)) : undefined
            // `checkRevisionLimits` found every document within the markdown limits.
            const links = yield* documentLinksOf(documents, { withinLimits: true }).pipe(Effect.provideService(ParsePool, pool))
            const result = yield* transactor.transaction(Effect.gen(function*() {
              yield* revisions.insert(next, documents, shared, links)
              if (!(yield* head.move(state, next))) return yield* new LostRace({ head: head.describe(state) })
              // The files' bytes count against the organization's quota with the revision, or not at all.
              const blobs = files === parent.files ? [] : introducedBlobs(parent.files, files)
              if (!(yield* usage.hold(state.space.organizationId, state.space.id, blobs, quota))) {
                const used = yield* usage.used(state.space.organizationId)
                const needed = blobs.reduce((sum, b) => sum + b.size, 0)
                return yield* new Errors.Forbidden({
                  reason: `The organization's storage quota of ${quota} bytes is used up (${used} bytes stored; ` +
                    `the files of this write need up to ${needed} more)`
                })
              }
              if (indexing !== undefined) yield* searchIndex.update(state.space.id, indexing.pages, indexing.removed)
              const written = { revision: next, parent, head: state, change }
              return writeOptions?.within === undefined ? (undefined as A) : yield* writeOptions.within(written)
            }))
            const written: Written<H, C, A> = { revision: next, parent, head: state, change, result }
            if (head.main) yield* observers.mainMoved(state.space, next)
            return written
          })
          return Effect.gen(function*() {
            for (let n = 1; ; n++) {
              const landed = yield* attempt.pipe(
                Effect.map(Result.succeed),
                Effect.catch((error) => error instanceof LostRace ? Effect.succeed(Result.fail(error)) : Effect.fail(error as Exclude<typeof error, LostRace>))
              )
              if (Result.isSuccess(landed)) return landed.success
              yield* Effect.annotateCurrentSpan("lostRaces", n)
              if (n >= attempts) {
                return yield* new Errors.Conflict({ reason: `The content of ${landed.failure.head} kept changing during the update; try again` })
              }
            }
          }).pipe(Effect.withSpan("RevisionWriter.write"))
        }

        return RevisionWriter.of({ write })
      })
    )

  /** The write path with default bounds; needs RevisionsRepo, SearchIndex, StorageUsageRepo, MainObservers, the ParsePool, Ids and a Transactor. */
  static readonly layer = RevisionWriter.layerWith()
}
