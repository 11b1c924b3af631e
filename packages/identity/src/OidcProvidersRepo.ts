/**
 * Port: OpenID Connect providers, scoped to their organization, and the sign-ins begun at them
 * (state, PKCE verifier, nonce), each taken once by its callback, on any replica.
 */
import { Context, Effect, Layer, Option } from "effect"
import { MemoryStore, Pagination } from "@quire/kernel"
import type { OidcProvider, OidcProviderPatch, OidcRequest } from "./domain/Oidc.ts"

export interface OidcProvidersRepoShape {
  readonly insert: (provider: OidcProvider) => Effect.Effect<void>
  readonly find: (organizationId: string, providerId: string) => Effect.Effect<Option.Option<OidcProvider>>
  readonly list: (
    organizationId: string,
    after: Pagination.CursorKey | undefined,
    limit: number
  ) => Effect.Effect<Pagination.Page<OidcProvider>>
  readonly update: (organizationId: string, providerId: string, patch: OidcProviderPatch) => Effect.Effect<Option.Option<OidcProvider>>
  readonly remove: (organizationId: string, providerId: string) => Effect.Effect<void>
  /** Remembers a sign-in begun, forgetting those expired at `now`. */
  readonly saveRequest: (request: OidcRequest, now: Date) => Effect.Effect<void>
  /** The unexpired sign-in with this state, removed so that it is answered once. */
  readonly takeRequest: (state: string, now: Date) => Effect.Effect<Option.Option<OidcRequest>>
}

export const oidcProviderKey = (p: OidcProvider): Pagination.CursorKey => [p.createdAt.toISOString(), p.id]
export const oidcProviderKeyShape: Pagination.KeyShape = ["timestamp", "string"]

export class OidcProvidersRepo extends Context.Service<OidcProvidersRepo, OidcProvidersRepoShape>()(
  "@quire/identity/OidcProvidersRepo"
) {
  static readonly layerMemory = Layer.sync(OidcProvidersRepo, () => {
    const providers = new MemoryStore.TxMap<string, OidcProvider>()
    const requests = new MemoryStore.TxMap<string, OidcRequest>()
    const scoped = (organizationId: string, providerId: string) => {
      const provider = providers.get(providerId)
      return provider?.organizationId === organizationId ? provider : undefined
    }
    return OidcProvidersRepo.of({
      insert: (provider) => Effect.sync(() => void providers.set(provider.id, provider)),
      find: (organizationId, providerId) => Effect.sync(() => Option.fromNullishOr(scoped(organizationId, providerId))),
      list: (organizationId, after, limit) =>
        Effect.suspend(() =>
          Pagination.paginateArray(
            Array.from(providers.values()).filter((p) => p.organizationId === organizationId),
            oidcProviderKey,
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
          if (scoped(organizationId, providerId) === undefined) return
          providers.delete(providerId)
          for (const [state, request] of requests) if (request.providerId === providerId) requests.delete(state)
        }),
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
