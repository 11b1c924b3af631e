/** Handlers of Git installations (GitBook's `git` installations, and Quire's organization-wide list). */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, type GitSyncInstallation, type UpdateGitSyncInstallation } from "@quire/api"
import { type ForgeRepository, type GitInstallation, GitInstallations, type UpdateInput } from "@quire/gitsync"
import { Errors } from "@quire/kernel"
import { Organizations } from "@quire/identity"
import { Sites } from "@quire/sites"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

type Urls = PublicUrl["Service"]

/** GitBook's `GitSyncInstallation` of one: the token never, whether there is one as `credentials`. */
export const present = (urls: Urls, i: GitInstallation): GitSyncInstallation => {
  const s = i.setup
  return {
    object: "git-sync-installation",
    id: i.id,
    provider: i.provider,
    providerConfiguration: {
      ...(s.repositoryId === undefined ? {} : i.provider === "github" ? { repositoryId: s.repositoryId } : { projectId: s.repositoryId }),
      ...(s.branch === undefined ? {} : { branch: s.branch }),
      ...(s.customInstanceURL === undefined ? {} : { customInstanceURL: s.customInstanceURL })
    },
    ...(s.projectDirectory === undefined ? {} : { projectDirectory: s.projectDirectory }),
    ...(s.commitMessageTemplate === undefined ? {} : { commitMessageTemplate: s.commitMessageTemplate }),
    ...(s.previewExternalBranches === undefined ? {} : { previewExternalBranches: s.previewExternalBranches }),
    ...(s.agentInstructions === undefined ? {} : { agentInstructions: s.agentInstructions }),
    ...(s.priority === undefined ? {} : { priority: s.priority }),
    target: i.target,
    status: i.credentialSealed === "" ? "unauthenticated" : "active",
    createdAt: i.createdAt.toISOString(),
    createdBy: i.createdBy,
    updatedAt: i.updatedAt.toISOString(),
    urls: { location: urls.api(`/git/installations/${i.id}`) },
    organization: i.organizationId,
    ...(s.repositoryName === undefined ? {} : { repositoryName: s.repositoryName }),
    credentials: i.credentialSealed !== ""
  }
}

/** GitBook's `GitSyncGitHubRepository` / `GitSyncGitLabProject` (the clone URL stays on the server). */
const repositoryOf = (r: ForgeRepository) => ({ id: r.id, accountName: r.accountName, repositoryName: r.repositoryName, fullName: r.fullName, defaultBranch: r.defaultBranch })

const updateInput = (payload: UpdateGitSyncInstallation): UpdateInput => {
  const c = payload.providerConfiguration
  return {
    provider: payload.provider,
    repositoryId: "projectId" in c ? c.projectId : "repositoryId" in c ? c.repositoryId : undefined,
    branch: c.branch,
    accessToken: c.accessToken,
    customInstanceURL: "customInstanceURL" in c ? c.customInstanceURL : undefined,
    projectDirectory: payload.projectDirectory,
    commitMessageTemplate: payload.commitMessageTemplate,
    previewExternalBranches: payload.previewExternalBranches,
    agentInstructions: payload.agentInstructions,
    priority: payload.priority
  }
}

export const layer = HttpApiBuilder.group(Api, "gitInstallations", Effect.fn(function*(handlers) {
  const installations = yield* GitInstallations
  const sites = yield* Sites
  const organizations = yield* Organizations
  const urls = yield* PublicUrl
  const one = (i: GitInstallation) => present(urls, i)
  const items = (all: ReadonlyArray<GitInstallation>) => ({ items: all.map(one) })

  /** The organization of a site the caller may see, among the caller's organizations; NotFound otherwise. */
  const siteOrganization = Effect.fnUntraced(function*(siteId: string) {
    let page: string | undefined
    do {
      const mine = yield* organizations.list({ limit: 1000, page })
      for (const o of mine.items) {
        const found = yield* Effect.option(sites.get(o.organization.id, siteId))
        if (Option.isSome(found)) return o.organization.id
      }
      page = mine.next
    } while (page !== undefined)
    return yield* new Errors.NotFound({ resource: "Site", id: siteId })
  })

  return handlers
    .handle("installGitSyncProviderOnTarget", ({ payload }) =>
      Effect.gen(function*() {
        const target = payload.target
        const siteId = target.type === "organization" ? undefined : target.siteId
        return yield* installations.install(siteId === undefined ? undefined : yield* siteOrganization(siteId), {
          provider: payload.provider,
          target,
          accessToken: payload.providerConfiguration?.accessToken,
          customInstanceURL: payload.providerConfiguration?.customInstanceURL
        }).pipe(Effect.map(one))
      }).pipe(DomainErrors.api))
    .handle("getGitSyncInstallationById", ({ params }) => installations.get(params.installationId).pipe(DomainErrors.api, Effect.map(one)))
    .handle("updateGitSyncInstallationById", ({ params, payload }) =>
      installations.update(params.installationId, updateInput(payload)).pipe(DomainErrors.api, Effect.map(one)))
    .handle("uninstallGitSyncInstallation", ({ params }) =>
      installations.uninstall(params.installationId).pipe(DomainErrors.api, Effect.as("removed" as const)))
    .handle("listSiteGitSyncInstallations", ({ params }) =>
      sites.get(params.organizationId, params.siteId).pipe(
        Effect.andThen(installations.listForSite(params.organizationId, params.siteId)),
        DomainErrors.api,
        Effect.map(items)
      ))
    .handle("listOrganizationGitSyncInstallations", ({ params }) =>
      installations.listForOrganization(params.organizationId).pipe(DomainErrors.api, Effect.map(items)))
    .handle("listGitHubRepositoriesForGitSyncInstallation", ({ params }) =>
      installations.repositories(params.installationId, "github").pipe(
        DomainErrors.api,
        Effect.map((repos) => ({ items: repos.map(repositoryOf) }))
      ))
    .handle("listGitHubRepoBranchesForGitSyncInstallation", ({ params }) =>
      installations.branches(params.installationId, "github", `${params.accountName}/${params.repositoryName}`).pipe(
        DomainErrors.api,
        Effect.map((branches) => ({ items: [...branches] }))
      ))
    .handle("getGitHubRepoFileForGitSyncInstallation", ({ params, query }) =>
      installations.file(params.installationId, "github", `${params.accountName}/${params.repositoryName}`, query.path, query.ref).pipe(DomainErrors.api))
    .handle("listGitLabProjectsForGitSyncInstallation", ({ params }) =>
      installations.repositories(params.installationId, "gitlab").pipe(
        DomainErrors.api,
        Effect.map((repos) => ({ items: repos.map(repositoryOf) }))
      ))
    .handle("listGitLabProjectBranchesForGitSyncInstallation", ({ params }) =>
      installations.branches(params.installationId, "gitlab", String(params.projectId)).pipe(
        DomainErrors.api,
        Effect.map((branches) => ({ items: [...branches] }))
      ))
    .handle("getGitLabProjectFileForGitSyncInstallation", ({ params, query }) =>
      installations.file(params.installationId, "gitlab", String(params.projectId), query.path, query.ref).pipe(DomainErrors.api))
}))
