/**
 * Use cases on a space's content: reads of its current revision (the tree of pages, a page with
 * its markdown, the files) and `commit`, which moves the space's main content through the
 * RevisionWriter. Templates and website imports are commits.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination } from "@quire/kernel"
import * as Access from "./Access.ts"
import { BlobStore } from "./BlobStore.ts"
import { ContentAccess, type SpaceAccess } from "./ContentAccess.ts"
import { imageDimensions } from "./domain/ImageSize.ts"
import { documentHash, type FileNode, flattenPages, type PageNode, type Revision } from "./domain/Revision.ts"
import type { Space } from "./domain/Space.ts"
import { OutboundFetch, type OutboundFetchError } from "@quire/outbound"
import { importWebsite as fetchWebsite, type ImportWebsiteOptions, type WebsiteImportError } from "./importing/WebsiteImporter.ts"
import { breather } from "./markdown/Breather.ts"
import { type JsonDocument, jsonDocumentBuilder, type RefResolver, toJsonDocument } from "./markdown/JsonDocument.ts"
import { resolveLink, slugify, uniqueSlug } from "@quire/markdown"
import { digestPieces } from "./markdown/ParsePool.ts"
import { type ContentChange, ensureWritable, type Head, type HeadState, RevisionWriter } from "./RevisionWriter.ts"
import { compare, lineDiff, type SemanticChange } from "./RevisionChanges.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { SpacesRepo } from "./SpacesRepo.ts"
import { OrganizationStorageBytes, StorageUsageRepo } from "./StorageUsageRepo.ts"
import { type TemplatePage, templates } from "./templates/Templates.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface CommitOptions {
  /** A write by Quire itself (Git Sync): allowed on a locked space. The caller still needs `edit`. */
  readonly system?: boolean | undefined
}

/** The space's main content as a head of the RevisionWriter, read with the caller's access to the space. */
export interface MainHead extends HeadState {
  readonly access: SpaceAccess
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

/** What `changes` returns: at most `limit` changes, how many more there were. */
export interface ChangeList {
  /** Edited documents carry `diff`, a unified diff of their markdown, when asked. */
  readonly changes: ReadonlyArray<SemanticChange & { readonly diff?: string }>
  readonly more: number
}

export interface ChangesOptions {
  readonly limit: number
  /** Add a line diff of the markdown of each edited document. */
  readonly diff: boolean
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
  /** A revision of the space (main's history or a change request's branch) as the caller may see it; NotFound for another space's. */
  readonly revisionOf: (spaceId: string, revisionId: string) => Effect.Effect<CurrentContent, Errors.NotFound, Actor.Actor>
  /** The page of a revision at `path` (slugs from the root joined by `/`), with its markdown. */
  readonly pageAt: (revision: Revision, path: string) => Effect.Effect<RevisionPage, Errors.NotFound>
  /** What `after` changed since `before` (none: the empty content before a first revision), in RevisionChanges' order. */
  readonly changes: (before: Revision | undefined, after: Revision, options: ChangesOptions) => Effect.Effect<ChangeList>
  /** What a revision changed since its first parent. */
  readonly revisionChanges: (revision: Revision, options: ChangesOptions) => Effect.Effect<ChangeList>
  /** Fetches a website for an import (no access check: callers check `edit` first, so nobody makes Quire fetch for nothing). */
  readonly fetchWebsite: (url: string) => Effect.Effect<FetchedWebsite, Errors.InvalidInput>
  /**
   * Stores a file's bytes for the organization and describes it (a new id); `commit` it to add it
   * to a space. Forbidden when the bytes alone would take the organization past its storage quota;
   * they count against it when a revision that points to them is written (the RevisionWriter).
   */
  readonly storeFile: (organizationId: string, file: NewFile) => Effect.Effect<FileNode, Errors.Forbidden>
  /**
   * Nothing to give back any more: files count against the quota with the revision that points to
   * them, inside its transaction. Kept until Git sync's import stops calling it.
   */
  readonly releaseFiles: (organizationId: string, files: ReadonlyArray<FileNode>) => Effect.Effect<void>
  /**
   * The space's main content as a head the RevisionWriter moves, for the caller holding
   * `permission` (default `edit`; a merge needs `merge`).
   */
  readonly mainHead: (spaceId: string, permission?: "edit" | "merge") => Head<MainHead, Denied, Actor.Actor>
  /**
   * Writes the space's main content through the RevisionWriter: `build` turns the current
   * revision into new content, and the space moves to it by compare-and-set, retried on a lost race.
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
  /** Bounds of website imports. */
  readonly import?: ImportWebsiteOptions
  /** Bytes of files each organization may store; default `QUIRE_ORG_STORAGE_BYTES`, else 10 GiB. */
  readonly storageQuota?: number
}

export { OrganizationStorageBytes }

/** Sort key of file listings: name, then id. */
const fileKey = (file: FileNode): Pagination.CursorKey => [file.name, file.id]
const fileKeyShape: Pagination.KeyShape = ["string", "string"]

// Trees ------------------------------------------------------------------------------------------

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
export const pageDocument = (content: RevisionPage): JsonDocument => toJsonDocument(content.markdown ?? "", pageRefs(content))

/**
 * `pageDocument`, a large page parsed by the parse workers (`digestPieces`) and a small one here a
 * piece at a time, giving the event loop back between pieces, so that reading one never holds the
 * server for long.
 */
export const pageDocumentEffect = (content: RevisionPage): Effect.Effect<JsonDocument> =>
  Effect.gen(function*() {
    const builder = jsonDocumentBuilder(pageRefs(content))
    const breathe = breather()
    for (const blocks of yield* digestPieces(content.markdown ?? "", "blocks", breathe)) {
      builder.addPieceBlocks(blocks)
      yield* breathe
    }
    return builder.done()
  })

/** The content references of a page's links, resolved against its revision. */
const pageRefs = (content: RevisionPage): RefResolver => {
  const entries = flattenPages(content.revision.pages)
  const context = {
    pagePath: content.path,
    pagesByPath: new Map(entries.map((entry) => [entry.path, entry.page.id])),
    fileIds: new Set(content.revision.files.map((f) => f.id)),
    appBaseUrl: "",
    rootPagePath: entries[0]?.path ?? ""
  }
  return (url, kind) => {
    const target = resolveLink({ url, kind }, context)?.target
    if (target?.kind === "file" && context.fileIds.has(target.file)) return { kind: "file", file: target.file }
    if (target?.kind === "page" && "page" in target) return { kind: "page", page: target.page }
    return { kind: "url", url }
  }
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
        const writer = yield* RevisionWriter
        const blobs = yield* BlobStore
        const fetcher = yield* OutboundFetch
        const usage = yield* StorageUsageRepo
        const quota = options.storageQuota ?? (yield* Effect.orDie(OrganizationStorageBytes))
        const ids = yield* Ids.Ids
        const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

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
          const after = yield* Pagination.afterOf(request, fileKeyShape)
          return yield* Pagination.paginateArray(revision.files, fileKey, {
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

        const revisionOf = Effect.fn("SpaceContent.revisionOf")(function*(spaceId: string, revisionId: string) {
          const spaceAccess = yield* access.space(spaceId)
          const found = yield* revisions.find(revisionId)
          if (Option.isNone(found) || found.value.spaceId !== spaceId) return yield* new Errors.NotFound({ resource: "Revision", id: revisionId })
          return { access: spaceAccess, revision: found.value }
        })

        const pageAt = Effect.fn("SpaceContent.pageAt")(function*(revision: Revision, path: string) {
          const wanted = path.replace(/^\/+|\/+$/g, "")
          const found = flattenPages(revision.pages).find((entry) => entry.path === wanted)
          if (found === undefined) return yield* new Errors.NotFound({ resource: "Page", id: path })
          return yield* pageIn(revision, found.page.id)
        })

        const changes = Effect.fn("SpaceContent.changes")(function*(before: Revision | undefined, after: Revision, options: ChangesOptions) {
          const all = compare(before ?? { pages: [], files: [], variables: {} }, after)
          const shown = all.slice(0, options.limit)
          const more = all.length - shown.length
          if (!options.diff) return { changes: shown, more }
          const edited = shown.flatMap((change) =>
            change.type === "page_edited" && change.attributes.document !== undefined ? [change.attributes.document] : []
          )
          const hashes = [...new Set(edited.flatMap((document) => [document.before, document.after].filter((h) => h !== undefined)))]
          const markdown = hashes.length === 0 ? new Map<string, string>() : yield* revisions.documents(hashes)
          const textOf = (hash: string | undefined) => (hash === undefined ? "" : markdown.get(hash) ?? "")
          return {
            changes: shown.map((change) => {
              if (change.type !== "page_edited" || change.attributes.document === undefined) return change
              const diff = lineDiff(change.pathBefore, change.page.path, textOf(change.attributes.document.before), textOf(change.attributes.document.after))
              return diff === undefined ? change : { ...change, diff }
            }),
            more
          }
        })

        const revisionChanges = Effect.fn("SpaceContent.revisionChanges")(function*(revision: Revision, options: ChangesOptions) {
          const parent = revision.parents[0]
          return yield* changes(parent === undefined ? undefined : yield* revisionById(parent).pipe(Effect.orDie), revision, options)
        })

        const page = Effect.fn("SpaceContent.page")(function*(spaceId: string, pageId: string) {
          const content = yield* current(spaceId)
          return { ...content, ...(yield* pageIn(content.revision, pageId)) }
        })

        const files = Effect.fn("SpaceContent.files")(function*(spaceId: string, request: Pagination.PageRequest) {
          const after = yield* Pagination.afterOf(request, fileKeyShape)
          const content = yield* current(spaceId)
          return {
            access: content.access,
            files: yield* Pagination.paginateArray(content.revision.files, fileKey, {
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

        const storeFile = Effect.fn("SpaceContent.storeFile")(function*(organizationId: string, input: NewFile) {
          // A cheap early refusal, before the bytes are stored; the write that points to them counts them.
          const used = yield* usage.used(organizationId)
          if (used + input.bytes.byteLength > quota) {
            return yield* new Errors.Forbidden({
              reason: `The organization's storage quota of ${quota} bytes is used up (${used} bytes stored; ` +
                `${JSON.stringify(input.name)} needs ${input.bytes.byteLength})`
            })
          }
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

        const mainHead = (spaceId: string, permission: "edit" | "merge" = "edit"): Head<MainHead, Denied, Actor.Actor> => ({
          read: Effect.gen(function*() {
            const spaceAccess = yield* access.space(spaceId)
            yield* Access.ensure(
              spaceAccess.permissions[permission],
              permission === "merge" ? "merge change requests in this space" : "edit this space's content"
            )
            return { access: spaceAccess, space: spaceAccess.space, revisionId: spaceAccess.space.revisionId }
          }),
          move: (head, next) => spaces.setRevision(head.space.id, head.revisionId, next.id, next.createdAt),
          main: true,
          describe: (head) => `space ${JSON.stringify(head.space.id)}`
        })

        const commit = <E = never, R = never>(
          spaceId: string,
          build: (current: Revision) => Effect.Effect<ContentChange, E, R>,
          options?: CommitOptions
        ): Effect.Effect<Revision, E | Denied | Errors.Conflict | Errors.InvalidInput, R | Actor.Actor> =>
          writer.write(mainHead(spaceId), build, { system: options?.system }).pipe(
            Effect.map((written) => written.revision),
            Effect.withSpan("SpaceContent.commit", { attributes: { spaceId } })
          )

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
          const { space } = yield* access.space(spaceId)
          // The files are stored once, not again on a retry of the write; they count against the
          // quota with the revision that points to them.
          const stored: Array<FileNode> = []
          const fileIds = new Map<string, string>()
          return yield* Effect.gen(function*() {
            for (const f of template.files) {
              const node = yield* storeFile(space.organizationId, { name: f.name, contentType: f.contentType, bytes: Buffer.from(f.base64, "base64") })
              stored.push(node)
              fileIds.set(f.key, node.id)
            }
            return yield* commit(spaceId, (parent) =>
              Effect.gen(function*() {
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
        })

        const importWebsite = Effect.fn("SpaceContent.importWebsite")(function*(spaceId: string, url: string) {
          // Checked before anything is fetched, so that nobody makes Quire fetch for a space they cannot change.
          const { permissions, space } = yield* access.space(spaceId)
          yield* Access.ensure(permissions.edit, "edit this space's content")
          yield* ensureWritable(space)
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
          revisionOf,
          pageAt,
          changes,
          revisionChanges,
          fetchWebsite: fetchSite,
          download,
          storeFile,
          releaseFiles: () => Effect.void,
          mainHead,
          commit,
          applyTemplate,
          importWebsite
        })
      })
    )

  /** The use cases with default bounds; needs the content ports, ContentAccess, the RevisionWriter, a BlobStore and OutboundFetch. */
  static readonly layer = SpaceContent.layerWith()
}
