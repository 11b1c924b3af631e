/** What Git sync checks of a request's repository settings, and shows of a space's record. */
import { Effect } from "effect"
import { Errors, Redact } from "@quire/kernel"
import type { GitSyncInfo } from "../domain/GitSyncInfo.ts"
import type { SyncRecord } from "../GitSyncRepo.ts"
import { isBranchRef } from "../GitTransport.ts"
import { normalizePath } from "../layout/Paths.ts"

/** `owner/name` of a repository URL (its path without `.git`). */
export const repoName = (url: string): string => {
  if (!URL.canParse(url)) return url
  return new URL(url).pathname.replace(/^\/+|\/+$/g, "").replace(/\.git$/, "")
}

/** `github`, `gitlab` or `git`, from the host of the URL. */
export const providerOf = (url: string): string => {
  if (!URL.canParse(url)) return "git"
  const host = new URL(url).hostname
  return host === "github.com" || host.endsWith(".github.com") ? "github" : host.includes("gitlab") ? "gitlab" : "git"
}

/**
 * GitBook's `installationProvider` for a URL: `gitlab` for a GitLab host, `github` for every other
 * (GitBook's schema knows no other). `integration` keeps the host's kind, `git` for any other server.
 */
export const installationProviderOf = (url: string): "github" | "gitlab" => providerOf(url) === "gitlab" ? "gitlab" : "github"

/** The key of the job a burst of webhooks or edits of a space collapses into. */
export const debounceKey = (task: string, spaceId: string) => `${task}:${spaceId}`

export const notConfigured = (spaceId: string) => new Errors.NotFound({ resource: "Git repository of space", id: spaceId })

export const checkUrl = (url: string): Effect.Effect<void, Errors.InvalidInput> =>
  URL.canParse(url) && ["http:", "https:", "file:"].includes(new URL(url).protocol)
    ? Effect.void
    : Effect.fail(new Errors.InvalidInput({ field: "url", reason: `${JSON.stringify(Redact.url(url))} is not an http(s) repository URL` }))

export const checkRef = (ref: string): Effect.Effect<void, Errors.InvalidInput> =>
  isBranchRef(ref) ? Effect.void : Effect.fail(new Errors.InvalidInput({ field: "ref", reason: `${JSON.stringify(ref)} is not a branch (refs/heads/<name>)` }))

export const projectDirectoryOf = (input: string | undefined): Effect.Effect<string, Errors.InvalidInput> => {
  const path = normalizePath(input ?? "")
  return (input ?? "").split(/[\\/]/).includes("..")
    ? Effect.fail(new Errors.InvalidInput({ field: "repoProjectDirectory", reason: "must stay inside the repository" }))
    : Effect.succeed(path)
}

/** What `git info` shows of a record; `credentials` whether its sealed URL carries some. */
export const infoOf = (record: SyncRecord, credentials: boolean): GitSyncInfo => ({
  repoName: repoName(record.url),
  installationProvider: installationProviderOf(record.url),
  integration: providerOf(record.url),
  url: record.url,
  updatedAt: record.updatedAt,
  ref: record.ref,
  branch: record.ref.slice("refs/heads/".length),
  projectDirectory: record.projectDirectory,
  connected: record.connected,
  credentials,
  lastImport: record.lastImport,
  lastExport: record.lastExport
})

/** A record for a space that had none. */
export const fresh = (spaceId: string, at: Date): SyncRecord => ({
  spaceId,
  url: "",
  urlSealed: "",
  ref: "refs/heads/main",
  projectDirectory: "",
  connected: false,
  actorId: null,
  webhookSecret: null,
  lastImport: null,
  lastExport: null,
  lastEventAt: null,
  exportedCommit: null,
  updatedAt: at
})
