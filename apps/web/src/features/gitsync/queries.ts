/**
 * The Git sync screen's reads and writes. Reactivity key `git:<space>`: the sync state and the
 * webhook, named by every write of the screen.
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const gitKey = (spaceId: string) => `git:${spaceId}`

/** The space's repository and last runs (`getSpaceGitInfo`; a 404 when it has none). */
export const gitInfoAtom = Atom.family((spaceId: string) =>
  QuireApi.query("git", "getSpaceGitInfo", { params: { spaceId }, reactivityKeys: [gitKey(spaceId)] }))

/** The push webhook's URL and secret, for the space's admins (`getSpaceGitWebhook`). */
export const gitWebhookAtom = Atom.family((spaceId: string) =>
  QuireApi.query("git", "getSpaceGitWebhook", { params: { spaceId }, reactivityKeys: [gitKey(spaceId)] }))

export const connectGit = QuireApi.mutation("git", "connectSpaceGitRepository")
export const disconnectGit = QuireApi.mutation("git", "disconnectSpaceGitRepository")
export const importGit = QuireApi.mutation("git", "importGitRepository")
export const exportGit = QuireApi.mutation("git", "exportToGitRepository")

/** The reactivity key of an organization's Git installations. */
export const installationsKey = (organizationId: string) => `git-installations:${organizationId}`

/** An organization's Git installations (`listOrganizationGitSyncInstallations`). */
export const installationsAtom = Atom.family((organizationId: string) =>
  QuireApi.query("gitInstallations", "listOrganizationGitSyncInstallations", { params: { organizationId }, reactivityKeys: [installationsKey(organizationId)] }))

/** The repositories a GitHub installation's token reaches. */
export const githubReposAtom = Atom.family((installationId: string) =>
  QuireApi.query("gitInstallations", "listGitHubRepositoriesForGitSyncInstallation", { params: { installationId } }))

/** The projects a GitLab installation's token reaches. */
export const gitlabProjectsAtom = Atom.family((installationId: string) =>
  QuireApi.query("gitInstallations", "listGitLabProjectsForGitSyncInstallation", { params: { installationId } }))

/** A GitHub repository's branches, keyed `<installation> <owner/name>`. */
export const githubBranchesAtom = Atom.family((key: string) => {
  const [installationId = "", fullName = ""] = key.split(" ")
  const [accountName = "", repositoryName = ""] = fullName.split("/")
  return QuireApi.query("gitInstallations", "listGitHubRepoBranchesForGitSyncInstallation", { params: { installationId, accountName, repositoryName } })
})

/** A GitLab project's branches, keyed `<installation> <project id>`. */
export const gitlabBranchesAtom = Atom.family((key: string) => {
  const [installationId = "", projectId = "0"] = key.split(" ")
  return QuireApi.query("gitInstallations", "listGitLabProjectBranchesForGitSyncInstallation", { params: { installationId, projectId: Number(projectId) } })
})

export const installGit = QuireApi.mutation("gitInstallations", "installGitSyncProviderOnTarget")
export const uninstallGit = QuireApi.mutation("gitInstallations", "uninstallGitSyncInstallation")
