/**
 * Use cases on a site's channels (GitBook's `SiteChannel`): the places outside the site (a Slack
 * or Discord channel, Linear teams, GitHub repositories) where the site's assistant is to answer,
 * each with the names it is allowed in and the role it answers as.
 */
import { Clock, Effect, Option } from "effect"
import { Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { SiteChanges } from "./SiteChanges.ts"
import { SiteChannelsRepo } from "./SiteChannelsRepo.ts"
import * as SiteGuard from "./SiteGuard.ts"
import { channelRoles, channelSettingKey, channelTypes, type SiteChannel, type SiteChannelRole, type SiteChannelType } from "./domain/StructureExtras.ts"

export interface SiteChannelInput {
  readonly type?: string | undefined
  readonly setupSettings?: Readonly<Record<string, unknown>> | undefined
  readonly role?: string | undefined
}

const genericPattern = /^[a-zA-Z0-9_*-]+$/
const githubPattern = /^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/

/** The type and settings of an input, checked as GitBook's `SiteChannelSetup` defines them. */
const checkSetup = (type: string, settings: Readonly<Record<string, unknown>> | undefined): Effect.Effect<{ type: SiteChannelType; setupSettings: Record<string, ReadonlyArray<string>> }, Errors.InvalidInput> =>
  Effect.suspend(() => {
    if (!(channelTypes as ReadonlyArray<string>).includes(type)) {
      return Effect.fail(new Errors.InvalidInput({ field: "type", reason: `must be one of ${channelTypes.join(", ")}` }))
    }
    const channelType = type as SiteChannelType
    if (settings === undefined) return Effect.fail(new Errors.InvalidInput({ field: "setupSettings", reason: "is required with type" }))
    const key = channelSettingKey[channelType]
    const extra = Object.keys(settings).find((k) => k !== key)
    if (extra !== undefined) return Effect.fail(new Errors.InvalidInput({ field: `setupSettings.${extra}`, reason: `is not a setting of a ${type} channel (only ${key})` }))
    const names = settings[key] ?? []
    if (!Array.isArray(names) || names.length > 100) return Effect.fail(new Errors.InvalidInput({ field: `setupSettings.${key}`, reason: "must be a list of at most 100 names" }))
    const pattern = channelType === "builtin:github" ? githubPattern : genericPattern
    const bad = names.findIndex((n) => typeof n !== "string" || n.length > 256 || !pattern.test(n))
    if (bad >= 0) {
      return Effect.fail(new Errors.InvalidInput({
        field: `setupSettings.${key}[${bad}]`,
        reason: channelType === "builtin:github" ? "must be owner/repository (letters, digits, . _ - or *)" : "must be letters, digits, _ - or *"
      }))
    }
    return Effect.succeed({ type: channelType, setupSettings: { [key]: names as ReadonlyArray<string> } })
  })

const checkRole = (role: string | undefined): Effect.Effect<SiteChannelRole | undefined, Errors.InvalidInput> =>
  role === undefined || (channelRoles as ReadonlyArray<string>).includes(role)
    ? Effect.succeed(role as SiteChannelRole | undefined)
    : Effect.fail(new Errors.InvalidInput({ field: "role", reason: `must be one of ${channelRoles.join(", ")}` }))

const listShape: Pagination.KeyShape = ["string", "string"]

export const make = Effect.gen(function*() {
  const guard = yield* SiteGuard.make
  const repo = yield* SiteChannelsRepo
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const changed = (yield* SiteChanges).after
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  const listChannels = Effect.fn("SiteChannels.list")(function*(organizationId: string, siteId: string, page: Pagination.PageRequest) {
    yield* guard.site(organizationId, siteId)
    const after = yield* Pagination.afterOf(page, listShape)
    const all = yield* repo.list(siteId)
    return yield* Pagination.paginateArray(all, (c) => [c.createdAt.toISOString(), c.id] as const, { order: "asc", after, limit: Pagination.limitOf(page) })
  })

  const getChannel = Effect.fn("SiteChannels.get")(function*(organizationId: string, siteId: string, channelId: string) {
    yield* guard.site(organizationId, siteId)
    const found = yield* repo.find(siteId, channelId)
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "SiteChannel", id: channelId })
    return found.value
  })

  const createChannel = Effect.fn("SiteChannels.create")(function*(organizationId: string, siteId: string, input: SiteChannelInput) {
    yield* guard.editor(organizationId, siteId, "add channels to this site")
    if (input.type === undefined) return yield* new Errors.InvalidInput({ field: "type", reason: "is required" })
    const setup = yield* checkSetup(input.type, input.setupSettings)
    const role = (yield* checkRole(input.role)) ?? "support"
    const at = yield* now
    const channel: SiteChannel = { id: yield* ids.make, siteId, ...setup, role, createdAt: at, updatedAt: at }
    yield* repo.insert(channel)
    return channel
  }, transactor.transaction, changed)

  const updateChannel = Effect.fn("SiteChannels.update")(function*(organizationId: string, siteId: string, channelId: string, input: SiteChannelInput) {
    yield* guard.editor(organizationId, siteId, "change this site's channels")
    const found = yield* repo.find(siteId, channelId)
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "SiteChannel", id: channelId })
    const setup = input.type === undefined && input.setupSettings === undefined
      ? {}
      : yield* checkSetup(input.type ?? found.value.type, input.setupSettings)
    const role = yield* checkRole(input.role)
    const updated = yield* repo.update(siteId, channelId, { ...setup, ...(role === undefined ? {} : { role }), updatedAt: yield* now })
    return Option.getOrThrow(updated)
  }, transactor.transaction, changed)

  /** Whether the channel was there. */
  const deleteChannel = Effect.fn("SiteChannels.delete")(function*(organizationId: string, siteId: string, channelId: string) {
    yield* guard.editor(organizationId, siteId, "change this site's channels")
    return yield* repo.remove(siteId, channelId)
  }, transactor.transaction, changed)

  return { listChannels, getChannel, createChannel, updateChannel, deleteChannel }
})
