/**
 * What can go wrong talking to a Git remote. Every URL an error carries is redacted
 * (`https://***@host/...`) and every message is free of credentials, so errors can be stored,
 * shown in `git info` and logged as they are.
 */
import { Schema } from "effect"

/** The remote refused the credentials (HTTP 401/403), or asked for credentials that were not given. */
export class GitAuthFailed extends Schema.TaggedError<GitAuthFailed>()("GitAuthFailed", {
  url: Schema.String
}) {
  override get message(): string {
    return `Authentication failed for ${this.url}`
  }
}

/** The remote could not be reached: unknown host, connection refused, timeout. */
export class GitUnreachable extends Schema.TaggedError<GitUnreachable>()("GitUnreachable", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.url} is unreachable: ${this.reason}`
  }
}

/**
 * The branch does not exist on the remote. `repositoryEmpty` says the repository has no branch at
 * all (no commit yet), which a caller may treat as an empty tree.
 */
export class GitBranchMissing extends Schema.TaggedError<GitBranchMissing>()("GitBranchMissing", {
  url: Schema.String,
  ref: Schema.String,
  repositoryEmpty: Schema.Boolean
}) {
  override get message(): string {
    return this.repositoryEmpty
      ? `${this.url} has no commits yet (${this.ref} does not exist)`
      : `${this.ref} does not exist in ${this.url}`
  }
}

/** The branch moved on the remote since the commit a push was built on; nothing was pushed. */
export class GitDiverged extends Schema.TaggedError<GitDiverged>()("GitDiverged", {
  url: Schema.String,
  ref: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.ref} of ${this.url} has moved since it was last read (${this.reason}); nothing was pushed`
  }
}

/** Why a remote was refused before any connection was made. */
export const GitRemoteRefusal = Schema.Literals(["invalid-url", "protocol", "blocked", "invalid-ref"])

/**
 * The remote's URL or ref is not one Quire may use: not a URL, a protocol other than http(s) (or
 * `file` where allowed), a non-public address that is not allow-listed, a ref outside `refs/heads/`.
 */
export class GitRemoteRefused extends Schema.TaggedError<GitRemoteRefused>()("GitRemoteRefused", {
  url: Schema.String,
  reason: GitRemoteRefusal,
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/** Anything else git reported; `detail` is git's own message, redacted and trimmed. */
export class GitFailed extends Schema.TaggedError<GitFailed>()("GitFailed", {
  url: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `Git failed for ${this.url}: ${this.detail}`
  }
}

/** Which bound of a fetch a tree broke. */
export const GitLimit = Schema.Literals(["file bytes", "tree bytes", "tree files"])

/**
 * The tree holds a file, or more files or bytes, than a fetch may read; found from the tree's
 * listing before any file was read. `detail` names the file or the sizes and the limit.
 */
export class GitTooLarge extends Schema.TaggedError<GitTooLarge>()("GitTooLarge", {
  url: Schema.String,
  limit: GitLimit,
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/** Every error of the Git transport. */
export type GitError = GitAuthFailed | GitUnreachable | GitBranchMissing | GitDiverged | GitRemoteRefused | GitFailed | GitTooLarge

/** The schema of every error of the Git transport, to store or send one. */
export const GitError = Schema.Union([GitAuthFailed, GitUnreachable, GitBranchMissing, GitDiverged, GitRemoteRefused, GitFailed, GitTooLarge])
