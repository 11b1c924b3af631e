/**
 * Port: reading a branch of a Git remote as a whole tree, and pushing one commit of changed files
 * onto it. The real adapter drives the `git` binary (`GitCli.ts`); the memory one keeps remotes in
 * this process, for the sync's use-case tests.
 */
import { Context, Effect, Layer } from "effect"
import { createHash } from "node:crypto"
import {
  GitAuthFailed,
  GitBranchMissing,
  GitDiverged,
  type GitError,
  GitFailed,
  GitRemoteRefused,
  GitTooLarge,
  GitUnreachable
} from "./domain/GitErrors.ts"
import { Redact } from "@quire/kernel"

/** A branch of a repository: `url` may hold basic-auth credentials; `ref` is `refs/heads/<branch>`. */
export interface GitRemote {
  readonly url: string
  readonly ref: string
}

/** A file of a commit's tree: its blob id and its bytes. */
export interface GitBlob {
  readonly oid: string
  readonly bytes: Uint8Array
}

/** A commit and its whole tree (paths relative to the repository root, `/`-separated). */
export interface GitSnapshot {
  readonly commit: string
  /** The commit's message, as written (trailing newline removed). */
  readonly message: string
  readonly files: ReadonlyMap<string, GitBlob>
}

export interface GitAuthor {
  readonly name: string
  readonly email: string
}

/** One commit to push: the files to write (null deletes) on top of `parent`. */
export interface GitPush {
  /** The commit the changes apply to; undefined makes a root commit. */
  readonly parent: string | undefined
  readonly changes: ReadonlyMap<string, Uint8Array | null>
  readonly message: string
  readonly author: GitAuthor
  /** Push even when the branch moved since `parent` (its commits are dropped). */
  readonly force: boolean
  /** The branch must not exist yet (it is created at the new commit); else it must be at `parent`. */
  readonly createBranch?: boolean
}

/** Bounds of what one fetch reads: beyond one of them it fails with GitTooLarge before reading any file. */
export interface ReadLimits {
  /** The largest file (bytes). */
  readonly maxFileBytes: number
  /** The most bytes of all files read. */
  readonly maxTreeBytes: number
  /** The most files read. */
  readonly maxTreeFiles: number
}

/** What a fetch reads of the tree. */
export interface FetchOptions {
  /** Only files under this folder (relative to the repository root) are read and counted; all by default. */
  readonly directory?: string
  readonly limits?: ReadLimits
}

/** Whether `path` lies under the folder `directory` ("" is the whole tree). */
export const isUnder = (directory: string, path: string): boolean => directory === "" || path.startsWith(`${directory}/`)

/**
 * The first bound of `limits` that the listed files (path and size, before any is read) break,
 * as the error that names it; undefined within them.
 */
export const checkLimits = (
  url: string,
  entries: ReadonlyArray<{ readonly path: string; readonly size: number }>,
  limits: ReadLimits | undefined
): GitTooLarge | undefined => {
  if (limits === undefined) return undefined
  const where = Redact.url(url)
  if (entries.length > limits.maxTreeFiles) {
    return new GitTooLarge({
      url: where,
      limit: "tree files",
      detail: `The tree holds ${entries.length} files, more than the limit of ${limits.maxTreeFiles} files per import (QUIRE_GIT_MAX_TREE_FILES)`
    })
  }
  let total = 0
  for (const entry of entries) {
    if (entry.size > limits.maxFileBytes) {
      return new GitTooLarge({
        url: where,
        limit: "file bytes",
        detail: `${entry.path} is ${entry.size} bytes, more than the limit of ${limits.maxFileBytes} bytes per file (QUIRE_GIT_MAX_FILE_BYTES)`
      })
    }
    total += entry.size
  }
  if (total > limits.maxTreeBytes) {
    return new GitTooLarge({
      url: where,
      limit: "tree bytes",
      detail: `The tree's files hold ${total} bytes, more than the limit of ${limits.maxTreeBytes} bytes per import (QUIRE_GIT_MAX_TREE_BYTES)`
    })
  }
  return undefined
}

export interface GitTransportShape {
  /**
   * The commit `remote.ref` points at and its tree (the files under `options.directory`), within
   * `options.limits`, which are checked on the tree's listing before any file is read.
   */
  readonly fetch: (remote: GitRemote, options?: FetchOptions) => Effect.Effect<GitSnapshot, GitError>
  /**
   * Commits `push.changes` on `push.parent` and moves `remote.ref` to it, only if the branch is still
   * at `parent` (absent for a root commit or `createBranch`) unless `force`. Changes that change
   * nothing make no commit and answer the parent.
   */
  readonly push: (remote: GitRemote, push: GitPush) => Effect.Effect<{ readonly commit: string }, GitError>
}

/** Fetches and pushes Git branches. */
export class GitTransport extends Context.Service<GitTransport, GitTransportShape>()("@quire/gitsync/GitTransport") {
  /** Remotes in this process, empty at first; repositories appear on their first push. */
  static readonly layerMemory: Layer.Layer<GitTransport> = Layer.sync(GitTransport, () => new MemoryGitRemotes().transport)

  /** The memory transport over `remotes`, which the test can seed, move and inspect. */
  static readonly layerTest = (remotes: MemoryGitRemotes): Layer.Layer<GitTransport> =>
    Layer.succeed(GitTransport, remotes.transport)
}

/** A `ref` the transport accepts: a branch under `refs/heads/` that git's ref-name rules allow. */
export const isBranchRef = (ref: string): boolean =>
  /^refs\/heads\/[^\s~^:?*[\\]+$/.test(ref) &&
  !/\.\.|\/\/|@\{|\/\.|\.lock(\/|$)|\/$|\.$/.test(ref) &&
  ![...ref].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)

/** Git's object id of a blob holding `bytes` (SHA-1 of `blob <size>\0<bytes>`). */
export const blobOid = (bytes: Uint8Array): string =>
  createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex")

// Memory ------------------------------------------------------------------------------------------------

interface MemoryCommit {
  readonly oid: string
  readonly parent: string | undefined
  readonly files: ReadonlyMap<string, GitBlob>
  readonly message: string
  readonly author: GitAuthor
}

interface MemoryRepository {
  readonly branches: Map<string, string>
  readonly commits: Map<string, MemoryCommit>
  credentials: string | undefined
  failure: GitError | undefined
}

const keyOf = (url: string) => Redact.withoutCredentials(url)

const credentialsOf = (url: string): string | undefined => {
  if (!URL.canParse(url)) return undefined
  const parsed = new URL(url)
  return parsed.username === "" && parsed.password === ""
    ? undefined
    : `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
}

/**
 * Git remotes held in memory (branches → commits → trees), with the real transport's rules: a push
 * lands only on the commit it was built on, oids of blobs are git's. A test seeds them with
 * `commit`, moves a branch behind the sync's back, requires credentials or makes a remote fail.
 */
export class MemoryGitRemotes {
  private readonly repositories = new Map<string, MemoryRepository>()
  private sequence = 0
  /** How many pushes moved a branch. */
  pushes = 0

  private repository(url: string): MemoryRepository {
    const key = keyOf(url)
    let repository = this.repositories.get(key)
    if (repository === undefined) {
      repository = { branches: new Map(), commits: new Map(), credentials: undefined, failure: undefined }
      this.repositories.set(key, repository)
    }
    return repository
  }

  /** Requires `user:password` from every operation on `url` (GitAuthFailed otherwise). */
  requireCredentials(url: string, credentials: string): void {
    this.repository(url).credentials = credentials
  }

  /** Makes every operation on `url` fail with `error` (undefined: work again). */
  failWith(url: string, error: GitError | undefined): void {
    this.repository(url).failure = error
  }

  /** Commits `files` (the whole tree when `replace`, else changes on top of the branch) as someone else would. */
  commit(
    url: string,
    ref: string,
    files: Readonly<Record<string, string | Uint8Array | null>>,
    options: { readonly message?: string; readonly replace?: boolean } = {}
  ): string {
    const repository = this.repository(url)
    const parent = repository.branches.get(ref)
    const base = parent === undefined || options.replace === true
      ? new Map<string, GitBlob>()
      : new Map(repository.commits.get(parent)?.files)
    for (const [path, content] of Object.entries(files)) {
      if (content === null) base.delete(path)
      else {
        const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content
        base.set(path, { oid: blobOid(bytes), bytes })
      }
    }
    const commit = this.store(repository, parent, base, options.message ?? "commit", { name: "Someone", email: "someone@example.com" })
    repository.branches.set(ref, commit.oid)
    return commit.oid
  }

  /** The commit `ref` points at, if it exists. */
  head(url: string, ref: string): string | undefined {
    return this.repositories.get(keyOf(url))?.branches.get(ref)
  }

  /** A commit of `url`: its parent, message, author and files as text. */
  read(url: string, commit: string): { readonly parent: string | undefined; readonly message: string; readonly author: GitAuthor; readonly files: ReadonlyMap<string, string> } | undefined {
    const found = this.repositories.get(keyOf(url))?.commits.get(commit)
    if (found === undefined) return undefined
    const decoder = new TextDecoder()
    return {
      parent: found.parent,
      message: found.message,
      author: found.author,
      files: new Map([...found.files].map(([path, blob]) => [path, decoder.decode(blob.bytes)]))
    }
  }

  private store(repository: MemoryRepository, parent: string | undefined, files: ReadonlyMap<string, GitBlob>, message: string, author: GitAuthor): MemoryCommit {
    const oid = createHash("sha1")
      .update(`${parent ?? ""}\n${[...files].map(([path, blob]) => `${path}:${blob.oid}`).toSorted().join("\n")}\n${message}\n${this.sequence++}`)
      .digest("hex")
    const commit: MemoryCommit = { oid, parent, files, message, author }
    repository.commits.set(oid, commit)
    return commit
  }

  private check(remote: GitRemote): Effect.Effect<MemoryRepository, GitError> {
    const url = Redact.url(remote.url)
    if (!URL.canParse(remote.url) || !["https:", "http:", "file:"].includes(new URL(remote.url).protocol)) {
      return Effect.fail(new GitRemoteRefused({ url, reason: "invalid-url", detail: `Not an http(s) URL: ${url}` }))
    }
    if (!isBranchRef(remote.ref)) {
      return Effect.fail(new GitRemoteRefused({ url, reason: "invalid-ref", detail: `${remote.ref} is not a branch (refs/heads/<name>)` }))
    }
    const repository = this.repository(remote.url)
    if (repository.failure !== undefined) return Effect.fail(repository.failure)
    if (repository.credentials !== undefined && credentialsOf(remote.url) !== repository.credentials) {
      return Effect.fail(new GitAuthFailed({ url }))
    }
    return Effect.succeed(repository)
  }

  /** The transport over these remotes. */
  readonly transport: GitTransportShape = GitTransport.of({
    fetch: (remote, options = {}) =>
      Effect.flatMap(this.check(remote), (repository): Effect.Effect<GitSnapshot, GitError> => {
        const head = repository.branches.get(remote.ref)
        const commit = head === undefined ? undefined : repository.commits.get(head)
        if (commit === undefined) {
          return Effect.fail(new GitBranchMissing({ url: Redact.url(remote.url), ref: remote.ref, repositoryEmpty: repository.branches.size === 0 }))
        }
        const files = [...commit.files].filter(([path]) => isUnder(options.directory ?? "", path))
        const tooLarge = checkLimits(remote.url, files.map(([path, blob]) => ({ path, size: blob.bytes.byteLength })), options.limits)
        if (tooLarge !== undefined) return Effect.fail(tooLarge)
        return Effect.succeed({ commit: commit.oid, message: commit.message, files: new Map(files) })
      }),
    push: (remote, push) =>
      Effect.flatMap(this.check(remote), (repository): Effect.Effect<{ readonly commit: string }, GitError> => {
        const url = Redact.url(remote.url)
        const parent = push.parent === undefined ? undefined : repository.commits.get(push.parent)
        if (push.parent !== undefined && parent === undefined) {
          return Effect.fail(new GitFailed({ url, detail: `commit ${push.parent} is not in the repository` }))
        }
        const expected = push.parent === undefined || push.createBranch === true ? undefined : push.parent
        const current = repository.branches.get(remote.ref)
        if (!push.force && current !== expected) {
          return Effect.fail(new GitDiverged({ url, ref: remote.ref, reason: current === undefined ? "branch deleted" : "fetch first" }))
        }
        const files = new Map(parent?.files)
        for (const [path, bytes] of push.changes) {
          if (bytes === null) files.delete(path)
          else files.set(path, { oid: blobOid(bytes), bytes: Uint8Array.from(bytes) })
        }
        const same = parent !== undefined && files.size === parent.files.size &&
          [...files].every(([path, blob]) => parent.files.get(path)?.oid === blob.oid)
        const commit = same && parent !== undefined
          ? parent.oid
          : this.store(repository, parent?.oid, files, push.message, push.author).oid
        if (current !== commit) {
          repository.branches.set(remote.ref, commit)
          this.pushes++
        }
        return Effect.succeed({ commit })
      })
  })
}

export { GitAuthFailed, GitBranchMissing, GitDiverged, GitFailed, GitRemoteRefused, GitTooLarge, GitUnreachable }
export type { GitError }
