/** Port: SAML providers, scoped to their organization. */
import { Context, Layer } from "effect"
import type { Pagination } from "@quire/kernel"
import type { SamlProvider, SamlProviderPatch } from "./domain/Saml.ts"
import { memoryProviders, type ProviderStore, providerKey, providerKeyShape } from "./ProviderTables.ts"

export type SamlProvidersRepoShape = ProviderStore<SamlProvider, SamlProviderPatch>

export const samlProviderKey: (p: SamlProvider) => Pagination.CursorKey = providerKey
export const samlProviderKeyShape: Pagination.KeyShape = providerKeyShape

export class SamlProvidersRepo extends Context.Service<SamlProvidersRepo, SamlProvidersRepoShape>()(
  "@quire/identity/SamlProvidersRepo"
) {
  static readonly layerMemory = Layer.sync(SamlProvidersRepo, () => SamlProvidersRepo.of(memoryProviders<SamlProvider, SamlProviderPatch>()))
}
