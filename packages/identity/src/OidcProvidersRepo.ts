/**
 * Port: OpenID Connect providers, scoped to their organization, and the sign-ins begun at them
 * (by the hash of their state), each taken once by its callback, on any replica.
 */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, type Pagination } from "@quire/kernel"
import type { OidcProvider, OidcProviderPatch, OidcRequest } from "./domain/Oidc.ts"
import { memoryProviders, type ProviderStore, providerKey, providerKeyShape } from "./ProviderTables.ts"

export interface OidcProvidersRepoShape extends ProviderStore<OidcProvider, OidcProviderPatch> {
  /** Remembers a sign-in begun, forgetting those expired at `now`. */
  readonly saveRequest: (request: OidcRequest, now: Date) => Effect.Effect<void>
  /** The unexpired sign-in whose state has this hash, removed so that it is answered once. */
  readonly takeRequest: (stateHash: string, now: Date) => Effect.Effect<Option.Option<OidcRequest>>
}

export const oidcProviderKey: (p: OidcProvider) => Pagination.CursorKey = providerKey
export const oidcProviderKeyShape: Pagination.KeyShape = providerKeyShape

export class OidcProvidersRepo extends Context.Service<OidcProvidersRepo, OidcProvidersRepoShape>()(
  "@quire/identity/OidcProvidersRepo"
) {
  static readonly layerMemory = Layer.sync(OidcProvidersRepo, () => {
    const requests = new MemoryStore.TxMap<string, OidcRequest>()
    // A removed provider's sign-ins in flight go with it.
    const providers = memoryProviders<OidcProvider, OidcProviderPatch>((providerId) => {
      for (const [key, request] of requests) if (request.providerId === providerId) requests.delete(key)
    })
    return OidcProvidersRepo.of({
      ...providers,
      saveRequest: (request, now) =>
        Effect.sync(() => {
          for (const [key, old] of requests) if (old.expiresAt <= now) requests.delete(key)
          requests.set(request.stateHash, request)
        }),
      takeRequest: (stateHash, now) =>
        Effect.sync(() => {
          const found = requests.get(stateHash)
          if (found === undefined) return Option.none()
          requests.delete(stateHash)
          return found.expiresAt > now ? Option.some(found) : Option.none()
        })
    })
  })
}
