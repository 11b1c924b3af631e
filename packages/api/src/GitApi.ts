/**
 * Git sync of a space (GitBook's "space-git"): import from and export to a Git repository in
 * GitBook's layout, the sync state, the connection of a space to its repository and the push
 * webhook that queues an import.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { DateTime, EntityId, Text, Timestamp } from "./Schemas.ts"

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
 * A branch as a Git ref, `refs/heads/<branch>`: a name `git check-ref-format` accepts (no space,
 * `..`, `@{`, `~`, `^`, `:`, `?`, `*`, `[`, `\`, control characters; no component starting with `.`
 * or ending with `.lock`; not ending with `/` or `.`).
 */
export const GitRef = Text.check(
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
  /** Import: replace the space's content even when it moved since; export: push over a diverged branch. */
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

/** Git providers as GitBook names them, and `git` for any other repository. */
export const GitProvider = Schema.Literals(["github", "gitlab", "github-legacy", "git"])

/** GitBook's `GitSyncOperationState`. */
export const GitSyncOperationState = Schema.Literals(["running", "failure", "success", "timeout"])

/** An import or an export as `getSpaceGitInfo` tells it. */
export const GitSyncOperation = Schema.Struct({
  /** `queued` (Quire's: waiting on the queue), then GitBook's states. */
  state: Schema.Literals(["queued", "running", "failure", "success", "timeout"]),
  direction: Schema.Literals(["import", "export"]),
  startedAt: Timestamp,
  endedAt: Schema.optionalKey(Timestamp),
  /** The commit imported or pushed. */
  commit: Schema.optionalKey(Schema.String),
  /** Why it failed; never holds credentials. */
  error: Schema.optionalKey(Schema.String)
})
export type GitSyncOperation = typeof GitSyncOperation.Type

/**
 * GitBook's `GitSyncState` (the seed's Git info), with Quire's `ref`, `projectDirectory` and the
 * last import and export. `url` is the repository without credentials.
 */
export const GitSyncState = Schema.Struct({
  /** `owner/name` of the repository. */
  repoName: Schema.String,
  installationId: Schema.String,
  installationProvider: GitProvider,
  installationStatus: Schema.Literals(["unauthenticated", "active", "pending"]),
  integration: Schema.String,
  url: Schema.String,
  ref: Schema.String,
  projectDirectory: Schema.optionalKey(Schema.String),
  /** The latest operation, in either direction. */
  operation: Schema.optionalKey(GitSyncOperation),
  lastImport: Schema.optionalKey(GitSyncOperation),
  lastExport: Schema.optionalKey(GitSyncOperation),
  updatedAt: Timestamp
})
export type GitSyncState = typeof GitSyncState.Type

/** The seed's Space `gitSync`: which repository the space is synchronised with. */
export const SpaceGitSync = Schema.Struct({
  repoName: Schema.String,
  installationProvider: GitProvider,
  integration: Schema.String,
  url: Schema.String,
  updatedAt: Timestamp
})

/** Quire's: connects a space to a repository branch, for automatic sync and the CLI. */
export const ConnectGitRepository = Schema.Struct({
  url: RepositoryUrl,
  ref: GitRef,
  repoProjectDirectory: Schema.optionalKey(ProjectDirectory)
})

/** The push webhook a repository host calls, and its HMAC secret (admins only). */
export const GitWebhook = Schema.Struct({
  url: Schema.String,
  secret: Schema.String
})

const spaceId = { spaceId: EntityId }

export class GitApi extends HttpApiGroup.make("git")
  .add(
    /** Queues an import of the repository's branch into the space; 204 once queued. */
    HttpApiEndpoint.post("importGitRepository", "/spaces/:spaceId/git/import", {
      params: spaceId,
      payload: ImportGitRepository,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    /** Queues an export of the space's content as one commit on the branch; 204 once queued. */
    HttpApiEndpoint.post("exportToGitRepository", "/spaces/:spaceId/git/export", {
      params: spaceId,
      payload: ExportToGitRepository,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    /** The repository, branch and the last import and export; 404 when the space has no repository. */
    HttpApiEndpoint.get("getSpaceGitInfo", "/spaces/:spaceId/git/info", {
      params: spaceId,
      success: GitSyncState,
      error: ApiErrors.Common
    }),
    /** Removes GitBook's legacy Git installation: Quire has none, so 204 whether or not there was one. */
    HttpApiEndpoint.delete("deleteSpaceGitLegacyInstallation", "/spaces/:spaceId/git/legacy-installation", {
      params: spaceId,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    /** Quire's: connects the space to a repository branch and answers the sync state (admins). */
    HttpApiEndpoint.put("connectSpaceGitRepository", "/spaces/:spaceId/git", {
      params: spaceId,
      payload: ConnectGitRepository,
      success: GitSyncState,
      error: ApiErrors.Common
    }),
    /** Quire's: disconnects the space from its repository; 204 also when it had none. */
    HttpApiEndpoint.delete("disconnectSpaceGitRepository", "/spaces/:spaceId/git", {
      params: spaceId,
      success: HttpApiSchema.NoContent,
      error: ApiErrors.Common
    }),
    /** Quire's: the push webhook's URL and HMAC secret, for the repository host's settings (admins). */
    HttpApiEndpoint.get("getSpaceGitWebhook", "/spaces/:spaceId/git/webhook", {
      params: spaceId,
      success: GitWebhook,
      error: ApiErrors.Common
    })
  )
  .middleware(Authentication)
  .prefix("/v1")
{}

/**
 * Quire's: the push webhook. GitHub's (`X-Hub-Signature-256`) and GitLab's push events, verified by
 * the space's secret over the raw body, so it has no bearer token and its handler reads the body
 * itself. 204 when an import was queued or the event is not for the connected branch.
 */
export class GitWebhookApi extends HttpApiGroup.make("gitWebhook")
  .add(
    HttpApiEndpoint.post("receiveSpaceGitWebhook", "/spaces/:spaceId/git/webhook", {
      params: spaceId,
      payload: Schema.Unknown,
      success: HttpApiSchema.NoContent,
      error: [ApiErrors.BadRequest, ApiErrors.Unauthorized, ApiErrors.NotFound]
    })
  )
  .prefix("/v1")
{}
