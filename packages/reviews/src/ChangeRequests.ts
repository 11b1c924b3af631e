/**
 * Use cases of change requests: create, list, read and patch them, edit their content in batches
 * (each batch one revision of the change request's branch, through the RevisionWriter) and read it back.
 */
import { Context, Effect, Layer, type Option } from "effect"
import type { Actor, Errors, Pagination } from "@quire/kernel"
import { type ContentChange, type FileNode, type Head, PublishedContent, type ReusableContentNode, type Revision, type RevisionPage, type SpaceAccess } from "@quire/content"
import * as BatchFiles from "./changeRequests/BatchFiles.ts"
import * as Branch from "./changeRequests/Branch.ts"
import { contentEdits } from "./changeRequests/ContentEdits.ts"
import { lifecycle } from "./changeRequests/Lifecycle.ts"
import { reading } from "./changeRequests/Reading.ts"
import { restoring } from "./changeRequests/Restore.ts"
import { type ReusableContentEdit, reusableContentEdits } from "./changeRequests/ReusableContentEdits.ts"
import type { ChangeRequest } from "./domain/ChangeRequest.ts"
import type {
  BranchHead,
  ChangeInput,
  ChangeRequestContent,
  ChangeRequestImport,
  ChangeRequestList,
  ChangeRequestPdf,
  ChangeRequestView,
  ContentUpdate,
  CreateInput,
  FileUpload,
  ListRequest,
  OrganizationListRequest,
  PdfOptions,
  UpdateInput
} from "./changeRequests/ChangeRequestTypes.ts"

export { fileFetchTimeout, maxBatchFileBytes, maxBatchFiles, maxFileBytes } from "./changeRequests/BatchFiles.ts"
export { isOutdated } from "./changeRequests/Branch.ts"
export { maxChanges } from "./changeRequests/ContentEdits.ts"
export type * from "./changeRequests/ChangeRequestTypes.ts"
export type { ReusableContentEdit } from "./changeRequests/ReusableContentEdits.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface ChangeRequestsShape {
  /**
   * The change request's branch as a head the RevisionWriter moves, for a caller who may edit it;
   * merged and archived change requests refuse (`action` names what was refused: "edited", "updated").
   */
  readonly branchHead: (spaceId: string, ref: string, action: string) => Head<BranchHead, Denied | Errors.InvalidInput, Actor.Actor>
  readonly create: (spaceId: string, input: CreateInput) => Effect.Effect<ChangeRequestView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly list: (spaceId: string, request: ListRequest) => Effect.Effect<ChangeRequestList, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The change requests of the organization's spaces the caller can view, most recent first; NotFound for a non-member. */
  readonly listForOrganization: (
    organizationId: string,
    request: OrganizationListRequest
  ) => Effect.Effect<Pagination.Page<ChangeRequestView>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** By id, or by its number in the space. */
  readonly get: (spaceId: string, ref: string) => Effect.Effect<ChangeRequestView, Errors.NotFound, Actor.Actor>
  /** The change request whose merge wrote revision `revisionId` of the space, if one did. */
  readonly mergedInto: (spaceId: string, revisionId: string) => Effect.Effect<Option.Option<ChangeRequestView>, Errors.NotFound, Actor.Actor>
  /** Subject and permitted status transitions (never to `merged`: that is a merge). */
  readonly update: (spaceId: string, ref: string, input: UpdateInput) => Effect.Effect<ChangeRequestView, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /** Applies a batch of changes as one new revision of the change request, or none when a change cannot apply. */
  readonly updateContent: (
    spaceId: string,
    ref: string,
    changes: ReadonlyArray<ChangeInput>,
    /**
     * `baseRevision`: the revision the edits were written against; a page changed since is merged
     * three-way (Conflict when they overlap). `coauthors`: users credited as contributors beside the caller.
     * `live`: the shared document whose markdown this saves (live editing's write back), so that
     * it is not brought back into that document as a write from elsewhere.
     */
    options?: {
      readonly baseRevision?: string | undefined
      readonly coauthors?: ReadonlyArray<string> | undefined
      readonly live?: string | undefined
    }
  ) => Effect.Effect<ContentUpdate, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /**
   * Stores one file whose bytes arrive as a stream (never held whole) and adds it to the change
   * request, as an `insert_files` batch of it alone would. Refused before the stream is read for a
   * caller who may not edit it, a merged or archived one, or a declared size over the quota; the
   * stream's own failure (the size limit its reader enforces) is the answer's and adds nothing.
   */
  readonly uploadFile: <E>(
    spaceId: string,
    ref: string,
    file: FileUpload<E>
  ) => Effect.Effect<ContentUpdate, Denied | Errors.InvalidInput | Errors.Conflict | E, Actor.Actor>
  readonly content: (spaceId: string, ref: string) => Effect.Effect<ChangeRequestContent, Errors.NotFound, Actor.Actor>
  readonly page: (spaceId: string, ref: string, pageId: string) => Effect.Effect<RevisionPage & { readonly access: SpaceAccess }, Errors.NotFound, Actor.Actor>
  readonly files: (spaceId: string, ref: string, request: Pagination.PageRequest) => Effect.Effect<Pagination.Page<FileNode>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  readonly file: (spaceId: string, ref: string, fileId: string) => Effect.Effect<FileNode, Errors.NotFound, Actor.Actor>
  /**
   * Opens a draft on the current main content holding the whole content of a past revision of the
   * space (pages, groups and links, files, variables, reusable contents), in one transaction: its
   * review shows what the restore changes. Needs edit permission; NotFound for another space's revision.
   */
  readonly restore: (spaceId: string, revisionId: string, input: CreateInput) => Effect.Effect<ChangeRequestView, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /**
   * One write of the change request's branch by `build` (an import run's), as an edit of the
   * caller's; `within` runs inside the write's transaction, and a failure of it rolls the write back.
   */
  readonly commit: <E, R>(
    spaceId: string,
    ref: string,
    build: (parent: Revision) => Effect.Effect<ContentChange, E, R>,
    within?: Effect.Effect<void, E, R>
  ) => Effect.Effect<Revision, E | Denied | Errors.InvalidInput | Errors.Conflict, R | Actor.Actor>
  /**
   * Creates, renames, rewrites or deletes one of the change request's reusable contents, as one new
   * revision of its branch; answers the node written (none for a delete). NotFound for an id it does not hold.
   */
  readonly editReusableContent: (
    spaceId: string,
    ref: string,
    edit: ReusableContentEdit
  ) => Effect.Effect<
    ChangeRequestView & { readonly revision: Revision; readonly node: ReusableContentNode | undefined },
    Denied | Errors.InvalidInput | Errors.Conflict,
    Actor.Actor
  >
  /** Imports a website as pages after the change request's pages. */
  readonly importWebsite: (spaceId: string, ref: string, url: string) => Effect.Effect<ChangeRequestImport, Denied | Errors.InvalidInput | Errors.Conflict, Actor.Actor>
  /**
   * The change request's content as a PDF: every page in tree order, or only `page` and its
   * subpages (only `page` itself with `only`), stored in the BlobStore. NotFound for an unknown page.
   */
  readonly pdf: (spaceId: string, ref: string, options?: PdfOptions) => Effect.Effect<ChangeRequestPdf, Errors.NotFound, Actor.Actor>
  /**
   * The change request with this id, with no caller: for a site's preview of it, whose route decides
   * who reads (a reader of the change request, or a preview share link's holder).
   */
  readonly forPreview: (changeRequestId: string) => Effect.Effect<Option.Option<ChangeRequest>>
}

export class ChangeRequests extends Context.Service<ChangeRequests, ChangeRequestsShape>()("@quire/reviews/ChangeRequests") {
  static readonly layer = Layer.effect(
    ChangeRequests,
    Effect.gen(function*() {
      const branch = yield* Branch.make
      const batchFiles = yield* BatchFiles.make
      const records = lifecycle(branch)
      return ChangeRequests.of({
        branchHead: branch.branchHead,
        ...records,
        ...restoring(branch, records.create),
        ...reusableContentEdits(branch),
        ...contentEdits(branch, batchFiles, yield* PublishedContent),
        ...(yield* reading(branch)),
        commit: (spaceId, ref, build, within) => Effect.map(branch.commitTo(spaceId, ref, build, [], undefined, within), (written) => written.revision),
        forPreview: (changeRequestId) => branch.repo.find(changeRequestId)
      })
    })
  )
}
