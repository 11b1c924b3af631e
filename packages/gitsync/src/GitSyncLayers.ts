/** Layers that assemble the gitsync package: its port, adapters, use cases and what it offers content. */
import { Layer } from "effect"
import * as AutoExport from "./AutoExport.ts"
import { GitSync } from "./GitSync.ts"
import { GitSyncRepo } from "./GitSyncRepo.ts"
import { SecretBox } from "./SecretBox.ts"
import * as SpaceRemoval from "./SpaceRemoval.ts"
import * as SqlGitSyncRepo from "./SqlGitSyncRepo.ts"
import { SyncJobs } from "./SyncJobs.ts"

/** The gitsync port in memory. */
export const layerReposMemory = GitSyncRepo.layerMemory

/** The gitsync port on Postgres (needs only a SqlClient). */
export const layerReposSql = SqlGitSyncRepo.layer

/**
 * The key, over whichever GitSyncRepo is provided: shared by the use cases and by content's
 * observer, so build it once (`Layer.provideMerge`).
 */
export const layerInfrastructure = SecretBox.layer

/**
 * The use cases and the job runner; need content's ContentAccess, SpaceContent, RevisionWriter,
 * PublishedContent and BlobStore, a GitTransport, GitSyncRepo, the infrastructure, a JobQueue, Ids and a Transactor.
 */
export const layerServices = Layer.mergeAll(GitSync.layer, SyncJobs.layer)

/** Content's MainObservers: edits of a connected space queue a debounced export. */
export const layerMainObservers = AutoExport.layer

/** Content's SpaceDependents port over gitsync's table. */
export const layerSpaceDependents = SpaceRemoval.layer
