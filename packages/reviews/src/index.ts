/**
 * @quire/reviews: domain package, wired into the workspace and ready for its issue. It declares its
 * service interfaces here, with memory and Postgres adapters beside them, and knows nothing of HTTP.
 */
export { ChangeRequests, isOutdated, maxChanges, maxFileBytes } from "./ChangeRequests.ts"
export type { ChangeInput, ChangeRequestContent, ChangeRequestList, ChangeRequestPdf, ChangeRequestView, ContentUpdate, FileInput, PdfOptions, UrlFileInput } from "./ChangeRequests.ts"
export * as Pdf from "./Pdf.ts"
export { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
export * as ChangeSet from "./ChangeSet.ts"
export type { ChangeRequest } from "./domain/ChangeRequest.ts"
export { ChangeRequestStatus } from "./domain/ChangeRequest.ts"
export * as SqlChangeRequestsRepo from "./SqlChangeRequestsRepo.ts"

export { Comments } from "./Comments.ts"
export type { CommentListRequest, CommentScope, CommentUpdate, CommentView, PostCommentInput, ReplyUpdate, ReplyView, TargetPage } from "./Comments.ts"
export * as CommentRules from "./CommentRules.ts"
export { CommentsRepo } from "./CommentsRepo.ts"
export type { Comment, CommentPermissions, CommentReply, Reaction } from "./domain/Comment.ts"
export { CommentStatus, CommentStatusFilter, TableCell } from "./domain/Comment.ts"
export * as SqlCommentsRepo from "./SqlCommentsRepo.ts"
export { migrations } from "./migrations/index.ts"
export { Merges } from "./Merges.ts"
export type { MergeOutcome } from "./Merges.ts"
export { ConflictHunk, ConflictKind, ConflictTake, MergeConflict } from "./domain/MergeConflict.ts"
export { ConflictResolution } from "./ConflictResolution.ts"
export type { ConflictChoice, ConflictList } from "./ConflictResolution.ts"

export { SpaceCountersRepo } from "./SpaceCountersRepo.ts"
export { noCounters } from "./domain/SpaceCounters.ts"
export type { SpaceCounters } from "./domain/SpaceCounters.ts"
export * as SqlSpaceCountersRepo from "./SqlSpaceCountersRepo.ts"
export * as SpaceRemoval from "./SpaceRemoval.ts"
export { SpaceActivity } from "./SpaceActivity.ts"
export * as Reviews from "./Reviews.ts"
