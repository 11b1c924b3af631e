/**
 * The Git sync screen's pure parts: the repository URL with the credentials typed beside it, the
 * branch as a ref, the runs of `getSpaceGitInfo` in plain words, and which field a refusal or a
 * failed run is about. Pure, so Node tests it.
 */
import type { GitSyncRun, GitSyncState } from "@quire/api"

/** The user name sent with a token alone: GitHub takes any name with a token, GitLab any but an empty one. */
export const tokenUser = "x-access-token"

/**
 * The URL to connect: `url` with `username` and `secret` (a password or a token) as its basic-auth
 * part when a secret is given. A URL that does not parse is answered as typed, for the contract's
 * check to refuse under its field.
 */
export const urlWithCredentials = (url: string, username: string, secret: string): string => {
  const typed = url.trim()
  if (secret === "" || !URL.canParse(typed)) return typed
  const parsed = new URL(typed)
  parsed.username = encodeURIComponent(username.trim() === "" ? tokenUser : username.trim())
  parsed.password = encodeURIComponent(secret)
  return parsed.toString()
}

/** The branch a person typed as the ref the API takes: `main` is `refs/heads/main`. */
export const refOf = (branch: string): string => {
  const name = branch.trim()
  return name.startsWith("refs/heads/") ? name : `refs/heads/${name}`
}

/** The form's fields, by the names the API's refusals give them. */
export const fieldOfApi: Readonly<Record<string, "url" | "branch" | "directory" | "credentials">> = {
  url: "url",
  ref: "branch",
  repoProjectDirectory: "directory",
  keepCredentials: "credentials"
}

/** A refusal's words for a person: the branch's in branch names, not refs. */
export const plainRefusal = (field: string, message: string): string => {
  if (field === "branch" && /refs\/heads|branch ref/.test(message)) {
    return "Not a branch name Git accepts: no spaces, “..”, “~”, “^”, “:”, “?”, “*”, “[” or “\\”, and not ending with “/” or “.”."
  }
  const words = message.replace(/\s+at \[.*$/s, "").trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export type RunKind = "import" | "export"

/** A run still under way: queued or running. */
export const isActive = (run: GitSyncRun | null): boolean => run !== null && (run.status === "pending" || run.status === "running")

/** Whether either run of the state is under way (the screen polls while one is). */
export const anyActive = (state: GitSyncState | undefined): boolean =>
  state !== undefined && (isActive(state.lastImport) || isActive(state.lastExport))

/** A run's state in words: "Queued", "Running", "Imported commit 1a2b3c4", "Failed". */
export const runHeadline = (kind: RunKind, run: GitSyncRun): string => {
  const commit = run.commit === null ? "" : ` commit ${run.commit.slice(0, 7)}`
  switch (run.status) {
    case "pending":
      return "Queued"
    case "running":
      return kind === "import" ? "Importing…" : "Exporting…"
    case "succeeded":
      return kind === "import" ? `Imported${commit}` : run.commit === null ? "Exported: nothing had changed" : `Pushed${commit}`
    case "skipped":
      return "Skipped"
    case "failed":
      return "Failed"
  }
}

/** What a failed or skipped run's error is about: the field to check, and what to do, in plain words. */
export interface RunAdvice {
  readonly field: "url" | "branch" | "credentials" | undefined
  readonly advice: string | undefined
}

/** The advice for a run's error (the messages of gitsync's GitErrors and its limits). */
export const adviceOf = (run: GitSyncRun): RunAdvice => {
  const error = run.error ?? ""
  if (run.status === "skipped") return { field: undefined, advice: "A newer change had already been synced, so this one changed nothing." }
  if (run.status !== "failed") return { field: undefined, advice: undefined }
  if (/Authentication failed/i.test(error)) {
    return { field: "credentials", advice: "The repository refused the credentials. Replace them with a token that can read and write the repository." }
  }
  if (/does not exist in|has no commits yet/i.test(error)) return { field: "branch", advice: "Check the branch name: the repository has no such branch." }
  if (/unreachable|does not appear to be a git repository|not found|could not read from remote|not allowed|no such file/i.test(error)) {
    return { field: "url", advice: "Check the repository URL: the server could not reach a Git repository there." }
  }
  if (/has moved since it was last read/i.test(error)) {
    return { field: undefined, advice: "Someone pushed to the branch since Quire last read it. Import first, then export again." }
  }
  if (/limit/i.test(error)) return { field: undefined, advice: "The repository is larger than this server accepts; the error names the limit and its setting." }
  if (/cannot be decrypted/i.test(error)) return { field: "credentials", advice: "Connect the space again with its URL and credentials." }
  return { field: undefined, advice: undefined }
}

/** The later of the two runs, with its kind; undefined when neither ran. */
export const latestRun = (state: GitSyncState): { readonly kind: RunKind; readonly run: GitSyncRun } | undefined => {
  const runs = [
    ...(state.lastImport === null ? [] : [{ kind: "import" as const, run: state.lastImport }]),
    ...(state.lastExport === null ? [] : [{ kind: "export" as const, run: state.lastExport }])
  ]
  return runs.toSorted((a, b) => Date.parse(b.run.at) - Date.parse(a.run.at))[0]
}

/** The host's settings page for webhooks of a repository, when the URL is GitHub's or GitLab's. */
export const webhookSettingsUrl = (state: GitSyncState): string | undefined => {
  if (!URL.canParse(state.url)) return undefined
  const url = new URL(state.url)
  const path = url.pathname.replace(/\.git$/, "").replace(/\/+$/, "")
  if (state.integration === "github") return `https://${url.host}${path}/settings/hooks/new`
  if (state.integration === "gitlab") return `https://${url.host}${path}/-/hooks`
  return undefined
}
