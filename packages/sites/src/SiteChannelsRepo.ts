/** Port: a site's channels (GitBook's `SiteChannel`), with its in-memory layer. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { SiteChannel } from "./domain/StructureExtras.ts"

export type SiteChannelPatch = Partial<Pick<SiteChannel, "type" | "setupSettings" | "role" | "updatedAt">>

export interface SiteChannelsRepoShape {
  /** The site's channels, oldest first. */
  readonly list: (siteId: string) => Effect.Effect<ReadonlyArray<SiteChannel>>
  readonly find: (siteId: string, channelId: string) => Effect.Effect<Option.Option<SiteChannel>>
  readonly insert: (channel: SiteChannel) => Effect.Effect<void>
  readonly update: (siteId: string, channelId: string, patch: SiteChannelPatch) => Effect.Effect<Option.Option<SiteChannel>>
  /** Whether there was one to remove. */
  readonly remove: (siteId: string, channelId: string) => Effect.Effect<boolean>
  readonly removeSite: (siteId: string) => Effect.Effect<void>
}

const byAge = (a: SiteChannel, b: SiteChannel) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export class SiteChannelsRepo extends Context.Service<SiteChannelsRepo, SiteChannelsRepoShape>()("@quire/sites/SiteChannelsRepo") {
  static readonly layerMemory = Layer.sync(SiteChannelsRepo, () => {
    const channels = new MemoryStore.TxMap<string, SiteChannel>()
    const of = (siteId: string, id: string) => Option.filter(Option.fromNullishOr(channels.get(id)), (c) => c.siteId === siteId)
    return SiteChannelsRepo.of({
      list: (siteId) => Effect.sync(() => Array.from(channels.values()).filter((c) => c.siteId === siteId).toSorted(byAge)),
      find: (siteId, id) => Effect.sync(() => of(siteId, id)),
      insert: (channel) => Effect.sync(() => void channels.set(channel.id, channel)),
      update: (siteId, id, patch) =>
        Effect.sync(() =>
          Option.map(of(siteId, id), (found) => {
            const next = { ...found, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) }
            channels.set(id, next)
            return next
          })
        ),
      remove: (siteId, id) => Effect.sync(() => Option.isSome(of(siteId, id)) && channels.delete(id)),
      removeSite: (siteId) =>
        Effect.sync(() => {
          for (const c of Array.from(channels.values())) if (c.siteId === siteId) channels.delete(c.id)
        })
    })
  })
}
