/**
 * Use cases of Git sync: a space's repository settings, imports and exports queued as jobs,
 * push webhooks, and what `git info` and a space's `gitSync` field show. See docs/gitsync.md.
 */
import { Context, Effect, Layer } from "effect"
import type { Actor, Errors } from "@quire/kernel"
import type {
  ConnectInput,
  ExportInput,
  GitSyncInfo,
  ImportInput,
  SpaceGitSync,
  WebhookOutcome,
  WebhookRequest,
  WebhookSecret
} from "./domain/GitSyncInfo.ts"
import { connection } from "./sync/Connection.ts"
import * as SyncDeps from "./sync/SyncDeps.ts"
import type { GitSyncOptions } from "./sync/SyncDeps.ts"
import { syncRequests } from "./sync/SyncRequests.ts"
import { webhookReceiver } from "./sync/WebhookReceiver.ts"

export { debounceKey, providerOf, repoName } from "./sync/SyncRecords.ts"
export type { GitSyncOptions } from "./sync/SyncDeps.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface GitSyncShape {
  /**
   * Queues an import of `input.ref` into the space (`gitsync.import`) and answers once it is
   * queued. Needs `admin` or `triggerGitSync` on the space; `force` needs `admin`. The URL
   * (credentials included) is kept encrypted for the job and shown without credentials; the stored
   * URL's credentials serve only the stored branch (Forbidden naming `ref` otherwise).
   */
  readonly importRepository: (spaceId: string, input: ImportInput) => Effect.Effect<void, Denied | Errors.InvalidInput, Actor.Actor>
  /** Queues an export of the space's main content as one commit on `input.ref` (`gitsync.export`). Same permissions. */
  readonly exportRepository: (spaceId: string, input: ExportInput) => Effect.Effect<void, Denied | Errors.InvalidInput, Actor.Actor>
  /** The repository settings and the last import and export; NotFound when the space has none. Needs `view`. */
  readonly info: (spaceId: string) => Effect.Effect<GitSyncInfo, Errors.NotFound, Actor.Actor>
  /** GitBook's legacy installation: Quire has none, so this only checks the space and the caller (`admin`). */
  readonly removeLegacyInstallation: (spaceId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /**
   * Connects the space to a repository: from now on edits of main are exported and push webhooks
   * imported. Replaces an earlier connection. Needs `admin`.
   */
  readonly connect: (spaceId: string, input: ConnectInput) => Effect.Effect<GitSyncInfo, Denied | Errors.InvalidInput, Actor.Actor>
  /** Forgets the space's repository, its secret and its history; nothing when there is none. Needs `admin`. */
  readonly disconnect: (spaceId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /** The secret push webhooks must be signed with (made on first use). Admins only; NotFound when the space has no repository. */
  readonly webhookSecret: (spaceId: string) => Effect.Effect<WebhookSecret, Denied, Actor.Actor>
  /**
   * A push webhook (GitHub's `X-Hub-Signature-256` or GitLab's `X-Gitlab-Token`; no Actor: the
   * signature is the authority). A push to the configured branch queues an import; other events,
   * other branches, the push of our own last export and a delivery received before (same delivery
   * id or same body, within 30 days) are ignored. Forbidden when the signature
   * does not verify or the space has no connected repository (unknown spaces alike).
   */
  readonly receiveWebhook: (spaceId: string, request: WebhookRequest) => Effect.Effect<WebhookOutcome, Errors.Forbidden | Errors.InvalidInput>
  /** A space's `gitSync` field, null when it has no repository (no access check: for presenting a space the caller read). */
  readonly gitSyncOf: (spaceId: string) => Effect.Effect<SpaceGitSync | null>
}

export class GitSync extends Context.Service<GitSync, GitSyncShape>()("@quire/gitsync/GitSync") {
  static readonly layerWith = (options: GitSyncOptions = {}) =>
    Layer.effect(
      GitSync,
      Effect.gen(function*() {
        const deps = yield* SyncDeps.make(options)
        return GitSync.of({ ...syncRequests(deps), ...connection(deps), ...webhookReceiver(deps) })
      })
    )

  /** The use cases with the default debounce; need ContentAccess, GitSyncRepo, SecretBox, a JobQueue and a Transactor. */
  static readonly layer = GitSync.layerWith()
}
