/**
 * A space's connection to its repository: connecting and disconnecting, its webhook secret, and
 * what `git info` and a space's `gitSync` field show.
 */
import { caller as auditCaller } from "@quire/audit"
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { Access, type SpaceAccess } from "@quire/content"
import { Actor, Errors, Redact } from "@quire/kernel"
import type { ConnectInput } from "../domain/GitSyncInfo.ts"
import type { SyncRecord } from "../GitSyncRepo.ts"
import type { SyncDeps } from "./SyncDeps.ts"
import { checkRef, checkUrl, fresh, infoOf, installationProviderOf, notConfigured, projectDirectoryOf, providerOf, repoName } from "./SyncRecords.ts"

export const connection = (deps: SyncDeps) => {
  const { access, repo, box, transactor, audit, now } = deps

  /** The space, for a caller who may change its connection (URL, branch, credentials): admins only. */
  const mayConnect = Effect.fnUntraced(function*(spaceId: string) {
    const spaceAccess = yield* access.space(spaceId)
    yield* Access.ensure(spaceAccess.permissions.admin, "change this space's Git connection")
    return spaceAccess
  })

  /** The URL as given (credentials included) of a record; none when it cannot be opened. */
  const storedUrl = (record: SyncRecord) => record.urlSealed === "" ? Option.none<string>() : box.open(record.urlSealed)

  /** What `git info` shows of a record, with whether its stored URL carries credentials. */
  const present = (record: SyncRecord) =>
    infoOf(record, Option.match(storedUrl(record), { onNone: () => false, onSome: (url) => url !== record.url }))

  const info = Effect.fn("GitSync.info")(function*(spaceId: string) {
    yield* access.space(spaceId)
    const record = yield* repo.find(spaceId)
    if (Option.isNone(record)) return yield* notConfigured(spaceId)
    return present(record.value)
  })

  const removeLegacyInstallation = Effect.fn("GitSync.removeLegacyInstallation")(function*(spaceId: string) {
    const spaceAccess: SpaceAccess = yield* access.space(spaceId)
    yield* Access.ensure(spaceAccess.permissions.admin, "administer this space")
  })

  const connect = Effect.fn("GitSync.connect")(function*(spaceId: string, input: ConnectInput) {
    const { space } = yield* mayConnect(spaceId)
    const actor = yield* Actor.Actor
    yield* checkUrl(input.url)
    yield* checkRef(input.ref)
    const projectDirectory = yield* projectDirectoryOf(input.projectDirectory)
    const at = yield* now
    return yield* transactor.transaction(Effect.gen(function*() {
      const record = Option.getOrElse(yield* repo.find(spaceId), () => fresh(spaceId, at))
      const url = Redact.withoutCredentials(input.url)
      const sameRepository = record.url === url && record.ref === input.ref
      // Credentials given replace the stored ones; without any, `keepCredentials` keeps those of this same repository.
      const kept = input.keepCredentials === true && url === input.url ? storedUrl(record) : Option.none<string>()
      if (input.keepCredentials === true && url === input.url && (record.url !== url || Option.isNone(kept))) {
        return yield* new Errors.InvalidInput({
          field: "keepCredentials",
          reason: record.url === url
            ? "the stored credentials cannot be read (the server's secret changed); give them again in url"
            : record.url === ""
            ? "the space has no stored credentials to keep; give them in url"
            : `the stored credentials are for ${record.url}, not ${url}; give this repository's in url`
        })
      }
      const next: SyncRecord = {
        ...record,
        url,
        urlSealed: Option.isSome(kept) ? record.urlSealed : box.seal(input.url),
        ref: input.ref,
        projectDirectory,
        connected: true,
        actorId: actor.userId,
        // Another repository starts a new history.
        ...(sameRepository ? {} : { lastImport: null, lastExport: null, lastEventAt: null, exportedCommit: null }),
        updatedAt: at
      }
      yield* repo.save(next)
      const credentialsChanged = next.urlSealed !== record.urlSealed && input.url !== url
      const settingsChanged = record.url !== url || record.ref !== input.ref || record.projectDirectory !== projectDirectory
      const action = !record.connected || record.url === "" ? "gitsync.connected" as const
        : settingsChanged ? "gitsync.changed" as const
        : credentialsChanged ? "gitsync.credentials-changed" as const
        : undefined
      if (action !== undefined) {
        yield* audit.record({
          organizationId: space.organizationId,
          action,
          actor: yield* auditCaller,
          target: { type: "space", id: spaceId, label: space.title },
          payload: { url, ref: input.ref, projectDirectory, credentials: url !== input.url, credentialsChanged }
        })
      }
      return present(next)
    }))
  })

  const disconnect = Effect.fn("GitSync.disconnect")(function*(spaceId: string) {
    const { space } = yield* mayConnect(spaceId)
    yield* transactor.transaction(Effect.gen(function*() {
      const record = yield* repo.find(spaceId)
      yield* repo.remove(spaceId)
      if (Option.isSome(record)) {
        yield* audit.record({
          organizationId: space.organizationId,
          action: "gitsync.disconnected",
          actor: yield* auditCaller,
          target: { type: "space", id: spaceId, label: space.title },
          payload: { url: record.value.url }
        })
      }
    }))
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

  const gitSyncOf = Effect.fn("GitSync.gitSyncOf")(function*(spaceId: string) {
    const record = yield* repo.find(spaceId)
    if (Option.isNone(record)) return null
    const { url, updatedAt } = record.value
    return { repoName: repoName(url), installationProvider: installationProviderOf(url), integration: providerOf(url), installationId: spaceId, installationStatus: "active" as const, url, updatedAt }
  })

  return { info, removeLegacyInstallation, connect, disconnect, webhookSecret, gitSyncOf }
}
