/**
 * @quire/gitsync: two-way sync of a space with a Git repository in GitBook's layout
 * (docs/gitsync.md). Knows nothing of HTTP.
 */
export * from "./domain/GitSyncInfo.ts"
export { CommitMessages } from "./CommitMessages.ts"
export type { CommitMessagesShape } from "./CommitMessages.ts"
export { GitAuthors } from "./GitAuthors.ts"
export type { GitAuthorsShape } from "./GitAuthors.ts"
export { GitSync, providerOf, repoName } from "./GitSync.ts"
export type { GitSyncOptions, GitSyncShape } from "./GitSync.ts"
export * as GitSyncLayers from "./GitSyncLayers.ts"
export { GitSyncRepo } from "./GitSyncRepo.ts"
export type { SyncRecord } from "./GitSyncRepo.ts"
export { ImportedLayoutRepo } from "./ImportedLayoutRepo.ts"
export type { ImportedLayout } from "./ImportedLayoutRepo.ts"
export * as GitCli from "./GitCli.ts"
export { GitTransport } from "./GitTransport.ts"
export { readRepository, writeRepository } from "./layout/Layout.ts"
export { migrations } from "./migrations/index.ts"
export { SecretBox } from "./SecretBox.ts"
export { ExportJob, ImportJob, SyncJobs } from "./SyncJobs.ts"
export * as SqlGitSyncRepo from "./SqlGitSyncRepo.ts"
