/**
 * Git sync of a space (GitBook's "space-git"): import from and export to a Git repository in
 * GitBook's layout, the sync state, the connection of a space to its repository and the push
 * webhook that queues an import.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { GitRef as DomainGitRef, SyncStatus } from "@quire/gitsync/domain/GitSyncInfo"
import { DateTime, EntityId, Text, Timestamp } from "./Schemas.ts"
import { noNul } from "./SiteSchemas.ts"

/**
 * A repository URL: an absolute URI with a scheme (`https://`, `http://`, `ssh://`, `git://`,
 * `file://`). It may carry basic-auth credentials, which Quire stores encrypted and never shows.
 * Which schemes the server reaches is the transport's decision (`file://` only when enabled).
 */
export const RepositoryUrl = Text.check(
  Schema.isMaxLength(2048),
  Schema.makeFilter((s: string) =>
    (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/\S+$/.test(s) && URL.canParse(s)) ||
    "must be a repository URL such as https://github.com/acme/docs.git"
  )
)

/**
 * The domain's branch ref, `refs/heads/<branch>`, whose name `git check-ref-format` accepts (no space,
 * `..`, `@{`, `~`, `^`, `:`, `?`, `*`, `[`, `\`, control characters; no component starting with `.`
 * or ending with `.lock`; not ending with `/` or `.`).
 */
export const GitRef = DomainGitRef.check(
  noNul,
  Schema.isMaxLength(255),
  Schema.makeFilter((s: string) => {
    const branch = s.startsWith("refs/heads/") ? s.slice("refs/heads/".length) : undefined
    const valid = branch !== undefined && branch !== "" && branch !== "@" &&
      // oxlint-disable-next-line no-control-regex -- control characters are what Git refuses
      !/[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{|\/\/|\/$|\.$/.test(branch) &&
      branch.split("/").every((part) => part !== "" && !part.startsWith(".") && !part.endsWith(".lock"))
    return valid || "must be a branch ref such as refs/heads/main"
  })
)

/** A directory inside the repository, relative to its root (`docs`, `product/docs`); no `..`. */
export const ProjectDirectory = Text.check(
  Schema.isMaxLength(512),
  Schema.makeFilter((s: string) =>
    s.split("/").every((part) => part !== ".." && !part.includes("\\")) ||
    "must be a directory inside the repository, without .."
  )
)

/** GitBook's `UpdateSpaceGitInfo`: what a Git provider says of itself (deprecated by GitBook, accepted). */
export const UpdateSpaceGitInfo = Schema.Struct({
  provider: Schema.optionalKey(Schema.Literals(["github", "gitlab"])),
  url: Schema.optionalKey(Text.check(Schema.isMaxLength(2048)))
})

const syncFields = {
  url: RepositoryUrl,
  ref: GitRef,
  /** Deprecated by GitBook; accepted and ignored (Quire keeps one cache per space). */
  repoCacheID: Schema.optionalKey(Text.check(Schema.isMaxLength(256))),
  /** Prefix of URLs of files of the repository (for external file references). */
  repoTreeURL: Schema.optionalKey(Text.check(Schema.isMaxLength(2048))),
  /** Prefix of URLs of commits (the revision's `git.url`). */
  repoCommitURL: Schema.optionalKey(Text.check(Schema.isMaxLength(2048))),
  /** The project's root directory inside the repository. */
  repoProjectDirectory: Schema.optionalKey(ProjectDirectory),
  /** When the event that triggered the operation happened: an older event never overwrites a newer one. */
  timestamp: Schema.optionalKey(DateTime),
  /** Import: replace the space's content even when it moved since; export: push over a diverged branch. Admins only. */
  force: Schema.optionalKey(Schema.Boolean),
  gitInfo: Schema.optionalKey(UpdateSpaceGitInfo)
} as const

/** GitBook's `ImportGitRepository`. */
export const ImportGitRepository = Schema.Struct({
  ...syncFields,
  /** A revision of the repository's content that does not move the space's primary content. */
  standalone: Schema.optionalKey(Schema.Boolean)
})
export type ImportGitRepository = typeof ImportGitRepository.Type

/** GitBook's `ExportToGitRepository`. */
export const ExportToGitRepository = Schema.Struct({
  ...syncFields,
  commitMessage: Text.check(Schema.isMinLength(1), Schema.isMaxLength(65_536)),
  standalone: Schema.optionalKey(Schema.Boolean)
})
export type ExportToGitRepository = typeof ExportToGitRepository.Type

/** The domain's statuses of an import or an export: `pending`, `running`, `succeeded`, `failed`, `skipped` (older than the last applied event). */
export { SyncStatus }

/** The last import or the last export of a space. */
export const GitSyncRun = Schema.Struct({
  status: SyncStatus,
  /** The commit imported or pushed; null until one is. */
  commit: Schema.NullOr(Schema.String),
  /** When it was queued (pending), started (running) or ended. */
  at: Timestamp,
  /** Why it failed or was skipped; never holds credentials. */
  error: Schema.NullOr(Schema.String)
})
export type GitSyncRun = typeof GitSyncRun.Type

/**
 * GitBook's `GitSyncOperation` of `GitSyncState`: the latest import or export in GitBook's states
 * (`pending` and `running` are `running`, `skipped` is `success`). Quire keeps one instant per run,
 * so a finished run's `startedAt` is its `endedAt`.
 */
export const GitSyncOperation = Schema.Struct({
  state: Schema.Literals(["running", "failure", "success", "timeout"]),
  direction: Schema.Literals(["import", "export"]),
  startedAt: Timestamp,
  endedAt: Schema.optionalKey(Timestamp),
  error: Schema.optionalKey(Schema.String)
})
export type GitSyncOperation = typeof GitSyncOperation.Type

/**
 * GitBook's `GitSyncState` (the seed's Git info: `repoName`, `installationProvider`, `integration`,
 * `url`, `updatedAt`, and GitBook's installation and latest operation), with Quire's settings and
 * the last import and export. `url` is the repository without credentials.
 */
export const GitSyncState = Schema.Struct({
  /** `owner/name` of the repository. */
  repoName: Schema.String,
  /** GitBook's provider: `gitlab` for a GitLab host, `github` for any other (GitBook's schema has no other). */
  installationProvider: Schema.Literals(["github", "gitlab", "github-legacy"]),
  /** The host's kind: `github`, `gitlab`, or `git` for any other Git server. */
  integration: Schema.String,
  url: Schema.String,
  updatedAt: Timestamp,
  /** The space's id: Quire has one installation per space. */
  installationId: Schema.String,
  installationStatus: Schema.Literals(["unauthenticated", "active", "pending"]),
  operation: Schema.optionalKey(GitSyncOperation),
  ref: Schema.String,
  branch: Schema.String,
  /** The project's root inside the repository, "" for its root. */
  projectDirectory: Schema.String,
  /** Edits of main are exported and push webhooks imported. */
  connected: Schema.Boolean,
  /** Quire's: the stored URL carries credentials (kept encrypted, never shown). */
  credentials: Schema.Boolean,
  lastImport: Schema.NullOr(GitSyncRun),
  lastExport: Schema.NullOr(GitSyncRun)
})
export type GitSyncState = typeof GitSyncState.Type

/** Quire's: connects a space to a repository branch, for automatic sync and the CLI. */
export const ConnectGitRepository = Schema.Struct({
  /** The repository, credentials included; or, instead, `installationId` and `repository`. */
  url: Schema.optionalKey(RepositoryUrl),
  /** A Git installation of the space's organization whose token connects the space (no URL typed). */
  installationId: Schema.optionalKey(EntityId),
  /** With `installationId`: the repository's `owner/name` (or the GitLab project's id) among those its token reaches. */
  repository: Schema.optionalKey(Text.check(Schema.isMinLength(1), Schema.isMaxLength(512))),
  ref: GitRef,
  repoProjectDirectory: Schema.optionalKey(ProjectDirectory),
  /**
   * Keep the stored credentials: `url`, without credentials, must be the connected repository's
   * (400 naming `keepCredentials` otherwise). Credentials in `url` replace the stored ones.
   */
  keepCredentials: Schema.optionalKey(Schema.Boolean)
})

export type ConnectGitRepository = typeof ConnectGitRepository.Type

/** The push webhook a repository host calls, and its HMAC secret (admins only). */
export const GitWebhook = Schema.Struct({
  /** The URL to give the Git host. */
  url: Schema.String,
  secret: Schema.String
})

const spaceId = { spaceId: EntityId }

export class GitApi extends HttpApiGroup.make("git")
  .add(
    /**
     * Queues an import of the repository's branch into the space; 204 once queued. Needs edit
     * (`triggerGitSync`); `force` needs admin; the connected repository's stored credentials serve
     * only its branch (403 naming `ref` for another one).
     */
    HttpApiEndpoint.post("importGitRepository", "/spaces/:spaceId/git/import", {
      params: spaceId,
      payload: ImportGitRepository,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Import from Git",
        description: "Replaces the space's main content with a Git repository's markdown, in the background. Needs the edit permission on the space; `force` needs admin. The stored credentials serve only the connected branch (another `ref` brings its own or is a 403). Imports beyond the file, tree or page limits fail naming the limit."
      })),
    /** Queues an export of the space's content as one commit on the branch; 204 once queued. Permissions as for the import. */
    HttpApiEndpoint.post("exportToGitRepository", "/spaces/:spaceId/git/export", {
      params: spaceId,
      payload: ExportToGitRepository,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Export to Git",
        description: "Commits the space's main content to a Git repository branch, in the background. Needs the edit permission on the space; `force` needs admin. The stored credentials serve only the connected branch (another `ref` brings its own or is a 403)."
      })),
    /** The repository, branch and the last import and export; 404 when the space has no repository. */
    HttpApiEndpoint.get("getSpaceGitInfo", "/spaces/:spaceId/git/info", {
      params: spaceId,
      success: GitSyncState,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get Git sync state",
        description: "Answers the repository a space syncs with and the state of its last sync. Needs view permission."
      })),
    /** Removes GitBook's legacy Git installation: Quire has none, so 204 whether or not there was one. */
    HttpApiEndpoint.delete("deleteSpaceGitLegacyInstallation", "/spaces/:spaceId/git/legacy-installation", {
      params: spaceId,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Forget a legacy Git installation",
        description: "Removes a space's old-style Git installation record. Needs the admin permission on the space."
      })),
    /** Quire's: connects the space to a repository branch and answers the sync state (admins). */
    HttpApiEndpoint.put("connectSpaceGitRepository", "/spaces/:spaceId/git", {
      params: spaceId,
      payload: ConnectGitRepository,
      success: GitSyncState,
      error: [...ApiErrors.Common, ApiErrors.Conflict]
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Connect a Git repository",
        description: "Links a space to a repository and branch for two-way sync. Needs the admin permission on the space. Credentials given in `url` are stored encrypted and never shown (`credentials` says there are some); `keepCredentials` keeps the stored ones while the branch or directory changes. Instead of `url`, `installationId` and `repository` connect through one of the organization's Git installations, with its token."
      })),
    /** Quire's: disconnects the space from its repository; 204 also when it had none. */
    HttpApiEndpoint.delete("disconnectSpaceGitRepository", "/spaces/:spaceId/git", {
      params: spaceId,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Disconnect Git",
        description: "Stops syncing a space with its repository; content is kept. Needs the admin permission on the space."
      })),
    /** Quire's: the push webhook's URL and HMAC secret, for the repository host's settings (admins). */
    HttpApiEndpoint.get("getSpaceGitWebhook", "/spaces/:spaceId/git/webhook", {
      params: spaceId,
      success: GitWebhook,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Get the Git webhook",
        description: "Answers the URL and secret a Git host calls on each push. Needs the admin permission on the space."
      }))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}

/**
 * Quire's: the push webhook. GitHub's (`X-Hub-Signature-256`) and GitLab's push events, verified by
 * the space's secret over the raw body, so it has no bearer token and its handler reads the body
 * itself. 204 when an import was queued, the event is not for the connected branch, or the
 * delivery was received before (same body or delivery id: a replay runs no second import); 403
 * when the signature does not verify or the space has no connected repository.
 */
export class GitWebhookApi extends HttpApiGroup.make("gitWebhook")
  .add(
    HttpApiEndpoint.post("receiveSpaceGitWebhook", "/spaces/:spaceId/git/webhook", {
      params: spaceId,
      payload: Schema.Unknown,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    })
      .annotateMerge(OpenApi.annotations({
        summary: "Receive a push from a Git host",
        description: "Called by the Git host on each push; its signature, made with the webhook's secret, authenticates it, so it needs no token."
      }))
  )
  .prefix("/v1")
{}
