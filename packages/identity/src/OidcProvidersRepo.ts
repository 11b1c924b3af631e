/**
 * Port: OpenID Connect providers, scoped to their organization, and the sign-ins begun at them
 * (state, PKCE verifier, nonce), each taken once by its callback, on any replica.
 */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, type Pagination } from "@quire/kernel"
import type { OidcProvider, OidcProviderPatch, OidcRequest } from "./domain/Oidc.ts"
import { memoryProviders, type ProviderStore, providerKey, providerKeyShape } from "./ProviderTables.ts"

export interface OidcProvidersRepoShape extends ProviderStore<OidcProvider, OidcProviderPatch> {
  /** Remembers a sign-in begun, forgetting those expired at `now`. */
  readonly saveRequest: (request: OidcRequest, now: Date) => Effect.Effect<void>
  /** The unexpired sign-in with this state, removed so that it is answered once. */
  readonly takeRequest: (state: string, now: Date) => Effect.Effect<Option.Option<OidcRequest>>
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
      for (const [state, request] of requests) if (request.providerId === providerId) requests.delete(state)
    })
    return OidcProvidersRepo.of({
      ...providers,
      saveRequest: (request, now) =>
        Effect.sync(() => {
          for (const [state, old] of requests) if (old.expiresAt <= now) requests.delete(state)
          requests.set(request.state, request)
        }),
      takeRequest: (state, now) =>
        Effect.sync(() => {
          const found = requests.get(state)
          if (found === undefined) return Option.none()
          requests.delete(state)
          return found.expiresAt > now ? Option.some(found) : Option.none()
        })
    })
  })
}
