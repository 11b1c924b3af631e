/**
 * The views and inputs of change requests that the ChangeRequests service and the modules of its
 * jobs (`changeRequests/*`) share, so that those modules need not import the service.
 */
import type { Stream } from "effect"
import type { Pagination } from "@quire/kernel"
import type { FileNode, HeadState, Revision, SpaceAccess } from "@quire/content"
import type { Change, Outcome } from "../ChangeSet.ts"
import type { ChangeRequest, ChangeRequestStatus } from "../domain/ChangeRequest.ts"

/** A change request as the caller may see it. */
export interface ChangeRequestView {
  readonly access: SpaceAccess
  readonly changeRequest: ChangeRequest
  /** True when the space's main content moved since `revisionMergedAncestor`. */
  readonly outdated: boolean
}

export interface ChangeRequestList {
  readonly access: SpaceAccess
  readonly items: Pagination.Page<ChangeRequest>
  /** The space's current revision, against which `outdated` is computed. */
  readonly spaceRevision: string
}

export interface ListRequest extends Pagination.PageRequest {
  /** Any of these statuses (GitBook's `status`, repeatable); default `open`, as GitBook. */
  readonly status?: ChangeRequestStatus | ReadonlyArray<ChangeRequestStatus> | undefined
  readonly creator?: string | undefined
  readonly contributor?: string | undefined
  /** Only those on which this user's review is requested. */
  readonly requestedReviewer?: string | undefined
}

/** A listing of an organization's change requests (GitBook's `listChangeRequestsForOrganization`). */
export interface OrganizationListRequest extends ListRequest {
  /** Only those of this space. */
  readonly space?: string | undefined
  /** Most recently updated (default) or created first. */
  readonly orderBy?: "updatedAt" | "createdAt" | undefined
}

export interface CreateInput {
  readonly subject?: string | undefined
  readonly agentTaskId?: string | undefined
}

export interface UpdateInput {
  readonly subject?: string | undefined
  readonly status?: ChangeRequestStatus | undefined
  /** The description as markdown (the API writes GitBook's document as markdown); blank or null clears it. */
  readonly description?: string | null | undefined
  /** Every link it is to have, in order: with `id`, an existing link kept under that id; without, a new one. */
  readonly links?: ReadonlyArray<LinkInput> | undefined
}

/** A link as a PATCH gives it (GitBook's `ChangeRequestLinkInput`, its `ref` a URL). */
export interface LinkInput {
  readonly id?: string | undefined
  readonly url: string
  readonly title?: string | undefined
}

/** A file of an `insert_files` change: its bytes, before they are stored. */
export interface FileInput {
  readonly name: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** A file of an `insert_files` change to fetch from a URL (through OutboundFetch); `contentType` overrides the response's. */
export interface UrlFileInput {
  readonly name: string
  readonly contentType?: string | undefined
  readonly url: string
}

/** A file of an `insert_files` change whose bytes this service already stored (an upload streamed to the store). */
export interface StoredFileInput {
  readonly stored: FileNode
}

/** A change as callers send it (`insert_files` carries bytes or URLs; the use case fetches and stores them). */
export type ChangeInput =
  | Exclude<Change, { readonly operation: "insert_files" }>
  | { readonly operation: "insert_files"; readonly files: ReadonlyArray<FileInput | UrlFileInput | StoredFileInput> }

/** A file uploaded to a change request, its bytes read as they arrive (see `ChangeRequests.uploadFile`). */
export interface FileUpload<E> {
  readonly name: string
  readonly contentType: string
  /** What the sender announced (a `Content-Length`), refused against the quota before a byte is read. */
  readonly declaredSize?: number | undefined
  readonly bytes: Stream.Stream<Uint8Array, E>
}

export interface ContentUpdate extends ChangeRequestView {
  readonly outcomes: ReadonlyArray<Outcome>
  readonly insertedFiles: ReadonlyArray<FileNode>
}

/** The content of a change request (its head revision). */
export interface ChangeRequestContent {
  readonly access: SpaceAccess
  readonly changeRequest: ChangeRequest
  readonly revision: Revision
}

export interface ChangeRequestImport {
  readonly changeRequest: ChangeRequest
  readonly revision: Revision
  readonly importedResources: number
  readonly totalResources: number
}

/** A change request's branch as a head of the RevisionWriter: the change request, read with the caller's access. */
export interface BranchHead extends HeadState {
  readonly access: SpaceAccess
  readonly changeRequest: ChangeRequest
}

export interface PdfOptions {
  readonly page?: string | undefined
  readonly only?: boolean | undefined
}

/** A rendered PDF, stored in the blob store. */
export interface ChangeRequestPdf {
  readonly changeRequest: ChangeRequest
  /** The hash of the PDF's bytes in the BlobStore. */
  readonly blob: string
  readonly size: number
}
