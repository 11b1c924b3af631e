/** Port: SAML providers, scoped to their organization. */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { SamlProvider, SamlProviderPatch } from "./domain/Saml.ts"

export interface SamlProvidersRepoShape {
  readonly insert: (provider: SamlProvider) => Effect.Effect<void>
  readonly find: (organizationId: string, providerId: string) => Effect.Effect<Option.Option<SamlProvider>>
  readonly list: (
    organizationId: string,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<SamlProvider>>
  readonly update: (organizationId: string, providerId: string, patch: SamlProviderPatch) => Effect.Effect<Option.Option<SamlProvider>>
  readonly remove: (organizationId: string, providerId: string) => Effect.Effect<void>
}

export const samlProviderKey = (p: SamlProvider): Pagination.CursorKey => [p.createdAt.toISOString(), p.id]
export const samlProviderKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export class SamlProvidersRepo extends Context.Service<SamlProvidersRepo, SamlProvidersRepoShape>()(
  "@quire/identity/SamlProvidersRepo"
) {
  static readonly layerMemory = Layer.sync(SamlProvidersRepo, () => {
    const providers = new MemoryStore.TxMap<string, SamlProvider>()
    const scoped = (organizationId: string, providerId: string) => {
      const provider = providers.get(providerId)
      return provider?.organizationId === organizationId ? provider : undefined
    }
    return SamlProvidersRepo.of({
      insert: (provider) => Effect.sync(() => void providers.set(provider.id, provider)),
      find: (organizationId, providerId) => Effect.sync(() => Option.fromNullishOr(scoped(organizationId, providerId))),
      list: (organizationId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(providers.values()).filter((p) => p.organizationId === organizationId),
            samlProviderKey,
            { order: "asc", after, limit }
          )
        ),
      update: (organizationId, providerId, patch) =>
        Effect.sync(() => {
          const provider = scoped(organizationId, providerId)
          if (provider === undefined) return Option.none()
          const next = { ...provider, ...patch }
          providers.set(providerId, next)
          return Option.some(next)
        }),
      remove: (organizationId, providerId) =>
        Effect.sync(() => {
          if (scoped(organizationId, providerId) !== undefined) providers.delete(providerId)
        })
    })
  })
}
