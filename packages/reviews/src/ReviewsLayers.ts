/** Layers that assemble the reviews package: its ports, adapters and use cases. */
import { AuditLayers } from "@quire/audit"
import { Layer } from "effect"
import { ChangeRequestReviews } from "./ChangeRequestReviews.ts"
import { ChangeRequests } from "./ChangeRequests.ts"
import { ChangeRequestWrites } from "./ChangeRequestWrites.ts"
import { CustomRules } from "./CustomRules.ts"
import { ChangeRequestsRepo } from "./ChangeRequestsRepo.ts"
import { CollabUpdatesRepo } from "./CollabUpdatesRepo.ts"
import { Comments } from "./Comments.ts"
import { LiveDocuments } from "./LiveDocuments.ts"
import { ConflictResolution } from "./ConflictResolution.ts"
import { CommentsRepo } from "./CommentsRepo.ts"
import { Merges } from "./Merges.ts"
import { Notifications } from "./Notifications.ts"
import { NotificationsRepo } from "./NotificationsRepo.ts"
import { ReviewsRepo } from "./ReviewsRepo.ts"
import { SpaceActivity } from "./SpaceActivity.ts"
import { PdfRenderer } from "./PdfOnDemand.ts"
import { SpacePdfs } from "./SpacePdfs.ts"
import { SpaceCountersRepo } from "./SpaceCountersRepo.ts"
import * as SpaceRemoval from "./SpaceRemoval.ts"
import * as SqlChangeRequestsRepo from "./SqlChangeRequestsRepo.ts"
import * as SqlCollabUpdatesRepo from "./SqlCollabUpdatesRepo.ts"
import * as SqlCommentsRepo from "./SqlCommentsRepo.ts"
import * as SqlNotificationsRepo from "./SqlNotificationsRepo.ts"
import * as SqlReviewsRepo from "./SqlReviewsRepo.ts"
import * as SqlSpaceCountersRepo from "./SqlSpaceCountersRepo.ts"
import * as SqlViewedPagesRepo from "./SqlViewedPagesRepo.ts"
import { AgentConversationsRepo } from "./agent/AgentConversationsRepo.ts"
import { AgentLive } from "./agent/AgentLive.ts"
import { AgentReviews } from "./agent/AgentReviews.ts"
import { OrganizationEdits } from "./agent/OrganizationEdits.ts"
import { AgentTasks } from "./agent/AgentTasks.ts"
import { ChangeRequestAgent } from "./agent/ChangeRequestAgent.ts"
import * as SqlAgentConversationsRepo from "./agent/SqlAgentConversationsRepo.ts"
import { OrganizationAgent } from "./agent/OrganizationAgent.ts"
import { OrganizationConversationsRepo } from "./agent/OrganizationConversationsRepo.ts"
import * as SqlOrganizationConversationsRepo from "./agent/SqlOrganizationConversationsRepo.ts"
import { AiLogRepo } from "./ailog/AiLogRepo.ts"
import { AiLogs } from "./ailog/AiLogs.ts"
import * as SqlAiLogRepo from "./ailog/SqlAiLogRepo.ts"
import { ViewedPages } from "./ViewedPages.ts"
import { ViewedPagesRepo } from "./ViewedPagesRepo.ts"

/** The reviews ports in memory. */
export const layerReposMemory = Layer.mergeAll(
  ChangeRequestsRepo.layerMemory,
  CommentsRepo.layerMemory,
  SpaceCountersRepo.layerMemory,
  ReviewsRepo.layerMemory,
  NotificationsRepo.layerMemory,
  CollabUpdatesRepo.layerMemory,
  ViewedPagesRepo.layerMemory,
  AgentConversationsRepo.layerMemory,
  OrganizationConversationsRepo.layerMemory,
  AiLogRepo.layerMemory,
  AuditLayers.layerMemory
)

/** The reviews ports on Postgres (needs only a SqlClient). */
export const layerReposSql = Layer.mergeAll(SqlChangeRequestsRepo.layer, SqlCommentsRepo.layer, SqlSpaceCountersRepo.layer, SqlReviewsRepo.layer, SqlNotificationsRepo.layer, SqlCollabUpdatesRepo.layer, SqlViewedPagesRepo.layer, SqlAgentConversationsRepo.layer, SqlOrganizationConversationsRepo.layer, SqlAiLogRepo.layer, AuditLayers.layerSql)

/** The use cases, over whichever ports are provided; need content's services (SpaceContent, ContentAccess, the RevisionWriter). */
export const layerServices = Layer.mergeAll(ChangeRequestReviews.layer, ConflictResolution.layer, Merges.layer, Notifications.layer, SpaceActivity.layer, SpacePdfs.layer, ViewedPages.layer, AiLogs.layer).pipe(
  // A merge first writes the change request's live edits not yet written to their pages.
  Layer.provideMerge(LiveDocuments.layer),
  Layer.provideMerge(Comments.layer),
  Layer.provideMerge(ChangeRequests.layer),
  // One hub of writes to change requests, heard by live editing.
  Layer.provideMerge(ChangeRequestWrites.layer),
  // One PDF renderer (its fonts) for the change requests' PDFs and the spaces'.
  Layer.provide(PdfRenderer.layer),
  // Custom merge rules run in a QuickJS sandbox, each in a thread of its own.
  Layer.provide(CustomRules.layer)
)

/** Content's SpaceDependents port over the reviews tables: a purged space takes its change requests, comments, reviews and notifications with it. */
export const layerSpaceDependents = SpaceRemoval.layer

/**
 * The agent in change requests (its conversations, and its tasks: writing the details, reviewing), over the use cases above;
 * needs the agent's model (AgentModel: none, or a LanguageModel), its organization's instructions (AgentInstructions) and
 * the queue of its requested reviews (AgentReviewQueue).
 * Gives AgentLive too, which live editing serves while its server runs.
 */
export const layerAgent = Layer.mergeAll(ChangeRequestAgent.layer, AgentReviews.layer.pipe(Layer.provideMerge(AgentTasks.layer))).pipe(Layer.provideMerge(AgentLive.layer))

/**
 * The organization's agent: members' own conversations answered by content's OrganizationAsk, and the edits they ask for made
 * by the change request's agent; needs them, the agent's model and the organization's instructions (AgentInstructions).
 */
export const layerOrganizationAgent = OrganizationAgent.layer.pipe(Layer.provide(OrganizationEdits.layer))
