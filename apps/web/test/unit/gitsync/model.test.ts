import { Schema } from "effect"
import { ConnectGitRepository, type GitSyncRun, type GitSyncState } from "@quire/api"
import { describe, expect, it } from "vitest"
import { adviceOf, anyActive, latestRun, plainRefusal, refOf, runHeadline, urlWithCredentials, webhookSettingsUrl } from "../../../src/features/gitsync/model.ts"
import { problemOf } from "../../../src/features/admin/problems.ts"

/** What the typed client fails with when the contract's schema refuses a payload. */
const refusal = (payload: unknown): unknown => {
  try {
    Schema.encodeUnknownSync(ConnectGitRepository)(payload)
  } catch (error) {
    return error
  }
  throw new Error("the payload was accepted")
}

const run = (status: GitSyncRun["status"], at: string, error: string | null = null, commit: string | null = null): GitSyncRun => ({ status, at, error, commit })

const state = (overrides: Partial<GitSyncState> = {}): GitSyncState => ({
  repoName: "acme/docs", installationProvider: "github", integration: "github", url: "https://github.com/acme/docs.git",
  updatedAt: "2026-01-01T00:00:00.000Z", installationId: "spc", installationStatus: "active", ref: "refs/heads/main", branch: "main",
  projectDirectory: "", connected: true, credentials: false, lastImport: null, lastExport: null, ...overrides
})

describe("the Git sync screen's model", () => {
  it("puts the credentials typed beside the URL into it, encoded, and a token alone under a user name hosts accept", () => {
    expect(urlWithCredentials(" https://github.com/acme/docs.git ", "", "")).toBe("https://github.com/acme/docs.git")
    expect(urlWithCredentials("https://github.com/acme/docs.git", "", "ghp_abc")).toBe("https://x-access-token:ghp_abc@github.com/acme/docs.git")
    const odd = new URL(urlWithCredentials("https://gitlab.com/acme/docs.git", "bot@acme", "p@ss:w/rd%"))
    expect([decodeURIComponent(odd.username), decodeURIComponent(odd.password), odd.host]).toEqual(["bot@acme", "p@ss:w/rd%", "gitlab.com"])
    expect(urlWithCredentials("not a url", "bot", "secret")).toBe("not a url")
  })

  it("takes a branch name as its ref and says a refused one in branch words, by the field the contract names", () => {
    expect(refOf(" main ")).toBe("refs/heads/main")
    expect(refOf("refs/heads/docs")).toBe("refs/heads/docs")
    const problem = problemOf(refusal({ url: "https://github.com/acme/docs.git", ref: refOf("a..b") }), ["url", "ref"])
    expect(Object.keys(problem.fields)).toEqual(["ref"])
    expect(plainRefusal("branch", problem.fields["ref"]!)).toMatch(/^Not a branch name Git accepts/)
    expect(plainRefusal("url", "\"ssh://x\" is not an http(s) repository URL")).toBe("\"ssh://x\" is not an http(s) repository URL")
  })

  it("says each run's state in words, and what a failure is about", () => {
    expect(runHeadline("import", run("pending", "2026-01-01T00:00:00Z"))).toBe("Queued")
    expect(runHeadline("export", run("running", "2026-01-01T00:00:00Z"))).toBe("Exporting…")
    expect(runHeadline("export", run("succeeded", "2026-01-01T00:00:00Z", null, "0123456789abcdef"))).toBe("Pushed commit 0123456")
    expect(runHeadline("import", run("succeeded", "2026-01-01T00:00:00Z", null, "abcdef0123"))).toBe("Imported commit abcdef0")
    expect(adviceOf(run("failed", "t", "Authentication failed for https://***@github.com/acme/docs.git")).field).toBe("credentials")
    expect(adviceOf(run("failed", "t", "refs/heads/mian does not exist in https://github.com/acme/docs.git")).field).toBe("branch")
    expect(adviceOf(run("failed", "t", "https://git.example.com/x.git is unreachable: Could not resolve host")).field).toBe("url")
    expect(adviceOf(run("failed", "t", "refs/heads/main of x has moved since it was last read (stale info); nothing was pushed")).advice).toMatch(/Import first/)
    expect(adviceOf(run("succeeded", "t"))).toEqual({ field: undefined, advice: undefined })
  })

  it("polls while a run is under way, and knows the later run", () => {
    expect(anyActive(undefined)).toBe(false)
    expect(anyActive(state({ lastImport: run("succeeded", "2026-01-01T00:00:00Z") }))).toBe(false)
    expect(anyActive(state({ lastExport: run("running", "2026-01-01T00:00:00Z") }))).toBe(true)
    const later = state({ lastImport: run("failed", "2026-01-02T00:00:00Z", "x"), lastExport: run("succeeded", "2026-01-01T00:00:00Z") })
    expect(latestRun(later)?.kind).toBe("import")
    expect(latestRun(state())).toBeUndefined()
  })

  it("links the host's webhook settings for GitHub and GitLab only", () => {
    expect(webhookSettingsUrl(state())).toBe("https://github.com/acme/docs/settings/hooks/new")
    expect(webhookSettingsUrl(state({ installationProvider: "gitlab", integration: "gitlab", url: "https://gitlab.com/acme/docs.git" }))).toBe("https://gitlab.com/acme/docs/-/hooks")
    expect(webhookSettingsUrl(state({ integration: "git", url: "file:///tmp/docs.git" }))).toBeUndefined()
  })
})
