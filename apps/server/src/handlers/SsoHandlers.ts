/** Handlers of the SSO group, and with them the sign-in routes outside `/v1` (SsoRoutes). */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@quire/api"
import { OidcProviders, SamlProviders } from "@quire/identity"
import * as DomainErrors from "../DomainErrors.ts"
import * as Presenters from "../Presenters.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as SsoRoutes from "../SsoRoutes.ts"

const group = HttpApiBuilder.group(Api, "sso", Effect.fn(function*(handlers) {
  const providers = yield* SamlProviders
  const oidc = yield* OidcProviders
  const urls = yield* PublicUrl
  const present = (view: Effect.Success<ReturnType<typeof providers.get>>) => Presenters.samlProvider(urls, view)
  const presentOidc = (view: Effect.Success<ReturnType<typeof oidc.get>>) => Presenters.oidcProvider(urls, view)
  return handlers
    .handle("listSAMLProvidersInOrganizationById", ({ params, query }) =>
      providers.list(params.organizationId, query).pipe(DomainErrors.api, Effect.map((page) => Presenters.list(page, present))))
    .handle("createOrganizationSAMLProvider", ({ params, payload }) =>
      providers.create(params.organizationId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("getOrganizationSAMLProviderById", ({ params }) =>
      providers.get(params.organizationId, params.samlProviderId).pipe(DomainErrors.api, Effect.map(present)))
    .handle("updateOrganizationSAMLProvider", ({ params, payload }) =>
      providers.update(params.organizationId, params.samlProviderId, payload).pipe(DomainErrors.api, Effect.map(present)))
    .handle("deleteOrganizationSAMLProvider", ({ params }) =>
      providers.remove(params.organizationId, params.samlProviderId).pipe(DomainErrors.api))
    .handle("listOIDCProvidersInOrganizationById", ({ params, query }) =>
      oidc.list(params.organizationId, query).pipe(DomainErrors.api, Effect.map((page) => Presenters.list(page, presentOidc))))
    .handle("createOrganizationOIDCProvider", ({ params, payload }) =>
      oidc.create(params.organizationId, payload).pipe(DomainErrors.api, Effect.map(presentOidc)))
    .handle("getOrganizationOIDCProviderById", ({ params }) =>
      oidc.get(params.organizationId, params.oidcProviderId).pipe(DomainErrors.api, Effect.map(presentOidc)))
    .handle("updateOrganizationOIDCProvider", ({ params, payload }) =>
      oidc.update(params.organizationId, params.oidcProviderId, payload).pipe(DomainErrors.api, Effect.map(presentOidc)))
    .handle("deleteOrganizationOIDCProvider", ({ params }) =>
      oidc.remove(params.organizationId, params.oidcProviderId).pipe(DomainErrors.api))
    .handle("listSSOProviderLoginsInOrganization", ({ params }) =>
      SsoRoutes.logins(params.organizationId).pipe(Effect.map((items) => ({
        items: items.map(({ id, label, startURL }) => ({ id, label, startURL }))
      }))))
}))

/** The group's handlers and the SAML sign-in routes, which the router mounts with them. */
export const layer = Layer.merge(group, SsoRoutes.layer)
