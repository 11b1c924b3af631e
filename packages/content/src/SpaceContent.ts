/**
 * Use cases on a space's content: reads of its current revision (the tree of pages, a page with
 * its markdown, the files) and the one write path every feature uses, `commit`, which turns the
 * current revision into a new immutable one. Templates and website imports are commits.
 *
 * Who may do what (decided by Access through ContentAccess): reads need `view` (a caller who may
 * not view gets NotFound); writes need `edit`, and a space whose `editMode` is `locked` refuses
 * them unless the commit is a system write (Git Sync, merges) that says so.
 */
import { Clock, Context, Data, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import * as Access from "./Access.ts"
import { BlobStore } from "./BlobStore.ts"
import { ContentAccess, type SpaceAccess } from "./ContentAccess.ts"
import { imageDimensions } from "./domain/ImageSize.ts"
import {
  documentHash,
  type FileNode,
  flattenPages,
  type PageNode,
  type Revision,
  type RevisionGit,
  type RevisionType
} from "./domain/Revision.ts"
import type { Space } from "./domain/Space.ts"
import { OutboundFetch, type OutboundFetchError } from "./importing/OutboundFetch.ts"
import { importWebsite as fetchWebsite, type ImportWebsiteOptions, type WebsiteImportError } from "./importing/WebsiteImporter.ts"
import { type JsonDocument, toJsonDocument } from "./markdown/JsonDocument.ts"
import { resolveLink } from "./markdown/Links.ts"
import { maxSlugLength, slugify, uniqueSlug } from "./markdown/Markdown.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { indexUpdate } from "./Search.ts"
import { SearchIndex } from "./SearchIndex.ts"
import { SpacesRepo } from "./SpacesRepo.ts"
import { type TemplatePage, templates } from "./templates/Templates.ts"

type Denied = Errors.NotFound | Errors.Forbidden

/** What a commit's `build` answers: the new revision's content, and the documents it introduces. */
export interface ContentChange {
  readonly pages: ReadonlyArray<PageNode>
  /** Absent: the current revision's files. */
  readonly files?: ReadonlyArray<FileNode> | undefined
  /** Absent: the current revision's variables. */
  readonly variables?: Readonly<Record<string, string>> | undefined
  /**
   * The markdown of the documents the new pages point to and the current revision does not, by
   * `documentHash`. Documents the current revision already has are shared, never written again.
   */
  readonly documents?: ReadonlyMap<string, string> | undefined
  /** Default `edits`. */
  readonly type?: RevisionType | undefined
  /** Parents after the current revision (a merge: the change request's head). */
  readonly otherParents?: ReadonlyArray<string> | undefined
  readonly git?: RevisionGit | null | undefined
}

export interface CommitOptions {
  /** A write by Quire itself (Git Sync, a merge): allowed on a locked space. The caller still needs `edit`. */
  readonly system?: boolean | undefined
}

/** The current revision of a space, as the caller may see it. */
export interface CurrentContent {
  readonly access: SpaceAccess
  readonly revision: Revision
}

/** A page of a revision, with its path and, for documents, its markdown. */
export interface RevisionPage {
  readonly revision: Revision
  readonly page: PageNode
  /** Slugs from the root, joined by `/`. */
  readonly path: string
  /** Documents: the page's markdown; groups and links have none. */
  readonly markdown?: string | undefined
}

/** A page of the current revision, as the caller may see it. */
export interface PageContent extends CurrentContent, RevisionPage {}

/** A website fetched for an import: `build` adds its pages after those of whichever revision it is committed on. */
export interface FetchedWebsite {
  readonly build: (parent: Revision) => Effect.Effect<ContentChange>
  readonly importedResources: number
  readonly totalResources: number
}

export interface FileContent extends CurrentContent {
  readonly file: FileNode
}

export interface FilesPage {
  readonly access: SpaceAccess
  readonly files: Pagination.Page<FileNode>
}

/** A file to store: its bytes go to the BlobStore, and its size and image dimensions are read from them. */
export interface NewFile {
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** The outcome of a website import. */
export interface ImportResult {
  readonly revision: Revision
  readonly importedResources: number
  readonly totalResources: number
}

export interface SpaceContentShape {
  /** The space's current revision. */
  readonly revision: (spaceId: string) => Effect.Effect<CurrentContent, Errors.NotFound, Actor.Actor>
  /** A page of the current revision; its markdown is read from the document store. */
  readonly page: (spaceId: string, pageId: string) => Effect.Effect<PageContent, Errors.NotFound, Actor.Actor>
  /** The current revision's files, ordered by name then id, keyset-paginated. */
  readonly files: (spaceId: string, page: Pagination.PageRequest) => Effect.Effect<FilesPage, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly file: (spaceId: string, fileId: string) => Effect.Effect<FileContent, Errors.NotFound, Actor.Actor>
  /**
   * The bytes of a file of a live space, for a download link the server signed (the link is the
   * caller's authority, so there is no Actor). NotFound when the space or the bytes are gone.
   */
  readonly download: (spaceId: string, blob: string) => Effect.Effect<Uint8Array, Errors.NotFound>
  /** A stored revision of the space's chain or of a change request's (no access check: callers check the space). */
  readonly revisionById: (revisionId: string) => Effect.Effect<Revision, Errors.NotFound>
  /** A page of a revision, with its markdown. */
  readonly pageIn: (revision: Revision, pageId: string) => Effect.Effect<RevisionPage, Errors.NotFound>
  /** A revision's files, ordered by name then id, keyset-paginated. */
  readonly filesIn: (revision: Revision, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<FileNode>, Errors.InvalidInput>
  readonly fileIn: (revision: Revision, fileId: string) => Effect.Effect<FileNode, Errors.NotFound>
  /** Fetches a website for an import (no access check: callers check `edit` first, so nobody makes Quire fetch for nothing). */
  readonly fetchWebsite: (url: string) => Effect.Effect<FetchedWebsite, Errors.InvalidInput>
  /** Stores a file's bytes and describes it (a new id); `commit` it to add it to a space. */
  readonly storeFile: (file: NewFile) => Effect.Effect<FileNode>
  /**
   * The write path: `build` turns the current revision into new content; the result becomes an
   * immutable revision whose parent is the current one, and the space moves to it only if nobody
   * moved it meanwhile (compare-and-set). A lost race runs `build` again on the newer revision, a
   * few times, then fails with Conflict: a concurrent write is never lost.
   */
  readonly commit: <E = never, R = never>(
    spaceId: string,
    build: (current: Revision) => Effect.Effect<ContentChange, E, R>,
    options?: CommitOptions
  ) => Effect.Effect<Revision, E | Denied | Errors.Conflict | Errors.InvalidInput, R | Actor.Actor>
  /** Adds the pages and files of a built-in template (by id) after the space's pages. */
  readonly applyTemplate: (spaceId: string, templateId: string) => Effect.Effect<Revision, Denied | Errors.Conflict | Errors.InvalidInput, Actor.Actor>
  /** Imports a website (the page at `url` and the same-site pages it links to) as pages after the space's pages. */
  readonly importWebsite: (spaceId: string, url: string) => Effect.Effect<ImportResult, Denied | Errors.Conflict | Errors.InvalidInput, Actor.Actor>
}

/** Options of {@link SpaceContent.layerWith}. */
export interface SpaceContentOptions {
  /** Attempts of a commit that keeps losing the race before it fails with Conflict (default 5). */
  readonly commitAttempts?: number
  /** Bounds of website imports. */
  readonly import?: ImportWebsiteOptions
}

class LostRace extends Data.TaggedError("LostRace")<{}> {}

// Trees ------------------------------------------------------------------------------------------

const documentHashes = (pages: ReadonlyArray<PageNode>): Set<string> => {
  const hashes = new Set<string>()
  for (const { page } of flattenPages(pages)) if (page.document !== undefined) hashes.add(page.document)
  return hashes
}

const locked = (spaceId: string) =>
  new Errors.Forbidden({ reason: `Space ${JSON.stringify(spaceId)} is locked: set its editMode to "live" to change its content` })

const invalid = (field: string, reason: string) => Effect.fail(new Errors.InvalidInput({ field, reason }))

/** A tree a revision may hold: unique page and file ids, unique non-empty slugs among siblings, documents with a document. */
export const checkTree = (pages: ReadonlyArray<PageNode>, files: ReadonlyArray<FileNode>): Effect.Effect<void, Errors.InvalidInput> => {
  const ids = new Set<string>()
  const walk = (nodes: ReadonlyArray<PageNode>): Effect.Effect<void, Errors.InvalidInput> | undefined => {
    const slugs = new Set<string>()
    for (const page of nodes) {
      if (ids.has(page.id)) return invalid("pages", `page id ${JSON.stringify(page.id)} appears twice`)
      ids.add(page.id)
      if (page.slug === "" || page.slug.length > maxSlugLength || page.slug.includes("/")) {
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
  const failed = walk(pages)
  if (failed !== undefined) return failed
  const fileIds = new Set<string>()
  for (const file of files) {
    if (fileIds.has(file.id)) return invalid("files", `file id ${JSON.stringify(file.id)} appears twice`)
    fileIds.add(file.id)
  }
  return Effect.void
}

/**
 * Rewrites the relative `.md` links of `markdown` whose first path segment is a top-level slug that
 * had to change (`quickstart.md` to `quickstart-2.md`, `guides/setup.md` to `guides-2/setup.md`).
 */
export const rewriteLinks = (markdown: string, renames: ReadonlyMap<string, string>): string =>
  renames.size === 0
    ? markdown
    : markdown.replace(
      /(\]\(\s*<?)(\.\/)?([^)\s>#/]+)((?:\/[^)\s>#]*)?\.md)(?=[#)\s>])/g,
      (match, open: string, dot: string | undefined, first: string, rest: string) => {
        const renamed = renames.get(first)
        return renamed === undefined ? match : `${open}${dot ?? ""}${renamed}${rest}`
      }
    )

/** Rewrites the links of the documents of `pages` for top-level slugs that had to change. */
const relink = (pages: ReadonlyArray<PageNode>, documents: Map<string, string>, renames: ReadonlyMap<string, string>) => {
  if (renames.size === 0) return { pages, documents }
  const rewritten = new Map<string, string>()
  const visit = (nodes: ReadonlyArray<PageNode>): ReadonlyArray<PageNode> =>
    nodes.map((node) => {
      const markdown = node.document === undefined ? undefined : documents.get(node.document)
      const children = visit(node.pages)
      if (markdown === undefined) return { ...node, pages: children }
      const next = rewriteLinks(markdown, renames)
      const hash = documentHash(next)
      rewritten.set(hash, next)
      return { ...node, document: hash, pages: children }
    })
  return { pages: visit(pages), documents: rewritten }
}

/**
 * A page's markdown as GitBook's JSON document, its links resolved against the page's revision:
 * pages by id, files by id, anything else as a URL.
 */
export const pageDocument = (content: RevisionPage): JsonDocument => {
  const entries = flattenPages(content.revision.pages)
  const context = {
    pagePath: content.path,
    pagesByPath: new Map(entries.map((entry) => [entry.path, entry.page.id])),
    fileIds: new Set(content.revision.files.map((f) => f.id)),
    appBaseUrl: "",
    rootPagePath: entries[0]?.path ?? ""
  }
  return toJsonDocument(content.markdown ?? "", (url, kind) => {
    const target = resolveLink({ url, kind }, context)?.target
    if (target?.kind === "file" && context.fileIds.has(target.file)) return { kind: "file", file: target.file }
    if (target?.kind === "page" && "page" in target) return { kind: "page", page: target.page }
    return { kind: "url", url }
  })
}

// The service -------------------------------------------------------------------------------------

export class SpaceContent extends Context.Service<SpaceContent, SpaceContentShape>()("@quire/content/SpaceContent") {
  static readonly layerWith = (options: SpaceContentOptions = {}) =>
    Layer.effect(
      SpaceContent,
      Effect.gen(function*() {
        const access = yield* ContentAccess
        const spaces = yield* SpacesRepo
        const revisions = yield* RevisionsRepo
        const searchIndex = yield* SearchIndex
        const blobs = yield* BlobStore
        const fetcher = yield* OutboundFetch
        const ids = yield* Ids.Ids
        const transactor = yield* Transactor.Transactor
        const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
        const attempts = Math.max(1, options.commitAttempts ?? 5)

        const currentOf = (space: Space): Effect.Effect<Revision> =>
          Effect.flatMap(revisions.find(space.revisionId), Option.match({
            onNone: () => Effect.die(new Error(`Space ${space.id} points at a missing revision ${space.revisionId}`)),
            onSome: Effect.succeed
          }))

        const current = Effect.fnUntraced(function*(spaceId: string) {
          const spaceAccess = yield* access.space(spaceId)
          return { access: spaceAccess, revision: yield* currentOf(spaceAccess.space) }
        })

        const revision = Effect.fn("SpaceContent.revision")(function*(spaceId: string) {
          return yield* current(spaceId)
        })

        const revisionById = Effect.fn("SpaceContent.revisionById")(function*(revisionId: string) {
          const found = yield* revisions.find(revisionId)
          if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Revision", id: revisionId })
          return found.value
        })

        const pageIn = Effect.fn("SpaceContent.pageIn")(function*(revision: Revision, pageId: string) {
          const found = flattenPages(revision.pages).find((entry) => entry.page.id === pageId)
          if (found === undefined) return yield* new Errors.NotFound({ resource: "Page", id: pageId })
          const hash = found.page.document
          if (hash === undefined) return { revision, page: found.page, path: found.path }
          const markdown = (yield* revisions.documents([hash])).get(hash)
          if (markdown === undefined) return yield* Effect.die(new Error(`Document ${hash} of page ${pageId} is missing`))
          return { revision, page: found.page, path: found.path, markdown }
        })

        const filesIn = Effect.fnUntraced(function*(revision: Revision, request: Pagination.PageRequest) {
          const after = yield* Pagination.cursorOf(request)
          return Pagination.paginateArray(revision.files, (f) => [f.name, f.id], {
            order: "asc",
            after,
            limit: Pagination.limitOf(request)
          })
        })

        const fileIn = Effect.fnUntraced(function*(revision: Revision, fileId: string) {
          const found = revision.files.find((f) => f.id === fileId)
          if (found === undefined) return yield* new Errors.NotFound({ resource: "File", id: fileId })
          return found
        })

        const page = Effect.fn("SpaceContent.page")(function*(spaceId: string, pageId: string) {
          const content = yield* current(spaceId)
          return { ...content, ...(yield* pageIn(content.revision, pageId)) }
        })

        const files = Effect.fn("SpaceContent.files")(function*(spaceId: string, request: Pagination.PageRequest) {
          const after = yield* Pagination.cursorOf(request)
          const content = yield* current(spaceId)
          return {
            access: content.access,
            files: Pagination.paginateArray(content.revision.files, (f) => [f.name, f.id], {
              order: "asc",
              after,
              limit: Pagination.limitOf(request)
            })
          }
        })

        const file = Effect.fn("SpaceContent.file")(function*(spaceId: string, fileId: string) {
          const content = yield* current(spaceId)
          return { ...content, file: yield* fileIn(content.revision, fileId) }
        })

        const download = Effect.fn("SpaceContent.download")(function*(spaceId: string, blob: string) {
          const space = yield* spaces.find(spaceId)
          const bytes = Option.isSome(space) && space.value.deletedAt === null ? yield* blobs.get(blob) : Option.none()
          if (Option.isNone(bytes)) return yield* new Errors.NotFound({ resource: "File", id: blob })
          return bytes.value
        })

        const storeFile = Effect.fn("SpaceContent.storeFile")(function*(input: NewFile) {
          const hash = yield* blobs.put(input.bytes)
          const dimensions = input.contentType.startsWith("image/") ? imageDimensions(input.bytes) : undefined
          const stored: FileNode = {
            id: yield* ids.make,
            name: input.name,
            contentType: input.contentType,
            size: input.bytes.byteLength,
            ...(dimensions === undefined ? {} : { dimensions }),
            blob: hash
          }
          return stored
        })

        /** The documents to write: those the new tree points to that its parent does not (each must be known). */
        const introducedDocuments = Effect.fnUntraced(function*(parent: Revision, change: ContentChange) {
          const inherited = documentHashes(parent.pages)
          const given = change.documents ?? new Map<string, string>()
          const introduced = new Map<string, string>()
          const unknown: Array<string> = []
          for (const hash of documentHashes(change.pages)) {
            if (inherited.has(hash)) continue
            const markdown = given.get(hash)
            if (markdown === undefined) unknown.push(hash)
            else introduced.set(hash, markdown)
          }
          if (unknown.length > 0) {
            // Documents of other revisions (a duplicated space, a change request) are shared too.
            const stored = yield* revisions.documents(unknown)
            const missing = unknown.filter((hash) => !stored.has(hash))
            if (missing.length > 0) return yield* Effect.die(new Error(`A commit points at unknown documents: ${missing.join(", ")}`))
          }
          return introduced
        })

        const attempt = <E, R>(
          spaceId: string,
          build: (current: Revision) => Effect.Effect<ContentChange, E, R>,
          options: CommitOptions | undefined
        ) =>
          Effect.gen(function*() {
            const { permissions, space } = yield* access.space(spaceId)
            yield* Access.ensure(permissions.edit, "edit this space's content")
            if (space.editMode === "locked" && options?.system !== true) {
              return yield* locked(spaceId)
            }
            const parent = yield* currentOf(space)
            const change = yield* build(parent)
            const files = change.files ?? parent.files
            yield* checkTree(change.pages, files)
            const documents = yield* introducedDocuments(parent, change)
            const createdAt = yield* now
            const next: Revision = {
              id: yield* ids.make,
              spaceId,
              parents: [parent.id, ...(change.otherParents ?? [])],
              type: change.type ?? "edits",
              pages: change.pages,
              files,
              variables: change.variables ?? parent.variables,
              git: change.git ?? null,
              createdAt
            }
            // Only the pages this commit changed are parsed, before the transaction.
            const indexing = yield* indexUpdate(revisions, parent, next, documents)
            yield* transactor.transaction(Effect.gen(function*() {
              yield* revisions.insert(next, documents)
              const moved = yield* spaces.setRevision(spaceId, parent.id, next.id, createdAt)
              // Failing rolls the revision back with the transaction (memory keeps an unreachable one).
              if (!moved) return yield* new LostRace()
              yield* searchIndex.update(spaceId, indexing.pages, indexing.removed)
            }))
            return next
          })

        const commit = <E = never, R = never>(
          spaceId: string,
          build: (current: Revision) => Effect.Effect<ContentChange, E, R>,
          options?: CommitOptions
        ): Effect.Effect<Revision, E | Denied | Errors.Conflict | Errors.InvalidInput, R | Actor.Actor> =>
          Effect.gen(function*() {
            for (let n = 1; ; n++) {
              const result = yield* attempt(spaceId, build, options).pipe(
                Effect.map(Option.some),
                Effect.catchTag("LostRace", () => Effect.succeedNone)
              )
              if (Option.isSome(result)) return result.value
              yield* Effect.annotateCurrentSpan("lostRaces", n)
              if (n >= attempts) {
                return yield* new Errors.Conflict({
                  reason: `The content of space ${JSON.stringify(spaceId)} kept changing during the update; try again`
                })
              }
            }
          }).pipe(Effect.withSpan("SpaceContent.commit", { attributes: { spaceId } }))

        /** Pages (and their documents) made from template pages, with fresh ids and slugs unique among `taken`. */
        const templatePages = Effect.fnUntraced(function*(
          nodes: ReadonlyArray<TemplatePage>,
          taken: Set<string>,
          fileIds: ReadonlyMap<string, string>,
          documents: Map<string, string>,
          renames: Map<string, string>,
          at: string
        ): Effect.fn.Return<ReadonlyArray<PageNode>> {
          const out: Array<PageNode> = []
          for (const node of nodes) {
            const wanted = slugify(node.title)
            const slug = uniqueSlug(wanted, taken)
            taken.add(slug)
            if (slug !== wanted) renames.set(wanted, slug)
            const children = yield* templatePages(node.pages ?? [], new Set(), fileIds, documents, new Map(), at)
            const type = node.type ?? "document"
            let document: string | undefined
            if (type === "document") {
              const markdown = (node.markdown ?? "").replace(/\{\{file:([a-z0-9-]+)\}\}/g, (match, key: string) => fileIds.get(key) ?? match)
              document = documentHash(markdown)
              documents.set(document, markdown)
            }
            out.push({
              id: yield* ids.make,
              type,
              title: node.title,
              slug,
              ...(node.emoji === undefined ? {} : { emoji: node.emoji }),
              ...(node.description === undefined ? {} : { description: node.description }),
              ...(document === undefined ? {} : { document }),
              createdAt: at,
              updatedAt: at,
              pages: children
            })
          }
          return out
        })

        const applyTemplate = Effect.fn("SpaceContent.applyTemplate")(function*(spaceId: string, templateId: string) {
          const template = templates.get(templateId)
          if (template === undefined) {
            return yield* new Errors.InvalidInput({
              field: "id",
              reason: `no template ${JSON.stringify(templateId)}; the templates are ${Array.from(templates.keys()).join(", ")}`
            })
          }
          return yield* commit(spaceId, (parent) =>
            Effect.gen(function*() {
              const stored: Array<FileNode> = []
              const fileIds = new Map<string, string>()
              for (const f of template.files) {
                const node = yield* storeFile({ name: f.name, contentType: f.contentType, bytes: Buffer.from(f.base64, "base64") })
                stored.push(node)
                fileIds.set(f.key, node.id)
              }
              const at = (yield* now).toISOString()
              const documents = new Map<string, string>()
              const renames = new Map<string, string>()
              const taken = new Set(parent.pages.map((p) => p.slug))
              const made = yield* templatePages(template.pages, taken, fileIds, documents, renames, at)
              const linked = relink(made, documents, renames)
              return {
                pages: [...parent.pages, ...linked.pages],
                files: [...parent.files, ...stored],
                documents: linked.documents
              }
            }))
        })

        const importWebsite = Effect.fn("SpaceContent.importWebsite")(function*(spaceId: string, url: string) {
          // Checked before anything is fetched, so that nobody makes Quire fetch for a space they cannot change.
          const { permissions, space } = yield* access.space(spaceId)
          yield* Access.ensure(permissions.edit, "edit this space's content")
          if (space.editMode === "locked") {
            return yield* locked(spaceId)
          }
          const site = yield* fetchSite(url)
          const next = yield* commit(spaceId, site.build)
          return { revision: next, importedResources: site.importedResources, totalResources: site.totalResources }
        })

        const fetchSite = Effect.fn("SpaceContent.fetchWebsite")(function*(url: string) {
          const site = yield* fetchWebsite(url, options.import).pipe(
            Effect.provideService(OutboundFetch, fetcher),
            Effect.mapError((error: OutboundFetchError | WebsiteImportError) =>
              new Errors.InvalidInput({ field: "url", reason: error.message })
            )
          )
          const build = (parent: Revision): Effect.Effect<ContentChange> =>
            Effect.gen(function*() {
              const at = (yield* now).toISOString()
              const taken = new Set(parent.pages.map((p) => p.slug))
              const renames = new Map<string, string>()
              const documents = new Map<string, string>()
              const pages: Array<PageNode> = []
              for (const imported of site.pages) {
                const slug = uniqueSlug(imported.path, taken)
                taken.add(slug)
                if (slug !== imported.path) renames.set(imported.path, slug)
                const document = documentHash(imported.markdown)
                documents.set(document, imported.markdown)
                pages.push({
                  id: yield* ids.make,
                  type: "document",
                  title: imported.title === "" ? slug : imported.title,
                  slug,
                  document,
                  createdAt: at,
                  updatedAt: at,
                  pages: []
                })
              }
              const linked = relink(pages, documents, renames)
              return { pages: [...parent.pages, ...linked.pages], documents: linked.documents }
            })
          return { build, importedResources: site.importedResources, totalResources: site.totalResources }
        })

        return SpaceContent.of({
          revision,
          page,
          files,
          file,
          revisionById,
          pageIn,
          filesIn,
          fileIn,
          fetchWebsite: fetchSite,
          download,
          storeFile,
          commit,
          applyTemplate,
          importWebsite
        })
      })
    )

  /** The use cases with default bounds; needs the content ports, ContentAccess, a BlobStore and OutboundFetch. */
  static readonly layer = SpaceContent.layerWith()
}
