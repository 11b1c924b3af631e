/**
 * Use cases of Git sync: a space's repository settings, imports and exports queued as jobs,
 * push webhooks, and what `git info` and a space's `gitSync` field show. See docs/gitsync.md.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { randomBytes } from "node:crypto"
import { Access, ContentAccess, type SpaceAccess } from "@quire/content"
import { Actor, Errors, Transactor } from "@quire/kernel"
import { JobQueue } from "@quire/queue"
import type {
  ConnectInput,
  ExportInput,
  GitSyncInfo,
  ImportInput,
  SpaceGitSync,
  SyncRun,
  WebhookOutcome,
  WebhookRequest,
  WebhookSecret
} from "./domain/GitSyncInfo.ts"
import { GitSyncRepo, type SyncRecord } from "./GitSyncRepo.ts"
import { isBranchRef } from "./GitTransport.ts"
import { normalizePath } from "./layout/Paths.ts"
import * as Redact from "./Redact.ts"
import { SecretBox } from "./SecretBox.ts"
import { type ExportJob, exportTask, type ImportJob, importTask } from "./SyncJobs.ts"
import * as Webhooks from "./Webhooks.ts"

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

/** Options of {@link GitSync.layerWith}. */
export interface GitSyncOptions {
  /** How long webhook imports and automatic exports wait, so that a burst makes one job (default 3 seconds). */
  readonly debounceMillis?: number
  /** How long a webhook delivery is remembered, so that its replay is ignored (default 30 days). */
  readonly deliveryWindowMillis?: number
}

/** `owner/name` of a repository URL (its path without `.git`). */
export const repoName = (url: string): string => {
  if (!URL.canParse(url)) return url
  return new URL(url).pathname.replace(/^\/+|\/+$/g, "").replace(/\.git$/, "")
}

/** `github`, `gitlab` or `git`, from the host of the URL. */
export const providerOf = (url: string): string => {
  if (!URL.canParse(url)) return "git"
  const host = new URL(url).hostname
  return host === "github.com" || host.endsWith(".github.com") ? "github" : host.includes("gitlab") ? "gitlab" : "git"
}

const notConfigured = (spaceId: string) => new Errors.NotFound({ resource: "Git repository of space", id: spaceId })

const checkUrl = (url: string): Effect.Effect<void, Errors.InvalidInput> =>
  URL.canParse(url) && ["http:", "https:", "file:"].includes(new URL(url).protocol)
    ? Effect.void
    : Effect.fail(new Errors.InvalidInput({ field: "url", reason: `${JSON.stringify(Redact.url(url))} is not an http(s) repository URL` }))

const checkRef = (ref: string): Effect.Effect<void, Errors.InvalidInput> =>
  isBranchRef(ref) ? Effect.void : Effect.fail(new Errors.InvalidInput({ field: "ref", reason: `${JSON.stringify(ref)} is not a branch (refs/heads/<name>)` }))

const projectDirectoryOf = (input: string | undefined): Effect.Effect<string, Errors.InvalidInput> => {
  const path = normalizePath(input ?? "")
  return (input ?? "").split(/[\\/]/).includes("..")
    ? Effect.fail(new Errors.InvalidInput({ field: "repoProjectDirectory", reason: "must stay inside the repository" }))
    : Effect.succeed(path)
}

/** What `git info` shows of a record. */
const infoOf = (record: SyncRecord): GitSyncInfo => ({
  repoName: repoName(record.url),
  installationProvider: providerOf(record.url),
  integration: "git",
  url: record.url,
  updatedAt: record.updatedAt,
  ref: record.ref,
  branch: record.ref.slice("refs/heads/".length),
  projectDirectory: record.projectDirectory,
  connected: record.connected,
  lastImport: record.lastImport,
  lastExport: record.lastExport
})

/** A record for a space that had none. */
const fresh = (spaceId: string, at: Date): SyncRecord => ({
  spaceId,
  url: "",
  urlSealed: "",
  ref: "refs/heads/main",
  projectDirectory: "",
  connected: false,
  actorId: null,
  webhookSecret: null,
  lastImport: null,
  lastExport: null,
  lastEventAt: null,
  exportedCommit: null,
  updatedAt: at
})

/** The key of the job a burst of webhooks or edits of a space collapses into. */
export const debounceKey = (task: string, spaceId: string) => `${task}:${spaceId}`

export class GitSync extends Context.Service<GitSync, GitSyncShape>()("@quire/gitsync/GitSync") {
  static readonly layerWith = (options: GitSyncOptions = {}) =>
    Layer.effect(
      GitSync,
      Effect.gen(function*() {
        const access = yield* ContentAccess
        const repo = yield* GitSyncRepo
        const box = yield* SecretBox
        const queue = yield* JobQueue
        const transactor = yield* Transactor.Transactor
        const debounce = options.debounceMillis ?? 3000
        const deliveryWindow = options.deliveryWindowMillis ?? 30 * 24 * 60 * 60 * 1000
        const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

        /** The space, for a caller who may trigger Git sync on it (`admin` or `triggerGitSync`). */
        const mayTrigger = Effect.fnUntraced(function*(spaceId: string) {
          const spaceAccess = yield* access.space(spaceId)
          yield* Access.ensure(spaceAccess.permissions.admin || spaceAccess.permissions.triggerGitSync, "sync this space with Git")
          return spaceAccess
        })

        /** The space, for a caller who may change its connection (URL, branch, credentials): admins only. */
        const mayConnect = Effect.fnUntraced(function*(spaceId: string) {
          const spaceAccess = yield* access.space(spaceId)
          yield* Access.ensure(spaceAccess.permissions.admin, "change this space's Git connection")
          return spaceAccess
        })

        /**
         * Records a request's pending run, in one transaction. An admin's request (or the first one of
         * a space) also records its repository, replacing the URL, ref and directory; another
         * caller's leaves the space's repository as it is (changing it is an admin's decision).
         */
        const recordRequest = (
          spaceId: string,
          settings: { readonly url: string; readonly urlSealed: string; readonly ref: string; readonly projectDirectory: string },
          kind: "import" | "export",
          at: Date,
          admin: boolean
        ) =>
          transactor.transaction(Effect.gen(function*() {
            const found = yield* repo.find(spaceId)
            const record = Option.getOrElse(found, () => fresh(spaceId, at))
            const pending: SyncRun = { status: "pending", commit: null, at, error: null }
            const keepsRepository = !admin && record.urlSealed !== ""
            yield* repo.save({
              ...record,
              ...(keepsRepository ? {} : settings),
              ...(kind === "import" ? { lastImport: pending } : { lastExport: pending }),
              updatedAt: at
            })
          }))

        /**
         * The repository of a request. The stored URL as shown (no credentials) names the stored one,
         * credentials included, but only for the stored branch: the stored credentials never serve
         * another ref (a request for one must bring its own), and `force` is an admin's.
         */
        const requestSettings = Effect.fnUntraced(function*(spaceId: string, input: ImportInput | ExportInput, admin: boolean) {
          yield* checkUrl(input.url)
          yield* checkRef(input.ref)
          const projectDirectory = yield* projectDirectoryOf(input.repoProjectDirectory)
          if (input.force === true && !admin) {
            return yield* new Errors.Forbidden({ reason: "force: only an admin of the space may force a Git sync" })
          }
          const url = Redact.withoutCredentials(input.url)
          const found = yield* repo.find(spaceId)
          const stored = Option.isSome(found) && found.value.url === url && url === input.url && found.value.urlSealed !== ""
            ? found.value
            : undefined
          if (stored === undefined) return { url, urlSealed: box.seal(input.url), ref: input.ref, projectDirectory }
          if (stored.ref === input.ref) return { url, urlSealed: stored.urlSealed, ref: input.ref, projectDirectory }
          const storedUrl = box.open(stored.urlSealed)
          if (Option.isSome(storedUrl) && storedUrl.value !== url) {
            return yield* new Errors.Forbidden({
              reason: `ref: the stored credentials of ${url} serve only its branch ${stored.ref}; give credentials in url to use ${input.ref}`
            })
          }
          return { url, urlSealed: box.seal(input.url), ref: input.ref, projectDirectory }
        })

        const importRepository = Effect.fn("GitSync.importRepository")(function*(spaceId: string, input: ImportInput) {
          const admin = (yield* mayTrigger(spaceId)).permissions.admin
          const actor = yield* Actor.Actor
          const settings = yield* requestSettings(spaceId, input, admin)
          const at = yield* now
          yield* recordRequest(spaceId, settings, "import", at, admin)
          const job: ImportJob = {
            spaceId,
            actorId: actor.userId,
            url: settings.urlSealed,
            ref: settings.ref,
            projectDirectory: settings.projectDirectory,
            standalone: input.standalone === true,
            force: input.force === true,
            timestamp: (input.timestamp ?? at).toISOString(),
            trigger: "api"
          }
          yield* queue.enqueue(importTask, job)
        })

        const exportRepository = Effect.fn("GitSync.exportRepository")(function*(spaceId: string, input: ExportInput) {
          const admin = (yield* mayTrigger(spaceId)).permissions.admin
          const actor = yield* Actor.Actor
          const settings = yield* requestSettings(spaceId, input, admin)
          const at = yield* now
          yield* recordRequest(spaceId, settings, "export", at, admin)
          const job: ExportJob = {
            spaceId,
            actorId: actor.userId,
            url: settings.urlSealed,
            ref: settings.ref,
            projectDirectory: settings.projectDirectory,
            commitMessage: input.commitMessage,
            force: input.force === true,
            timestamp: (input.timestamp ?? at).toISOString(),
            trigger: "api"
          }
          yield* queue.enqueue(exportTask, job)
        })

        const info = Effect.fn("GitSync.info")(function*(spaceId: string) {
          yield* access.space(spaceId)
          const record = yield* repo.find(spaceId)
          if (Option.isNone(record)) return yield* notConfigured(spaceId)
          return infoOf(record.value)
        })

        const removeLegacyInstallation = Effect.fn("GitSync.removeLegacyInstallation")(function*(spaceId: string) {
          const spaceAccess: SpaceAccess = yield* access.space(spaceId)
          yield* Access.ensure(spaceAccess.permissions.admin, "administer this space")
        })

        const connect = Effect.fn("GitSync.connect")(function*(spaceId: string, input: ConnectInput) {
          yield* mayConnect(spaceId)
          const actor = yield* Actor.Actor
          yield* checkUrl(input.url)
          yield* checkRef(input.ref)
          const projectDirectory = yield* projectDirectoryOf(input.projectDirectory)
          const at = yield* now
          return yield* transactor.transaction(Effect.gen(function*() {
            const record = Option.getOrElse(yield* repo.find(spaceId), () => fresh(spaceId, at))
            const url = Redact.withoutCredentials(input.url)
            const sameRepository = record.url === url && record.ref === input.ref
            const next: SyncRecord = {
              ...record,
              url,
              urlSealed: box.seal(input.url),
              ref: input.ref,
              projectDirectory,
              connected: true,
              actorId: actor.userId,
              // Another repository starts a new history.
              ...(sameRepository ? {} : { lastImport: null, lastExport: null, lastEventAt: null, exportedCommit: null }),
              updatedAt: at
            }
            yield* repo.save(next)
            return infoOf(next)
          }))
        })

        const disconnect = Effect.fn("GitSync.disconnect")(function*(spaceId: string) {
          yield* mayConnect(spaceId)
          yield* repo.remove(spaceId)
        })

        const webhookSecret = Effect.fn("GitSync.webhookSecret")(function*(spaceId: string) {
          const spaceAccess = yield* access.space(spaceId)
          yield* Access.ensure(spaceAccess.permissions.admin, "see this space's webhook secret")
          const path = `/v1/spaces/${spaceId}/git/webhook`
          return yield* transactor.transaction(Effect.gen(function*() {
            const record = yield* repo.find(spaceId)
            if (Option.isNone(record)) return yield* notConfigured(spaceId)
            const known = record.value.webhookSecret === null ? Option.none() : box.open(record.value.webhookSecret)
            if (Option.isSome(known)) return { secret: known.value, path }
            const secret = randomBytes(32).toString("base64url")
            yield* repo.save({ ...record.value, webhookSecret: box.seal(secret), updatedAt: yield* now })
            return { secret, path }
          }))
        })

        const refused = new Errors.Forbidden({ reason: "This webhook delivery is not signed with the space's Git webhook secret" })

        const receiveWebhook = Effect.fn("GitSync.receiveWebhook")(function*(spaceId: string, request: WebhookRequest) {
          const found = yield* repo.find(spaceId)
          if (Option.isNone(found) || !found.value.connected || found.value.webhookSecret === null || found.value.actorId === null) return yield* refused
          const record = found.value
          const secret = box.open(record.webhookSecret ?? "")
          if (Option.isNone(secret)) return yield* refused
          const event = Webhooks.read(secret.value, request)
          if ("refused" in event) {
            return yield* event.refused === "malformed" ? new Errors.InvalidInput({ field: "body", reason: event.reason }) : refused
          }
          const at = yield* now
          const first = yield* repo.recordDelivery(spaceId, event.deliveryKeys, at, new Date(at.getTime() - deliveryWindow))
          if (!first) return { queued: false, reason: "ignored: this delivery was already received" }
          if (event.kind === "other") return { queued: false, reason: `ignored: a ${event.event} event, not a push` }
          if (event.ref !== record.ref) return { queued: false, reason: `ignored: a push to ${event.ref}, not ${record.ref}` }
          if (event.commit === null) return { queued: false, reason: `ignored: ${event.ref} was deleted` }
          if (event.commit === record.exportedCommit) return { queued: false, reason: `ignored: ${event.commit} is Quire's own export` }
          const job: ImportJob = {
            spaceId,
            actorId: record.actorId ?? "",
            url: null,
            ref: record.ref,
            projectDirectory: record.projectDirectory,
            standalone: false,
            force: false,
            // When the push arrived, not the commit's date: an old commit pushed now is news.
            timestamp: at.toISOString(),
            trigger: "webhook",
            ...(event.message === undefined ? {} : { message: event.message })
          }
          yield* repo.updateRun(spaceId, { kind: "import", run: { status: "pending", commit: null, at, error: null } })
          yield* queue.enqueue(importTask, job, { jobKey: debounceKey(importTask, spaceId), runAt: new Date(at.getTime() + debounce) })
          return { queued: true, reason: `import of ${event.commit} queued` }
        })

        const gitSyncOf = Effect.fn("GitSync.gitSyncOf")(function*(spaceId: string) {
          const record = yield* repo.find(spaceId)
          if (Option.isNone(record)) return null
          const { url, updatedAt } = record.value
          return { repoName: repoName(url), installationProvider: providerOf(url), integration: "git", url, updatedAt }
        })

        return GitSync.of({
          importRepository,
          exportRepository,
          info,
          removeLegacyInstallation,
          connect,
          disconnect,
          webhookSecret,
          receiveWebhook,
          gitSyncOf
        })
      })
    )

  /** The use cases with the default debounce; need ContentAccess, GitSyncRepo, SecretBox, a JobQueue and a Transactor. */
  static readonly layer = GitSync.layerWith()
}
