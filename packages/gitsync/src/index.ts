/**
 * @quire/gitsync: two-way sync of a space with a Git repository in GitBook's layout (issue 10,
 * docs/gitsync.md). Knows nothing of HTTP.
 */
export * from "./domain/GitSyncInfo.ts"
export { GitSync } from "./GitSync.ts"
export type { GitSyncShape } from "./GitSync.ts"
