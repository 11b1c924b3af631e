/**
 * Use cases of Git installations: an organization connects GitHub or GitLab once (its token kept
 * sealed, never shown), then its editors list the repositories, branches and files the token
 * reaches, to pick what a space syncs with. Admins of the organization install, change and
 * uninstall; its members read; to anyone else an installation does not exist.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { ContentAccess } from "@quire/content"
import { Actor, Errors, Ids, Roles } from "@quire/kernel"
import type { ForgeBranch, ForgeFile, ForgeRepository, GitInstallation, GitProvider, InstallationTarget, InstallInput, UpdateInput } from "./domain/GitInstallation.ts"
import { type ForgeAccess, ForgeClient, type ForgeError } from "./ForgeClient.ts"
import { GitInstallationsRepo } from "./GitInstallationsRepo.ts"
import { SecretBox } from "./SecretBox.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface GitInstallationsShape {
  /**
   * Installs `provider` on a target: a space, a site (the caller resolved its organization, `siteOrganization`,
   * which a space's `siteId` must share too) or an organization. Its organization's admins only; Conflict when the space or site has one already.
   */
  readonly install: (siteOrganization: string | undefined, input: InstallInput) => Effect.Effect<GitInstallation, Denied | Errors.Conflict | Errors.InvalidInput, Actor.Actor>
  /** An installation of an organization the caller is a member of. */
  readonly get: (installationId: string) => Effect.Effect<GitInstallation, Errors.NotFound, Actor.Actor>
  /** Changes the token, repository, branch or settings; the repository must be one the token reaches. Org admins only. */
  readonly update: (installationId: string, input: UpdateInput) => Effect.Effect<GitInstallation, Denied | ForgeError | Errors.InvalidInput, Actor.Actor>
  /** Removes the installation and forgets its token. Org admins only. */
  readonly uninstall: (installationId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /** An organization's installations (members). */
  readonly listForOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<GitInstallation>, Errors.NotFound, Actor.Actor>
  /** The installations on a site of `organizationId` and its spaces (the caller checked the site is the organization's). */
  readonly listForSite: (organizationId: string, siteId: string) => Effect.Effect<ReadonlyArray<GitInstallation>, Errors.NotFound, Actor.Actor>
  /** The repositories the token reaches, for `provider`'s installations only. Editors and up. */
  readonly repositories: (installationId: string, provider: GitProvider) => Effect.Effect<ReadonlyArray<ForgeRepository>, Denied | ForgeError, Actor.Actor>
  /** A repository's branches (`owner/name` on GitHub, the project id on GitLab). Editors and up. */
  readonly branches: (installationId: string, provider: GitProvider, repository: string) => Effect.Effect<ReadonlyArray<ForgeBranch>, Denied | ForgeError, Actor.Actor>
  /** A file of a repository at a ref. Editors and up. */
  readonly file: (installationId: string, provider: GitProvider, repository: string, path: string, ref: string) => Effect.Effect<ForgeFile, Denied | ForgeError, Actor.Actor>
  /**
   * The URL a space connected through the installation clones, its token inside (kept sealed by the
   * connection), for a repository the token reaches. Admins of the space's organization.
   */
  readonly cloneUrl: (installationId: string, organizationId: string, repository: string) => Effect.Effect<string, Denied | ForgeError, Actor.Actor>
}

/** What a target is, whoever manages it: one installation per space or site. */
const targetKey = (target: InstallationTarget) =>
  target.type === "space" ? `space:${target.spaceId}` : target.type === "site" ? `site:${target.siteId}` : `organization:${target.organizationId}`

const notFound = (installationId: string) => new Errors.NotFound({ resource: "Git installation", id: installationId })

const requireRole = (role: Roles.MemberRole, required: Roles.MemberRole, what: string) =>
  Roles.atLeast(role, required) ? Effect.void : Effect.fail(new Errors.Forbidden({ reason: `Only an organization's ${required === "admin" ? "admins" : "editors"} may ${what}` }))

/** The HTTPS clone URL with the token as the forge expects it in basic auth. */
export const withToken = (provider: GitProvider, url: string, token: string) => {
  const parsed = new URL(url)
  parsed.username = provider === "github" ? "x-access-token" : "oauth2"
  parsed.password = token
  return parsed.href
}

export class GitInstallations extends Context.Service<GitInstallations, GitInstallationsShape>()("@quire/gitsync/GitInstallations") {
  static readonly layer = Layer.effect(
    GitInstallations,
    Effect.gen(function*() {
      const repo = yield* GitInstallationsRepo
      const access = yield* ContentAccess
      const box = yield* SecretBox
      const forge = yield* ForgeClient
      const ids = yield* Ids.Ids
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      /** The installation and the caller's role in its organization; NotFound to non-members. */
      const visible = Effect.fnUntraced(function*(installationId: string) {
        const found = yield* repo.find(installationId)
        if (Option.isNone(found)) return yield* notFound(installationId)
        const role = yield* access.organizationMember(found.value.organizationId).pipe(Effect.mapError(() => notFound(installationId)))
        return { installation: found.value, role }
      })

      /** The forge as the installation's token reaches it; Conflict when it has no token the server can open. */
      const forgeAccess = (i: GitInstallation): Effect.Effect<ForgeAccess, Errors.Conflict> =>
        Option.match(i.credentialSealed === "" ? Option.none() : box.open(i.credentialSealed), {
          onNone: () => Effect.fail(new Errors.Conflict({ reason: "The installation has no usable token; an admin must give one (providerConfiguration.accessToken)" })),
          onSome: (token) => Effect.succeed({ provider: i.provider, token, customInstanceURL: i.setup.customInstanceURL })
        })
      const forProvider = Effect.fnUntraced(function*(installationId: string, provider: GitProvider) {
        const { installation, role } = yield* visible(installationId)
        if (installation.provider !== provider) return yield* notFound(installationId)
        yield* requireRole(role, "edit", "browse the repositories of a Git installation")
        return yield* forgeAccess(installation)
      })

      const install = Effect.fn("GitInstallations.install")(function*(siteOrganization: string | undefined, input: InstallInput) {
        const actor = yield* Actor.Actor
        const target = input.target
        const organizationId = target.type === "organization" ? target.organizationId
          : target.type === "space" ? (yield* access.space(target.spaceId)).space.organizationId
          : siteOrganization ?? ""
        // A space managed by a site is the site's organization's.
        if (siteOrganization !== undefined && siteOrganization !== organizationId) return yield* new Errors.NotFound({ resource: "Site", id: target.type === "organization" ? "" : target.siteId ?? "" })
        const role = yield* access.organizationMember(organizationId)
        yield* requireRole(role, "admin", "install Git sync")
        if (target.type !== "organization") {
          const existing = yield* repo.listForOrganization(organizationId)
          const same = existing.find((i) => targetKey(i.target) === targetKey(target))
          if (same !== undefined) return yield* new Errors.Conflict({ reason: `The ${target.type} has a Git installation already (${same.id})` })
        }
        if (input.provider === "github" && input.customInstanceURL !== undefined) {
          return yield* new Errors.InvalidInput({ field: "providerConfiguration.customInstanceURL", reason: "only a GitLab installation has a custom instance" })
        }
        const at = yield* now
        const installation: GitInstallation = {
          id: yield* ids.make,
          organizationId,
          provider: input.provider,
          target,
          credentialSealed: input.accessToken === undefined ? "" : box.seal(input.accessToken),
          setup: input.customInstanceURL === undefined ? {} : { customInstanceURL: input.customInstanceURL },
          createdBy: actor.userId,
          createdAt: at,
          updatedAt: at
        }
        yield* repo.save(installation)
        return installation
      })

      const update = Effect.fn("GitInstallations.update")(function*(installationId: string, input: UpdateInput) {
        const { installation, role } = yield* visible(installationId)
        yield* requireRole(role, "admin", "change a Git installation")
        if (input.provider !== installation.provider) {
          return yield* new Errors.InvalidInput({ field: "provider", reason: `the installation is a ${installation.provider} one` })
        }
        if (input.provider === "github" && input.customInstanceURL != null) {
          return yield* new Errors.InvalidInput({ field: "providerConfiguration.customInstanceURL", reason: "only a GitLab installation has a custom instance" })
        }
        const { customInstanceURL: _dropped, ...kept } = installation.setup
        const customInstanceURL = input.customInstanceURL === null ? undefined : input.customInstanceURL ?? installation.setup.customInstanceURL
        const next: GitInstallation = {
          ...installation,
          credentialSealed: input.accessToken === undefined ? installation.credentialSealed : box.seal(input.accessToken),
          setup: {
            ...kept,
            ...(customInstanceURL === undefined ? {} : { customInstanceURL }),
            ...(input.branch === undefined ? {} : { branch: input.branch }),
            ...(input.projectDirectory === undefined ? {} : { projectDirectory: input.projectDirectory }),
            ...(input.commitMessageTemplate === undefined ? {} : { commitMessageTemplate: input.commitMessageTemplate }),
            ...(input.previewExternalBranches === undefined ? {} : { previewExternalBranches: input.previewExternalBranches }),
            ...(input.agentInstructions === undefined ? {} : { agentInstructions: [...input.agentInstructions] }),
            ...(input.priority === undefined ? {} : { priority: input.priority })
          },
          updatedAt: yield* now
        }
        if (input.repositoryId === undefined || input.repositoryId === installation.setup.repositoryId) {
          yield* repo.save(next)
          return next
        }
        // The repository must be one the (new) token reaches; its name is kept for showing.
        const reachable = yield* forge.repositories(yield* forgeAccess(next))
        const chosen = reachable.find((r) => r.id === input.repositoryId)
        if (chosen === undefined) {
          return yield* new Errors.InvalidInput({ field: "providerConfiguration.repositoryId", reason: `the installation's token reaches no repository ${input.repositoryId}` })
        }
        const withRepository: GitInstallation = {
          ...next,
          setup: { ...next.setup, repositoryId: chosen.id, repositoryName: chosen.fullName, ...(chosen.defaultBranch === null ? {} : { defaultBranch: chosen.defaultBranch }) }
        }
        yield* repo.save(withRepository)
        return withRepository
      })

      const uninstall = Effect.fn("GitInstallations.uninstall")(function*(installationId: string) {
        const { role } = yield* visible(installationId)
        yield* requireRole(role, "admin", "uninstall Git sync")
        yield* repo.remove(installationId)
      })

      const cloneUrl = Effect.fn("GitInstallations.cloneUrl")(function*(installationId: string, organizationId: string, repository: string) {
        const { installation } = yield* visible(installationId)
        if (installation.organizationId !== organizationId) return yield* notFound(installationId)
        const forgeAt = yield* forgeAccess(installation)
        const reachable = yield* forge.repositories(forgeAt)
        const chosen = reachable.find((r) => r.fullName === repository || String(r.id) === repository)
        if (chosen === undefined) return yield* new Errors.NotFound({ resource: "Repository", id: repository })
        return withToken(installation.provider, chosen.cloneUrl, forgeAt.token)
      })

      return GitInstallations.of({
        install,
        get: (installationId) => Effect.map(visible(installationId), (v) => v.installation),
        update,
        uninstall,
        listForOrganization: (organizationId) => Effect.andThen(access.organizationMember(organizationId), repo.listForOrganization(organizationId)),
        listForSite: (organizationId, siteId) =>
          Effect.andThen(access.organizationMember(organizationId), Effect.map(repo.listForSite(siteId), (all) => all.filter((i) => i.organizationId === organizationId))),
        repositories: (installationId, provider) => Effect.flatMap(forProvider(installationId, provider), forge.repositories),
        branches: (installationId, provider, repository) => Effect.flatMap(forProvider(installationId, provider), (a) => forge.branches(a, repository)),
        file: (installationId, provider, repository, path, ref) => Effect.flatMap(forProvider(installationId, provider), (a) => forge.file(a, repository, path, ref)),
        cloneUrl
      })
    })
  )
}
