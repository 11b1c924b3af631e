/** Change requests: branches of a space's content that people edit, review and merge. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { requestExample } from "./RequestExample.ts"
import { ChangeRequestStatus, maxLinks, maxLinkTitleLength, maxSubjectLength } from "@quire/reviews/domain/ChangeRequest"
import { ConflictHunk, ConflictKind } from "@quire/reviews/domain/MergeConflict"
import { EntityId, JSONDocument, JsonDocument, ListOf, PageQuery, Text, Timestamp, Url, User } from "./Schemas.ts"

export { ChangeRequestStatus }

export const ChangeRequestSubject = Text.check(Schema.isMaxLength(maxSubjectLength))

/** GitBook's `ContentRefURL`: a link's target. */
const UrlRef = Schema.Struct({ kind: Schema.Literal("url"), url: Text })

/** GitBook's `ChangeRequestLinkInput`: with `id`, the existing link to keep (updated); without, a new one. */
export const ChangeRequestLinkInput = Schema.Struct({
  id: Schema.optionalKey(Text),
  ref: UrlRef,
  title: Schema.optionalKey(Text.check(Schema.isMaxLength(maxLinkTitleLength)))
})

/** GitBook's `ChangeRequestLink`: an external link of a change request (an issue, a ticket). */
export const ChangeRequestLink = Schema.Struct({
  id: Schema.String,
  ref: UrlRef,
  title: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "ChangeRequestLink" })

/** A conflict a merge or an update found: what to resolve (resolveChangeRequestConflicts) before merging again. */
export const MergeConflict = Schema.Struct({
  /** `c1`, `c2`, …: what a resolution names. */
  id: Schema.String,
  pageId: Schema.optionalKey(Schema.String),
  fileId: Schema.optionalKey(Schema.String),
  path: Schema.String,
  kind: ConflictKind,
  field: Schema.optionalKey(Schema.String),
  /** Main's value (JSON for metadata; `null` when main deleted it). */
  ours: Schema.optionalKey(Schema.String),
  /** The change request's value (JSON for metadata; `null` when it deleted it). */
  theirs: Schema.optionalKey(Schema.String),
  /** Content conflicts: the overlapping lines of the ancestor, main and the change request (one hunk per conflict). */
  hunks: Schema.optionalKey(Schema.Array(ConflictHunk)),
  /** Content conflicts: the merged lines just before and after the hunk, to show where it is in the page. */
  context: Schema.optionalKey(Schema.Struct({ before: Schema.Array(Schema.String), after: Schema.Array(Schema.String) }))
}).annotate({ identifier: "MergeConflict" })

export const ChangeRequest = Schema.Struct({
  object: Schema.Literal("change-request"),
  id: Schema.String,
  /** Incremental in the space; the `{changeRequestId}` path segment accepts it too. */
  number: Schema.Finite,
  status: ChangeRequestStatus,
  subject: Schema.String,
  /** What it changes and why, as GitBook's JSON document; absent when unset. */
  description: Schema.optionalKey(JsonDocument),
  /** Its external links; absent when it has none. */
  links: Schema.optionalKey(Schema.Array(ChangeRequestLink)),
  createdBy: User,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** Who merged it, and when: only once merged (and not for those merged before Quire recorded it). */
  mergedBy: Schema.optionalKey(User),
  mergedAt: Schema.optionalKey(Timestamp),
  space: Schema.String,
  revision: Schema.String,
  revisionInitial: Schema.String,
  revisionMergedAncestor: Schema.optionalKey(Schema.String),
  revisionMerged: Schema.optionalKey(Schema.String),
  comments: Schema.Finite,
  outdated: Schema.Boolean,
  /** The conflicts its last merge or update found; absent when it had none, or since it changed or merged cleanly. */
  conflicts: Schema.optionalKey(Schema.Array(MergeConflict)),
  urls: Schema.Struct({ app: Schema.String, location: Schema.String })
}).annotate({ identifier: "ChangeRequest" })
export type ChangeRequest = typeof ChangeRequest.Type


/** GitBook's answer to merge and update, plus the conflicts when there are some. */
const mergeResult = <R extends string>(result: R) =>
  Schema.Struct({
    /** The new revision; with conflicts, the revision left as it was (main for a merge, the change request's head for an update). */
    revision: Schema.String,
    result: Schema.Literals([result, "conflicts"]),
    conflicts: Schema.optionalKey(Schema.Array(MergeConflict))
  })

/** A listing's `status`: one status, or several (the parameter repeated). */
const StatusFilter = Schema.Union([ChangeRequestStatus, Schema.Array(ChangeRequestStatus).check(Schema.isMaxLength(4))])

/** The `{changeRequestId}` path segment: the change request's id or its number in the space. */
export const changeRequestParams = { spaceId: EntityId, changeRequestId: EntityId } as const

export class ChangeRequestsApi extends HttpApiGroup.make("changeRequests")
  .add(
    /** The change requests of a space, newest first; `status` defaults to `open`, as GitBook's. */
    HttpApiEndpoint.get("listChangeRequestsForSpace", "/spaces/:spaceId/change-requests", {
      params: { spaceId: EntityId },
      query: {
        ...PageQuery,
        status: Schema.optional(StatusFilter),
        creator: Schema.optional(EntityId),
        contributor: Schema.optional(EntityId),
        requestedReviewer: Schema.optional(EntityId)
      },
      success: ListOf(ChangeRequest),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List change requests",
        description: "Lists a space's change requests, newest first; open ones unless `status` (repeatable: any of the statuses given) says otherwise. `creator`, `contributor` and `requestedReviewer` (a pending review request) narrow the list. Needs view permission."
      })),
    /** The change requests of an organization's spaces the caller can view, most recently updated first. */
    HttpApiEndpoint.get("listChangeRequestsForOrganization", "/orgs/:organizationId/change-requests", {
      params: { organizationId: EntityId },
      query: {
        ...PageQuery,
        status: Schema.optional(StatusFilter),
        creator: Schema.optional(EntityId),
        contributor: Schema.optional(EntityId),
        requestedReviewer: Schema.optional(EntityId),
        space: Schema.optional(EntityId),
        orderBy: Schema.optional(Schema.Literals(["updatedAt", "createdAt"]))
      },
      success: ListOf(ChangeRequest),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "List an organization's change requests",
        description: "Lists the change requests of the organization's spaces the caller can view, most recently updated first (`orderBy=createdAt`: most recently created); open ones unless `status` (repeatable: any of the statuses given) says otherwise. `creator`, `contributor`, `requestedReviewer` (a pending review request) and `space` narrow the list. 404 for a non-member."
      })),
    /** Opens a change request (a draft) on the space's current content. */
    HttpApiEndpoint.post("createChangeRequest", "/spaces/:spaceId/change-requests", {
      params: { spaceId: EntityId },
      payload: Schema.Struct({
        subject: Schema.optionalKey(ChangeRequestSubject),
        agentTaskId: Schema.optionalKey(Text.check(Schema.isMaxLength(200)))
      }),
      success: ChangeRequest.pipe(HttpApiSchema.status(201)),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Open a change request",
        description: "Starts a change request, a branch of the space's current content, as a draft. Needs edit permission.",
        transform: requestExample({ subject: "Document the new export options" })
      })),
    HttpApiEndpoint.get("getChangeRequestById", "/spaces/:spaceId/change-requests/:changeRequestId", {
      params: changeRequestParams,
      success: ChangeRequest,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get a change request",
        description: "Answers a change request by id or number, with whether it is outdated against main. Needs view permission."
      })),
    /** Changes the subject and the status (draft, open, archived; `merged` only comes from a merge). */
    HttpApiEndpoint.patch("updateChangeRequestById", "/spaces/:spaceId/change-requests/:changeRequestId", {
      params: changeRequestParams,
      payload: Schema.Struct({
        subject: Schema.optionalKey(ChangeRequestSubject),
        description: Schema.optionalKey(JSONDocument),
        links: Schema.optionalKey(Schema.Array(ChangeRequestLinkInput).check(Schema.isMaxLength(maxLinks))),
        status: Schema.optionalKey(ChangeRequestStatus)
      }),
      success: ChangeRequest,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Update a change request",
        description: "Changes a change request's subject, description (GitBook's JSON document, at most 200,000 characters of JSON and 20,000 of markdown; one without text clears it), links (all of them, at most 10: with `id` an existing link kept, without one a new link; http or https URLs) or status (draft, open, archived); only a merge makes it merged. A malformed field answers 400 naming it, and nothing changes. Needs edit permission.",
        transform: requestExample({ subject: "Document the export options", status: "open" })
      })),
    /** Merges the change request into the space's content (three-way); conflicts leave everything as it was. */
    HttpApiEndpoint.post("mergeChangeRequest", "/spaces/:spaceId/change-requests/:changeRequestId/merge", {
      params: changeRequestParams,
      success: mergeResult("merge"),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Merge a change request",
        description: "Merges a change request into the space's main content by a three-way merge; conflicts are answered and change nothing. Needs the review permission."
      })),
    /** Brings the space's current content into the change request (three-way); conflicts leave it as it was. */
    HttpApiEndpoint.post("updateChangeRequest", "/spaces/:spaceId/change-requests/:changeRequestId/update", {
      params: changeRequestParams,
      success: mergeResult("update"),
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Bring a change request up to date",
        description: "Merges main's latest content into the change request, so it is no longer outdated; conflicts are answered and change nothing. Needs edit permission."
      })),
    /**
     * The change request's content as a PDF: `{url}`, a signed download link of the file. `page`
     * restricts it to that page and its subpages; `only` to that page alone.
     */
    HttpApiEndpoint.get("getChangeRequestPDF", "/spaces/:spaceId/change-requests/:changeRequestId/pdf", {
      params: changeRequestParams,
      query: { page: Schema.optional(EntityId), only: Schema.optional(Schema.Boolean) },
      success: Schema.Struct({ url: Url }),
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Export a change request as PDF",
        description: "Answers a URL to a PDF of the change request's pages. Needs view permission."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
