/**
 * Git sync of a space: what the import and export requests carry, what `git info` and a space's
 * `gitSync` field show (never a credential), and what a push webhook delivers.
 */
import { Schema } from "effect"

/** A branch ref, `refs/heads/<branch>`: the only kind of ref a space syncs with. */
export const GitRef = Schema.String.check(
  Schema.isPattern(/^refs\/heads\/[^\s~^:?*[\\]+$/, { message: "a ref must be refs/heads/<branch>" })
)

/** Where the request came from (GitBook's `gitInfo`): the provider and the repository's web URL. */
export const GitInfoInput = Schema.Struct({
  provider: Schema.String,
  url: Schema.String
})
export type GitInfoInput = typeof GitInfoInput.Type

const common = {
  /** The repository URL; may carry basic-auth credentials (used for Git, stored encrypted, never shown). */
  url: Schema.String,
  ref: GitRef,
  repoCacheID: Schema.optional(Schema.String),
  /** Prefix of the URLs of files in the repository (external file references). */
  repoTreeURL: Schema.optional(Schema.String),
  /** Prefix of the URLs of commits. */
  repoCommitURL: Schema.optional(Schema.String),
  /** The project's root directory inside the repository (default: the repository's root). */
  repoProjectDirectory: Schema.optional(Schema.String),
  /** When the triggering event happened: an event older than the last applied one is skipped. */
  timestamp: Schema.optional(Schema.Date),
  /** Import: replace content even when the branch diverged; export: force-push over a diverged branch. */
  force: Schema.optional(Schema.Boolean),
  gitInfo: Schema.optional(GitInfoInput)
}

/** `POST .../git/import`. */
export const ImportInput = Schema.Struct({
  ...common,
  /** True: store a revision without moving the space's main content. */
  standalone: Schema.optional(Schema.Boolean)
})
export type ImportInput = typeof ImportInput.Type

/** `POST .../git/export`. */
export const ExportInput = Schema.Struct({
  ...common,
  commitMessage: Schema.String
})
export type ExportInput = typeof ExportInput.Type

/** `quire git connect`: the repository a space syncs with automatically from now on. */
export const ConnectInput = Schema.Struct({
  url: Schema.String,
  ref: GitRef,
  projectDirectory: Schema.optional(Schema.String),
  /**
   * Keep the stored credentials: `url` (without credentials) must be the connected repository's,
   * so a branch or directory changes without typing them again. Credentials in `url` replace them.
   */
  keepCredentials: Schema.optional(Schema.Boolean)
})
export type ConnectInput = typeof ConnectInput.Type

/**
 * Where an import or export stands. `skipped`: its `timestamp` was older than the last applied
 * event (of either kind), so it changed nothing.
 */
export const SyncStatus = Schema.Literals(["pending", "running", "succeeded", "failed", "skipped"])
export type SyncStatus = typeof SyncStatus.Type

/** The last import or the last export of a space. */
export const SyncRun = Schema.Struct({
  status: SyncStatus,
  /** The commit imported or pushed; null until one is. */
  commit: Schema.NullOr(Schema.String),
  /** When it was queued (pending), started (running) or ended. */
  at: Schema.Date,
  /** Why it failed or was skipped; credentials are redacted. */
  error: Schema.NullOr(Schema.String)
})
export type SyncRun = typeof SyncRun.Type

/** `GET .../git/info`: GitBook's Git info fields, then the repository's settings and the last runs. */
export const GitSyncInfo = Schema.Struct({
  /** `owner/name` from the URL's path. */
  repoName: Schema.String,
  /** GitBook's provider: `gitlab` for a GitLab host, `github` for any other (GitBook's schema has no other). */
  installationProvider: Schema.Literals(["github", "gitlab"]),
  /** The host's kind: `github`, `gitlab` or `git` (any other Git server). */
  integration: Schema.String,
  /** The repository URL without credentials. */
  url: Schema.String,
  updatedAt: Schema.Date,
  ref: GitRef,
  branch: Schema.String,
  /** The project's root inside the repository, "" for the root. */
  projectDirectory: Schema.String,
  /** Merges and edits of main are exported, and push webhooks imported (`connect`). */
  connected: Schema.Boolean,
  /** The stored URL carries credentials (kept sealed, never shown). */
  credentials: Schema.Boolean,
  lastImport: Schema.NullOr(SyncRun),
  lastExport: Schema.NullOr(SyncRun)
})
export type GitSyncInfo = typeof GitSyncInfo.Type

/** A space's `gitSync` field (GitBook's shape). */
export const SpaceGitSync = Schema.Struct({
  repoName: Schema.String,
  installationProvider: Schema.Literals(["github", "gitlab"]),
  integration: Schema.String,
  /** The space's own: Quire's connection is the space's. */
  installationId: Schema.String,
  installationStatus: Schema.Literal("active"),
  url: Schema.String,
  updatedAt: Schema.Date
})
export type SpaceGitSync = typeof SpaceGitSync.Type

/** The secret a Git host signs push webhooks with, for the space's admins to paste there. */
export const WebhookSecret = Schema.Struct({
  secret: Schema.String,
  /** The path to give the Git host, `/v1/spaces/<spaceId>/git/webhook`. */
  path: Schema.String
})
export type WebhookSecret = typeof WebhookSecret.Type

/** A webhook delivery as received: header names in any case, the body's exact bytes (signatures cover them). */
export interface WebhookRequest {
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: Uint8Array
}

/** What a verified delivery did: an import queued, or why nothing was (another event, another branch, our own push). */
export const WebhookOutcome = Schema.Struct({
  queued: Schema.Boolean,
  reason: Schema.String
})
export type WebhookOutcome = typeof WebhookOutcome.Type
