/** Layers that assemble the gitsync package: its port, adapters, use cases and what it offers content. */
import { AuditLayers } from "@quire/audit"
import { Layer } from "effect"
import * as AutoExport from "./AutoExport.ts"
import { GitSync } from "./GitSync.ts"
import { ForgeClient } from "./ForgeClient.ts"
import { GitInstallations } from "./GitInstallations.ts"
import { GitInstallationsRepo } from "./GitInstallationsRepo.ts"
import { GitSyncRepo } from "./GitSyncRepo.ts"
import { ImportedLayoutRepo } from "./ImportedLayoutRepo.ts"
import { SecretBox } from "./SecretBox.ts"
import { SpaceArchives } from "./SpaceArchives.ts"
import * as SpaceRemoval from "./SpaceRemoval.ts"
import * as SqlGitInstallationsRepo from "./SqlGitInstallationsRepo.ts"
import * as SqlGitSyncRepo from "./SqlGitSyncRepo.ts"
import * as SqlImportedLayoutRepo from "./SqlImportedLayoutRepo.ts"
import { SyncJobs } from "./SyncJobs.ts"

/** The gitsync ports in memory. */
export const layerReposMemory = Layer.mergeAll(GitSyncRepo.layerMemory, ImportedLayoutRepo.layerMemory, GitInstallationsRepo.layerMemory, AuditLayers.layerMemory)

/** The gitsync ports on Postgres (need only a SqlClient). */
export const layerReposSql = Layer.mergeAll(SqlGitSyncRepo.layer, SqlImportedLayoutRepo.layer, SqlGitInstallationsRepo.layer, AuditLayers.layerSql)

/**
 * The key, over whichever GitSyncRepo is provided: shared by the use cases and by content's
 * observer, so build it once (`Layer.provideMerge`).
 */
export const layerInfrastructure = SecretBox.layer

/**
 * The use cases, the job runner and the space archives; need content's ContentAccess, SpaceContent, RevisionWriter,
 * PublishedContent and BlobStore, a GitTransport, GitSyncRepo, ImportedLayoutRepo, the infrastructure, a JobQueue, Ids and a Transactor.
 */
export const layerServices = Layer.mergeAll(GitSync.layer, SyncJobs.layer, SpaceArchives.layer, GitInstallations.layer.pipe(Layer.provide(ForgeClient.layer)))

/** Content's MainObservers: edits of a connected space queue a debounced export. */
export const layerMainObservers = AutoExport.layer

/** Content's SpaceDependents port over gitsync's table. */
export const layerSpaceDependents = SpaceRemoval.layer
