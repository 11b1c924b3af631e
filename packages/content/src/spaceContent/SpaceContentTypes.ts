/**
 * The service interface of SpaceContent with the views, inputs and options it speaks of: what the
 * service and the modules of its jobs (`spaceContent/*`) share, so that those modules need not
 * import the service.
 */
import type { Effect, Option, Stream } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import type { BlobLink, BlobResponse, BlobStream } from "../BlobStore.ts"
import type { SpaceAccess } from "../ContentAccess.ts"
import type { FileNode, PageNode, ReusableContentNode, Revision } from "../domain/Revision.ts"
import type { ImportedImage, ImportWebsiteOptions } from "../importing/WebsiteImporter.ts"
import type { SemanticChange } from "../RevisionChanges.ts"
import type { ContentChange, Head, HeadState } from "../RevisionWriter.ts"
import type { RevisionHeader } from "../RevisionsRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface CommitOptions<E = never, R = never> {
  /** A write by Quire itself (Git Sync): allowed on a locked space. The caller still needs `edit`. */
  readonly system?: boolean | undefined
  /** Runs inside the write's transaction once the space has moved; a failure rolls the write back. */
  readonly within?: Effect.Effect<void, E, R> | undefined
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

/** A page of a revision with its path, its markdown not read (`pageMarkdown` reads it). */
export interface RevisionPageEntry {
  readonly revision: Revision
  readonly page: PageNode
  /** Slugs from the root, joined by `/`. */
  readonly path: string
}

/** A page of a revision, with its path and, for documents, its markdown. */
export interface RevisionPage extends RevisionPageEntry {
  /** Documents: the page's markdown; groups and links have none. */
  readonly markdown?: string | undefined
}

/** A page of the current revision, as the caller may see it. */
export interface PageContent extends CurrentContent, RevisionPage {}

/** A page of the current revision as the caller may see it, its markdown not read. */
export interface PageEntryContent extends CurrentContent, RevisionPageEntry {}

/**
 * A website fetched for an import: `build` adds its pages after those of whichever revision it is
 * committed on; given the files its `images` were stored as (by URL), the pages show those files.
 */
export interface FetchedWebsite {
  readonly build: (parent: Revision, stored?: ReadonlyMap<string, FileNode>) => Effect.Effect<ContentChange>
  /** The same-site images its pages show, fetched when asked (`fetchWebsite(url, { images: true })`). */
  readonly images: ReadonlyArray<ImportedImage>
  readonly importedResources: number
  readonly totalResources: number
}

/** A reusable content of a revision, with its markdown (`""` when it has no document). */
export interface RevisionReusableContent {
  readonly revision: Revision
  readonly node: ReusableContentNode
  readonly markdown: string
}

/** A reusable content of the current revision, as the caller may see it. */
export interface ReusableContent extends CurrentContent, RevisionReusableContent {}

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

/** A file whose bytes arrive as a stream; `declaredSize` is what the sender announced, if anything. */
export interface NewFileStream<E> {
  readonly name: string
  readonly contentType: string
  readonly declaredSize?: number | undefined
  readonly bytes: Stream.Stream<Uint8Array, E>
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
  /**
   * `page` without reading its markdown (the same access check): for a reader that may not need it,
   * as a revision never changes (a body kept by revision and page); `pageMarkdown` reads it.
   */
  readonly pageEntry: (spaceId: string, pageId: string) => Effect.Effect<PageEntryContent, Errors.NotFound, Actor.Actor>
  /** The current revision's files, ordered by name then id, keyset-paginated. */
  readonly files: (spaceId: string, page: Pagination.PageRequest) => Effect.Effect<FilesPage, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly file: (spaceId: string, fileId: string) => Effect.Effect<FileContent, Errors.NotFound, Actor.Actor>
  /**
   * The bytes of a file of a live space, for a download link the server signed (the link is the
   * caller's authority, so there is no Actor). NotFound when the space or the bytes are gone.
   */
  readonly download: (spaceId: string, blob: string) => Effect.Effect<Uint8Array, Errors.NotFound>
  /** `download` as a stream with its length, read as it is sent. */
  readonly downloadStream: (spaceId: string, blob: string) => Effect.Effect<BlobStream, Errors.NotFound>
  /**
   * For the same links, a short-lived URL where the client fetches the bytes from the BlobStore
   * itself, answered as `response` says; none when the store serves no URLs. NotFound when the
   * space is gone (the blob is not looked up: a signed link names a blob a file of the space had).
   */
  readonly downloadLink: (spaceId: string, blob: string, response: BlobResponse) => Effect.Effect<Option.Option<BlobLink>, Errors.NotFound>
  /** A stored revision of the space's chain or of a change request's (no access check: callers check the space). */
  readonly revisionById: (revisionId: string) => Effect.Effect<Revision, Errors.NotFound>
  /** A page of a revision, with its markdown. */
  readonly pageIn: (revision: Revision, pageId: string) => Effect.Effect<RevisionPage, Errors.NotFound>
  /** `pageIn` without reading its markdown. */
  readonly pageEntryIn: (revision: Revision, pageId: string) => Effect.Effect<RevisionPageEntry, Errors.NotFound>
  /** The markdown of a page of a revision, read from the document store; groups and links have none. */
  readonly pageMarkdown: (entry: RevisionPageEntry) => Effect.Effect<string | undefined>
  /** A reusable content of the current revision, with its markdown. */
  readonly reusableContent: (spaceId: string, reusableContentId: string) => Effect.Effect<ReusableContent, Errors.NotFound, Actor.Actor>
  /** The reusable contents of the current revision, in order, with their markdown. */
  readonly reusableContents: (spaceId: string) => Effect.Effect<CurrentContent & { readonly items: ReadonlyArray<RevisionReusableContent> }, Errors.NotFound, Actor.Actor>
  /** A reusable content of a revision, with its markdown. */
  readonly reusableContentIn: (revision: Revision, reusableContentId: string) => Effect.Effect<RevisionReusableContent, Errors.NotFound>
  /** A revision's files, ordered by name then id, keyset-paginated. */
  readonly filesIn: (revision: Revision, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<FileNode>, Errors.InvalidInput>
  readonly fileIn: (revision: Revision, fileId: string) => Effect.Effect<FileNode, Errors.NotFound>
  /** A revision of the space (main's history or a change request's branch) as the caller may see it; NotFound for another space's. */
  readonly revisionOf: (spaceId: string, revisionId: string) => Effect.Effect<CurrentContent, Errors.NotFound, Actor.Actor>
  /** Main's history: the current revision and its first parents, newest first, a page at a time. */
  readonly history: (
    spaceId: string,
    request: Pagination.PageRequest
  ) => Effect.Effect<{ readonly access: SpaceAccess; readonly items: Pagination.Page<RevisionHeader> }, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The page of a revision at `path` (slugs from the root joined by `/`), with its markdown. */
  readonly pageAt: (revision: Revision, path: string) => Effect.Effect<RevisionPage, Errors.NotFound>
  /** `pageAt` without reading its markdown. */
  readonly pageEntryAt: (revision: Revision, path: string) => Effect.Effect<RevisionPageEntry, Errors.NotFound>
  /** What `after` changed since `before` (none: the empty content before a first revision), in RevisionChanges' order. */
  readonly changes: (before: Revision | undefined, after: Revision, options: ChangesOptions) => Effect.Effect<ChangeList>
  /** What a revision changed since its first parent. */
  readonly revisionChanges: (revision: Revision, options: ChangesOptions) => Effect.Effect<ChangeList>
  /** Fetches a website for an import (no access check: callers check `edit` first, so nobody makes Quire fetch for nothing). */
  readonly fetchWebsite: (url: string, options?: { readonly images?: boolean }) => Effect.Effect<FetchedWebsite, Errors.InvalidInput>
  /**
   * Stores a file's bytes for the organization and describes it (a new id); `commit` it to add it
   * to a space. Forbidden when the bytes alone would take the organization past its storage quota;
   * they count against it when a revision that points to them is written (the RevisionWriter).
   */
  readonly storeFile: (organizationId: string, file: NewFile) => Effect.Effect<FileNode, Errors.Forbidden>
  /**
   * `storeFile` of bytes read as they arrive, never held whole: Forbidden before a byte is read
   * when the declared size would take the organization past its quota, and after the stream when
   * its bytes do. The stream's own failure (a limit its reader enforces) stores nothing.
   */
  readonly storeFileStream: <E>(organizationId: string, file: NewFileStream<E>) => Effect.Effect<FileNode, Errors.Forbidden | E>
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
    options?: CommitOptions<E, R>
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
