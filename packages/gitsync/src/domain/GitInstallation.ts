/**
 * A Git installation (GitBook's `GitSyncInstallation`): an organization's connection to GitHub or
 * GitLab, with its credential kept sealed, on a target (a space, a site, or Quire's organization-wide
 * one), and the repository and branch it syncs with once they are chosen.
 */
import { Schema } from "effect"

export const GitProvider = Schema.Literals(["github", "gitlab"])
export type GitProvider = typeof GitProvider.Type

export const GitPriority = Schema.Literals(["git", "gitbook"])
export const AgentInstruction = Schema.Literals(["agents", "claude"])

/** What an installation is for: a space (managed by a site's installation when `siteId`), a site, or the whole organization (Quire's). */
export const InstallationTarget = Schema.Union([
  Schema.Struct({ type: Schema.Literal("space"), spaceId: Schema.String, siteId: Schema.optionalKey(Schema.String) }),
  Schema.Struct({ type: Schema.Literal("site"), siteId: Schema.String }),
  Schema.Struct({ type: Schema.Literal("organization"), organizationId: Schema.String })
])
export type InstallationTarget = typeof InstallationTarget.Type

/** The settings of an installation beside its credential (stored as one JSON value). */
export const InstallationSetup = Schema.Struct({
  /** The repository (GitHub) or project (GitLab) id chosen, and its `owner/name`. */
  repositoryId: Schema.optionalKey(Schema.Finite),
  repositoryName: Schema.optionalKey(Schema.String),
  defaultBranch: Schema.optionalKey(Schema.String),
  /** `refs/heads/<branch>`. */
  branch: Schema.optionalKey(Schema.String),
  /** A self-hosted GitLab's URL. */
  customInstanceURL: Schema.optionalKey(Schema.String),
  projectDirectory: Schema.optionalKey(Schema.String),
  commitMessageTemplate: Schema.optionalKey(Schema.String),
  previewExternalBranches: Schema.optionalKey(Schema.Boolean),
  agentInstructions: Schema.optionalKey(Schema.Array(AgentInstruction)),
  priority: Schema.optionalKey(GitPriority)
})
export type InstallationSetup = typeof InstallationSetup.Type

export interface GitInstallation {
  readonly id: string
  readonly organizationId: string
  readonly provider: GitProvider
  readonly target: InstallationTarget
  /** The token, sealed by the SecretBox; "" when there is none (the installation is `unauthenticated`). */
  readonly credentialSealed: string
  readonly setup: InstallationSetup
  readonly createdBy: string
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** What installing takes: the provider, the target and (Quire's) the token the forge accepts. */
export interface InstallInput {
  readonly provider: GitProvider
  readonly target: InstallationTarget
  readonly accessToken?: string | undefined
  readonly customInstanceURL?: string | undefined
}

/** What an update may change (GitBook's `GitSyncInstallationSetup`); `customInstanceURL: null` clears it. */
export interface UpdateInput {
  readonly provider: GitProvider
  readonly repositoryId?: number | undefined
  readonly branch?: string | undefined
  readonly accessToken?: string | undefined
  readonly customInstanceURL?: string | null | undefined
  readonly projectDirectory?: string | undefined
  readonly commitMessageTemplate?: string | undefined
  readonly previewExternalBranches?: boolean | undefined
  readonly agentInstructions?: ReadonlyArray<"agents" | "claude"> | undefined
  readonly priority?: "git" | "gitbook" | undefined
}

/** A repository (GitHub) or project (GitLab) the installation's token reaches. */
export interface ForgeRepository {
  readonly id: number
  readonly accountName: string
  readonly repositoryName: string
  readonly fullName: string
  readonly defaultBranch: string | null
  /** The URL to clone it over HTTPS. */
  readonly cloneUrl: string
}

export interface ForgeBranch {
  readonly name: string
  readonly ref: string
}

export interface ForgeFile {
  readonly name: string
  readonly path: string
  readonly sha: string
  readonly size: number
}
