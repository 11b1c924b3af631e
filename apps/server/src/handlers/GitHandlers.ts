/** Handlers of the Git sync groups: import, export, info, the connection, and the push webhook. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, ApiErrors, type ConnectGitRepository, type GitSyncRun, type GitSyncState } from "@quire/api"
import { ContentAccess } from "@quire/content"
import { Errors } from "@quire/kernel"
import { GitInstallations, GitSync, type GitSyncInfo, type SyncRun } from "@quire/gitsync"
import * as DomainErrors from "../DomainErrors.ts"
import { PublicUrl } from "../PublicUrl.ts"

/** GitBook's `gitInfo` is two optional fields; the domain keeps it only whole. */
const gitInfoOf = (gitInfo: { readonly provider?: string; readonly url?: string } | undefined) =>
  gitInfo?.provider === undefined || gitInfo.url === undefined ? {} : { gitInfo: { provider: gitInfo.provider, url: gitInfo.url } }

/** The fields import and export share, as the domain takes them (`timestamp` as a Date). */
const syncInput = (payload: {
  readonly url: string
  readonly ref: string
  readonly repoCacheID?: string
  readonly repoTreeURL?: string
  readonly repoCommitURL?: string
  readonly repoProjectDirectory?: string
  readonly timestamp?: string
  readonly force?: boolean
  readonly gitInfo?: { readonly provider?: string; readonly url?: string }
}) => ({
  url: payload.url,
  ref: payload.ref,
  repoCacheID: payload.repoCacheID,
  repoTreeURL: payload.repoTreeURL,
  repoCommitURL: payload.repoCommitURL,
  repoProjectDirectory: payload.repoProjectDirectory,
  timestamp: payload.timestamp === undefined ? undefined : new Date(payload.timestamp),
  force: payload.force,
  ...gitInfoOf(payload.gitInfo)
})

const run = (r: SyncRun | null): GitSyncRun | null =>
  r === null ? null : { status: r.status, commit: r.commit, at: r.at.toISOString(), error: r.error }

/** GitBook's latest operation: the later of the last import and the last export, in GitBook's states. */
const operation = (info: GitSyncInfo): Pick<GitSyncState, "operation"> => {
  const runs = [
    ...(info.lastImport === null ? [] : [{ direction: "import" as const, run: info.lastImport }]),
    ...(info.lastExport === null ? [] : [{ direction: "export" as const, run: info.lastExport }])
  ].toSorted((a, b) => b.run.at.getTime() - a.run.at.getTime())
  const latest = runs[0]
  if (latest === undefined) return {}
  const { run: r } = latest
  const ended = r.status === "succeeded" || r.status === "failed" || r.status === "skipped"
  return {
    operation: {
      state: r.status === "failed" ? "failure" : ended ? "success" : "running",
      direction: latest.direction,
      startedAt: r.at.toISOString(),
      ...(ended ? { endedAt: r.at.toISOString() } : {}),
      ...(r.error === null || r.status !== "failed" ? {} : { error: r.error })
    }
  }
}

/** The domain's Git info as GitBook's `GitSyncState` with Quire's fields. */
export const present = (spaceId: string, info: GitSyncInfo): GitSyncState => ({
  repoName: info.repoName,
  installationProvider: info.installationProvider,
  integration: info.integration,
  url: info.url,
  updatedAt: info.updatedAt.toISOString(),
  installationId: spaceId,
  installationStatus: "active",
  ...operation(info),
  ref: info.ref,
  branch: info.branch,
  projectDirectory: info.projectDirectory,
  connected: info.connected,
  credentials: info.credentials,
  lastImport: run(info.lastImport),
  lastExport: run(info.lastExport)
})

export const layer = HttpApiBuilder.group(Api, "git", Effect.fn(function*(handlers) {
  const git = yield* GitSync
  const installations = yield* GitInstallations
  const access = yield* ContentAccess
  const urls = yield* PublicUrl

  /** The URL a connection stores: the one given, or the repository's through an installation of the space's organization, its token inside. */
  const connectUrl = Effect.fnUntraced(function*(spaceId: string, payload: ConnectGitRepository) {
    if (payload.installationId === undefined) {
      if (payload.url === undefined) return yield* new Errors.InvalidInput({ field: "url", reason: "is required (or installationId and repository)" })
      return payload.url
    }
    if (payload.url !== undefined) return yield* new Errors.InvalidInput({ field: "url", reason: "give either url or installationId, not both" })
    if (payload.repository === undefined) return yield* new Errors.InvalidInput({ field: "repository", reason: "is required with installationId" })
    const { space, permissions } = yield* access.space(spaceId)
    // Refused before the forge is asked, as the connection itself would be.
    if (!permissions.admin) return yield* new Errors.Forbidden({ reason: "Only the space's admins may change its Git connection" })
    return yield* installations.cloneUrl(payload.installationId, space.organizationId, payload.repository)
  })

  return handlers
    .handle("importGitRepository", ({ params, payload }) =>
      git.importRepository(params.spaceId, { ...syncInput(payload), standalone: payload.standalone }).pipe(DomainErrors.api))
    .handle("exportToGitRepository", ({ params, payload }) =>
      git.exportRepository(params.spaceId, { ...syncInput(payload), commitMessage: payload.commitMessage }).pipe(DomainErrors.api))
    .handle("getSpaceGitInfo", ({ params }) =>
      git.info(params.spaceId).pipe(DomainErrors.api, Effect.map((info) => present(params.spaceId, info))))
    .handle("deleteSpaceGitLegacyInstallation", ({ params }) =>
      git.removeLegacyInstallation(params.spaceId).pipe(DomainErrors.api))
    .handle("connectSpaceGitRepository", ({ params, payload }) =>
      Effect.gen(function*() {
        const url = yield* connectUrl(params.spaceId, payload)
        return yield* git.connect(params.spaceId, {
          url,
          ref: payload.ref,
          projectDirectory: payload.repoProjectDirectory,
          keepCredentials: payload.keepCredentials
        })
      }).pipe(DomainErrors.api, Effect.map((info) => present(params.spaceId, info))))
    .handle("disconnectSpaceGitRepository", ({ params }) => git.disconnect(params.spaceId).pipe(DomainErrors.api))
    .handle("getSpaceGitWebhook", ({ params }) =>
      git.webhookSecret(params.spaceId).pipe(
        DomainErrors.api,
        Effect.map((webhook) => ({ url: urls.app(webhook.path), secret: webhook.secret }))
      ))
}))

/** The push webhook: the raw body (signatures cover its exact bytes) and the headers go to the domain. */
export const webhookLayer = HttpApiBuilder.group(Api, "gitWebhook", Effect.fn(function*(handlers) {
  const git = yield* GitSync
  return handlers.handleRaw("receiveSpaceGitWebhook", ({ params, request }) =>
    request.arrayBuffer.pipe(
      Effect.catch(() => Effect.fail(ApiErrors.BadRequest.of("The webhook's body could not be read"))),
      Effect.flatMap((body) =>
        git.receiveWebhook(params.spaceId, { headers: request.headers, body: new Uint8Array(body) }).pipe(DomainErrors.api)),
      Effect.asVoid
    ))
}))
