/**
 * Git installations (GitBook's "git" installations): an organization's connection to GitHub or
 * GitLab on a space, a site, or (Quire's) the whole organization; its token is given once, kept
 * sealed and never shown; and the repositories, branches and files it reaches, to pick what a space
 * syncs with. Quire's beside GitBook's: the token in `providerConfiguration.accessToken` on install
 * and for GitHub too, and an organization's list (`listOrganizationGitSyncInstallations`).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as ApiErrors from "./ApiErrors.ts"
import { Authentication } from "./Authentication.ts"
import { GitRef, ProjectDirectory } from "./GitApi.ts"
import { EntityId, Text, Timestamp } from "./Schemas.ts"
import { siteParams } from "./SiteSchemas.ts"

/** GitBook's `GitSyncInstallationProvider`. */
export const GitSyncInstallationProvider = Schema.Literals(["github", "gitlab"])

/** GitBook's `GitSyncInstallationTarget`, and Quire's organization-wide target. */
export const GitSyncInstallationTarget = Schema.Union([
  Schema.Struct({ type: Schema.Literal("space"), spaceId: EntityId, siteId: Schema.optionalKey(EntityId) }),
  Schema.Struct({ type: Schema.Literal("site"), siteId: EntityId }),
  Schema.Struct({ type: Schema.Literal("organization"), organizationId: EntityId })
]).annotate({ identifier: "GitSyncInstallationTarget" })

/** A forge's token: printable, no spaces, at most 1024 characters. */
const AccessToken = Text.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(1024),
  Schema.makeFilter((s: string) => /^[\x21-\x7e]+$/.test(s) || "must be a token without spaces")
)

/** A self-hosted GitLab's address, `https://gitlab.example.com`. */
const InstanceUrl = Text.check(
  Schema.isMaxLength(2048),
  Schema.makeFilter((s: string) => (/^https?:\/\/[^\s/]+(\/\S*)?$/.test(s) && URL.canParse(s)) || "must be an http(s) URL such as https://gitlab.example.com")
)

const RepositoryNumber = Schema.Int.check(Schema.isGreaterThan(0))

/** GitBook's `GitSyncInstallationSetupCommon`. */
const setupCommon = {
  projectDirectory: Schema.optionalKey(ProjectDirectory),
  commitMessageTemplate: Schema.optionalKey(Text.check(Schema.isMaxLength(1024))),
  previewExternalBranches: Schema.optionalKey(Schema.Boolean),
  agentInstructions: Schema.optionalKey(Schema.Array(Schema.Literals(["agents", "claude"])).check(Schema.isMaxLength(2))),
  priority: Schema.optionalKey(Schema.Literals(["git", "gitbook"]))
} as const

/** GitBook's `installGitSyncProviderOnTarget` body, with Quire's token and GitLab instance. */
export const InstallGitSyncProvider = Schema.Struct({
  provider: GitSyncInstallationProvider,
  target: GitSyncInstallationTarget,
  providerConfiguration: Schema.optionalKey(Schema.Struct({
    accessToken: Schema.optionalKey(AccessToken),
    customInstanceURL: Schema.optionalKey(InstanceUrl)
  }))
})

/** GitBook's `updateGitSyncInstallationById` body (`GitSyncInstallationSetup`); the token may be given for GitHub too (Quire's). */
export const UpdateGitSyncInstallation = Schema.Union([
  Schema.Struct({
    ...setupCommon,
    provider: Schema.Literal("github"),
    providerConfiguration: Schema.Struct({
      repositoryId: Schema.optionalKey(RepositoryNumber),
      branch: Schema.optionalKey(GitRef),
      accessToken: Schema.optionalKey(AccessToken)
    }),
    childInstallationProjectDirectories: Schema.optionalKey(Schema.Record(EntityId, ProjectDirectory))
  }),
  Schema.Struct({
    ...setupCommon,
    provider: Schema.Literal("gitlab"),
    providerConfiguration: Schema.Struct({
      projectId: Schema.optionalKey(RepositoryNumber),
      branch: Schema.optionalKey(GitRef),
      accessToken: Schema.optionalKey(AccessToken),
      customInstanceURL: Schema.optionalKey(Schema.NullOr(InstanceUrl))
    }),
    childInstallationProjectDirectories: Schema.optionalKey(Schema.Record(EntityId, ProjectDirectory))
  })
])
export type UpdateGitSyncInstallation = typeof UpdateGitSyncInstallation.Type

/** GitBook's `GitSyncInstallation`, with Quire's `organization`, `repositoryName` and `credentials` (whether a token is stored). */
export const GitSyncInstallation = Schema.Struct({
  object: Schema.Literal("git-sync-installation"),
  id: Schema.String,
  provider: GitSyncInstallationProvider,
  providerConfiguration: Schema.Struct({
    repositoryId: Schema.optionalKey(Schema.Finite),
    projectId: Schema.optionalKey(Schema.Finite),
    branch: Schema.optionalKey(Schema.String),
    customInstanceURL: Schema.optionalKey(Schema.String)
  }),
  ...setupCommon,
  projectDirectory: Schema.optionalKey(Schema.String),
  commitMessageTemplate: Schema.optionalKey(Schema.String),
  target: GitSyncInstallationTarget,
  status: Schema.Literals(["unauthenticated", "active", "pending"]),
  createdAt: Timestamp,
  createdBy: Schema.String,
  updatedAt: Timestamp,
  urls: Schema.Struct({ location: Schema.String }),
  organization: Schema.String,
  /** `owner/name` of the chosen repository or project. */
  repositoryName: Schema.optionalKey(Schema.String),
  credentials: Schema.Boolean
}).annotate({ identifier: "GitSyncInstallation" })
export type GitSyncInstallation = typeof GitSyncInstallation.Type

export const GitSyncInstallations = Schema.Struct({ items: Schema.Array(GitSyncInstallation) }).annotate({ identifier: "GitSyncInstallations" })

const repositoryFields = {
  id: Schema.Finite,
  accountName: Schema.String,
  repositoryName: Schema.String,
  fullName: Schema.String,
  defaultBranch: Schema.NullOr(Schema.String)
} as const
/** GitBook's `GitSyncGitHubRepository`. */
export const GitSyncGitHubRepository = Schema.Struct(repositoryFields).annotate({ identifier: "GitSyncGitHubRepository" })
/** GitBook's `GitSyncGitLabProject`. */
export const GitSyncGitLabProject = Schema.Struct(repositoryFields).annotate({ identifier: "GitSyncGitLabProject" })
/** GitBook's `GitSyncBranch`. */
export const GitSyncBranch = Schema.Struct({ name: Schema.String, ref: Schema.String }).annotate({ identifier: "GitSyncBranch" })
/** GitBook's `GitSyncRepositoryFile`. */
export const GitSyncRepositoryFile = Schema.Struct({ name: Schema.String, path: Schema.String, sha: Schema.String, size: Schema.Finite })
  .annotate({ identifier: "GitSyncRepositoryFile" })

/** DELETE of an installation: 205, as GitBook answers. */
export const InstallationRemoved = Schema.Literal("removed").pipe(
  HttpApiSchema.asNoContent({ decode: () => "removed" as const }),
  HttpApiSchema.status(205)
)

const installationParams = { installationId: EntityId }
/** A GitHub account or repository name as GitHub allows them. */
const GitHubName = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_.-]+$/), Schema.isMaxLength(100))
const githubRepoParams = { ...installationParams, accountName: GitHubName, repositoryName: GitHubName }
const gitlabProjectParams = { ...installationParams, projectId: RepositoryNumber }
/** A file's path inside the repository; no `..`. */
const FilePath = Text.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(1024),
  Schema.makeFilter((s: string) => s.split("/").every((part) => part !== "..") || "must be a path inside the repository, without ..")
)
const fileQuery = { path: FilePath, ref: Text.check(Schema.isMinLength(1), Schema.isMaxLength(255)) }

const withConflict = [...ApiErrors.Common, ApiErrors.Conflict] as const

const item = (summary: string, description: string) => OpenApi.annotations({ summary, description })

export class GitInstallationsApi extends HttpApiGroup.make("gitInstallations")
  .add(
    /** Installs GitHub or GitLab on a space, a site or the organization; 201. Org admins. */
    HttpApiEndpoint.post("installGitSyncProviderOnTarget", "/git/installations", {
      payload: InstallGitSyncProvider,
      success: GitSyncInstallation.pipe(HttpApiSchema.status(201)),
      error: withConflict
    }).annotateMerge(item(
      "Install a Git provider",
      "Connects GitHub or GitLab to a space, a site, or (Quire's) the whole organization. Needs the admin role in the organization. The token given in `providerConfiguration.accessToken` is stored encrypted and never shown; without one the installation is `unauthenticated`. 409 when the space or site has one already."
    )),
    /** An installation (members of its organization). */
    HttpApiEndpoint.get("getGitSyncInstallationById", "/git/installations/:installationId", {
      params: installationParams,
      success: GitSyncInstallation,
      error: ApiErrors.Common
    }).annotateMerge(item("Get a Git installation", "Answers an installation; members of its organization only, others get 404.")),
    /** Changes the token, repository, branch or settings (org admins). */
    HttpApiEndpoint.patch("updateGitSyncInstallationById", "/git/installations/:installationId", {
      params: installationParams,
      payload: UpdateGitSyncInstallation,
      success: GitSyncInstallation,
      error: withConflict
    }).annotateMerge(item(
      "Update a Git installation",
      "Changes an installation's repository, branch, token or settings. Needs the admin role in the organization. The repository must be one the token reaches (400 naming `providerConfiguration.repositoryId` otherwise)."
    )),
    /** Removes an installation and its token; 205 (org admins). */
    HttpApiEndpoint.delete("uninstallGitSyncInstallation", "/git/installations/:installationId", {
      params: installationParams,
      success: InstallationRemoved,
      error: ApiErrors.Common
    }).annotateMerge(item("Uninstall a Git installation", "Removes an installation and forgets its token. Needs the admin role in the organization.")),
    /** The installations of a site and of the spaces it manages. */
    HttpApiEndpoint.get("listSiteGitSyncInstallations", "/orgs/:organizationId/sites/:siteId/spaces/git/installations", {
      params: siteParams,
      success: GitSyncInstallations,
      error: ApiErrors.Common
    }).annotateMerge(item("List a site's Git installations", "Answers the installations on a site and on the spaces it manages. Members of the organization.")),
    /** Quire's: every installation of an organization. */
    HttpApiEndpoint.get("listOrganizationGitSyncInstallations", "/orgs/:organizationId/git/installations", {
      params: { organizationId: EntityId },
      success: GitSyncInstallations,
      error: ApiErrors.Common
    }).annotateMerge(item("List an organization's Git installations", "Answers every Git installation of an organization, oldest first. Members of the organization.")),
    HttpApiEndpoint.get("listGitHubRepositoriesForGitSyncInstallation", "/git/installations/:installationId/github/repos", {
      params: installationParams,
      success: Schema.Struct({ items: Schema.Array(GitSyncGitHubRepository) }),
      error: withConflict
    }).annotateMerge(item("List a GitHub installation's repositories", "Answers the repositories the installation's token reaches on GitHub. Needs the edit role in the organization.")),
    HttpApiEndpoint.get("listGitHubRepoBranchesForGitSyncInstallation", "/git/installations/:installationId/github/repos/:accountName/:repositoryName/branches", {
      params: githubRepoParams,
      success: Schema.Struct({ items: Schema.Array(GitSyncBranch) }),
      error: withConflict
    }).annotateMerge(item("List a GitHub repository's branches", "Answers a repository's branches as the installation's token sees them. Needs the edit role in the organization.")),
    HttpApiEndpoint.get("getGitHubRepoFileForGitSyncInstallation", "/git/installations/:installationId/github/repos/:accountName/:repositoryName/file", {
      params: githubRepoParams,
      query: fileQuery,
      success: GitSyncRepositoryFile,
      error: withConflict
    }).annotateMerge(item("Get a GitHub repository's file", "Answers a file's name, path, blob id and size at a ref; 404 when there is none. Needs the edit role in the organization.")),
    HttpApiEndpoint.get("listGitLabProjectsForGitSyncInstallation", "/git/installations/:installationId/gitlab/projects", {
      params: installationParams,
      success: Schema.Struct({ items: Schema.Array(GitSyncGitLabProject) }),
      error: withConflict
    }).annotateMerge(item("List a GitLab installation's projects", "Answers the projects the installation's token is a member of on GitLab. Needs the edit role in the organization.")),
    HttpApiEndpoint.get("listGitLabProjectBranchesForGitSyncInstallation", "/git/installations/:installationId/gitlab/projects/:projectId/branches", {
      params: gitlabProjectParams,
      success: Schema.Struct({ items: Schema.Array(GitSyncBranch) }),
      error: withConflict
    }).annotateMerge(item("List a GitLab project's branches", "Answers a project's branches as the installation's token sees them. Needs the edit role in the organization.")),
    HttpApiEndpoint.get("getGitLabProjectFileForGitSyncInstallation", "/git/installations/:installationId/gitlab/projects/:projectId/file", {
      params: gitlabProjectParams,
      query: fileQuery,
      success: GitSyncRepositoryFile,
      error: withConflict
    }).annotateMerge(item("Get a GitLab project's file", "Answers a file's name, path, blob id and size at a ref; 404 when there is none. Needs the edit role in the organization."))
  )
  .middleware(Authentication)
  .prefix("/v1")
{}
