/**
 * A space's connection to its repository: connecting and disconnecting, its webhook secret, and
 * what `git info` and a space's `gitSync` field show.
 */
import { Effect, Option } from "effect"
import { randomBytes } from "node:crypto"
import { Access, type SpaceAccess } from "@quire/content"
import { Actor } from "@quire/kernel"
import type { ConnectInput } from "../domain/GitSyncInfo.ts"
import type { SyncRecord } from "../GitSyncRepo.ts"
import * as Redact from "../Redact.ts"
import type { SyncDeps } from "./SyncDeps.ts"
import { checkRef, checkUrl, fresh, infoOf, notConfigured, projectDirectoryOf, providerOf, repoName } from "./SyncRecords.ts"

export const connection = (deps: SyncDeps) => {
  const { access, repo, box, transactor, now } = deps

  /** The space, for a caller who may change its connection (URL, branch, credentials): admins only. */
  const mayConnect = Effect.fnUntraced(function*(spaceId: string) {
    const spaceAccess = yield* access.space(spaceId)
    yield* Access.ensure(spaceAccess.permissions.admin, "change this space's Git connection")
    return spaceAccess
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

  const gitSyncOf = Effect.fn("GitSync.gitSyncOf")(function*(spaceId: string) {
    const record = yield* repo.find(spaceId)
    if (Option.isNone(record)) return null
    const { url, updatedAt } = record.value
    return { repoName: repoName(url), installationProvider: providerOf(url), integration: "git", url, updatedAt }
  })

  return { info, removeLegacyInstallation, connect, disconnect, webhookSecret, gitSyncOf }
}
