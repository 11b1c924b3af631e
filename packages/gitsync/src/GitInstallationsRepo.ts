/** Port: the organizations' Git installations (their sealed credentials included). */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { GitInstallation } from "./domain/GitInstallation.ts"

export interface GitInstallationsRepoShape {
  readonly find: (installationId: string) => Effect.Effect<Option.Option<GitInstallation>>
  /** An organization's installations, oldest first. */
  readonly listForOrganization: (organizationId: string) => Effect.Effect<ReadonlyArray<GitInstallation>>
  /** The installations on a site or on spaces managed by it, oldest first. */
  readonly listForSite: (siteId: string) => Effect.Effect<ReadonlyArray<GitInstallation>>
  readonly save: (installation: GitInstallation) => Effect.Effect<void>
  readonly remove: (installationId: string) => Effect.Effect<void>
}

const oldestFirst = (a: GitInstallation, b: GitInstallation) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)

/** Whether an installation is on the site or on one of the spaces it manages. */
export const onSite = (installation: GitInstallation, siteId: string) =>
  installation.target.type === "site" ? installation.target.siteId === siteId
    : installation.target.type === "space" && installation.target.siteId === siteId

export class GitInstallationsRepo extends Context.Service<GitInstallationsRepo, GitInstallationsRepoShape>()("@quire/gitsync/GitInstallationsRepo") {
  static readonly layerMemory = Layer.sync(GitInstallationsRepo, () => {
    const rows = new MemoryStore.TxMap<string, GitInstallation>()
    const all = (keep: (i: GitInstallation) => boolean) => Effect.sync(() => [...rows.values()].filter(keep).toSorted(oldestFirst))
    return GitInstallationsRepo.of({
      find: (installationId) => Effect.sync(() => Option.fromNullishOr(rows.get(installationId))),
      listForOrganization: (organizationId) => all((i) => i.organizationId === organizationId),
      listForSite: (siteId) => all((i) => onSite(i, siteId)),
      save: (installation) => Effect.sync(() => void rows.set(installation.id, installation)),
      remove: (installationId) => Effect.sync(() => void rows.delete(installationId))
    })
  })
}
