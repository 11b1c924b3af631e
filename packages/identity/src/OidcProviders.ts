/**
 * Use cases on OpenID Connect single sign-on providers: organization admins configure them (the
 * client secret is sealed at rest and never answered); a provider's discovery document is read
 * when it is configured, so a wrong URL or client is refused at once, naming the field.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, type Roles, Transactor } from "@quire/kernel"
import type { OidcProvider, OidcProviderPatch } from "./domain/Oidc.ts"
import { configure, discoveryUrlProblem } from "./OidcClient.ts"
import { oidcProviderKeyShape, OidcProvidersRepo } from "./OidcProvidersRepo.ts"
import { OidcSecrets } from "./OidcSecrets.ts"
import * as ProviderAdmin from "./ProviderAdmin.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface OidcProviderInput {
  readonly label?: string | undefined
  readonly discoveryURL?: string | undefined
  readonly clientId?: string | undefined
  readonly clientSecret?: string | undefined
  readonly scopes?: ReadonlyArray<string> | undefined
  readonly defaultTeam?: string | undefined
  readonly defaultRole?: Roles.MemberRole | null | undefined
}

export type OidcProviderView = ProviderAdmin.ProviderView<OidcProvider>

export interface OidcProvidersShape {
  readonly list: (organizationId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<OidcProviderView>, Denied | Errors.InvalidInput, Actor.Actor>
  readonly create: (
    organizationId: string,
    input: OidcProviderInput & { readonly label: string; readonly discoveryURL: string; readonly clientId: string; readonly clientSecret: string }
  ) => Effect.Effect<OidcProviderView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, providerId: string) => Effect.Effect<OidcProviderView, Denied, Actor.Actor>
  readonly update: (organizationId: string, providerId: string, input: OidcProviderInput) => Effect.Effect<OidcProviderView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly remove: (organizationId: string, providerId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /** The providers people can sign in with (every configured one): no caller needed. */
  readonly logins: (organizationId: string) => Effect.Effect<ReadonlyArray<OidcProvider>>
}

export class OidcProviders extends Context.Service<OidcProviders, OidcProvidersShape>()("@quire/identity/OidcProviders") {
  static readonly layer = Layer.effect(
    OidcProviders,
    Effect.gen(function*() {
      const admin = yield* ProviderAdmin.make
      const repo = yield* OidcProvidersRepo
      const secrets = yield* OidcSecrets
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor

      /** The stored fields of an input, after checking them (and the provider's discovery, when its client changes). */
      const patchOf = Effect.fnUntraced(function*(organizationId: string, input: OidcProviderInput, current: OidcProvider | undefined) {
        if (input.discoveryURL !== undefined) {
          const problem = discoveryUrlProblem(input.discoveryURL)
          if (problem !== undefined) return yield* new Errors.InvalidInput({ field: "discoveryURL", reason: problem })
        }
        yield* admin.checkDefaultTeam(organizationId, input.defaultTeam)
        const clientChanged = input.discoveryURL !== undefined || input.clientId !== undefined || input.clientSecret !== undefined
        if (clientChanged) {
          const discoveryURL = input.discoveryURL ?? current?.discoveryURL ?? ""
          const clientId = input.clientId ?? current?.clientId ?? ""
          yield* configure(discoveryURL, clientId, input.clientSecret ?? "")
        }
        const patch: OidcProviderPatch = {
          ...(input.label === undefined ? {} : { label: input.label }),
          ...(input.discoveryURL === undefined ? {} : { discoveryURL: input.discoveryURL }),
          ...(input.clientId === undefined ? {} : { clientId: input.clientId }),
          ...(input.clientSecret === undefined ? {} : { clientSecret: yield* secrets.seal(input.clientSecret) }),
          ...(input.scopes === undefined ? {} : { scopes: Array.from(new Set(input.scopes)) }),
          ...(input.defaultTeam === undefined ? {} : { defaultTeamId: input.defaultTeam }),
          ...(input.defaultRole === undefined ? {} : { defaultRole: input.defaultRole })
        }
        return patch
      })

      const find = Effect.fnUntraced(function*(organizationId: string, providerId: string) {
        const provider = yield* repo.find(organizationId, providerId)
        if (Option.isNone(provider)) return yield* new Errors.NotFound({ resource: "OpenID Connect provider", id: providerId })
        return provider.value
      })

      const list = Effect.fn("OidcProviders.list")(function*(organizationId: string, page: Pagination.PageRequest) {
        const access = yield* admin.adminAccess(organizationId)
        const after = yield* Pagination.afterOf(page, oidcProviderKeyShape)
        const found = yield* repo.list(organizationId, after, Pagination.limitOf(page))
        const items = yield* Effect.forEach(found.items, (provider) => admin.view(access, provider))
        return { items, next: found.next }
      })

      const create = Effect.fn("OidcProviders.create")(function*(
        organizationId: string,
        input: OidcProviderInput & { readonly label: string; readonly discoveryURL: string; readonly clientId: string; readonly clientSecret: string }
      ) {
        const access = yield* admin.adminAccess(organizationId)
        const patch = yield* patchOf(organizationId, input, undefined)
        const provider: OidcProvider = {
          id: yield* ids.make,
          organizationId,
          label: input.label,
          discoveryURL: input.discoveryURL,
          clientId: input.clientId,
          clientSecret: patch.clientSecret ?? "",
          scopes: patch.scopes ?? [],
          defaultTeamId: patch.defaultTeamId ?? null,
          defaultRole: patch.defaultRole ?? null,
          createdAt: new Date(yield* Clock.currentTimeMillis)
        }
        yield* admin.audited(repo.insert(provider), organizationId, "oidc", "sso.provider-created", provider)
        return yield* admin.view(access, provider)
      })

      const get = Effect.fn("OidcProviders.get")(function*(organizationId: string, providerId: string) {
        const access = yield* admin.adminAccess(organizationId)
        return yield* admin.view(access, yield* find(organizationId, providerId))
      })

      const update = Effect.fn("OidcProviders.update")(function*(organizationId: string, providerId: string, input: OidcProviderInput) {
        const access = yield* admin.adminAccess(organizationId)
        const current = yield* find(organizationId, providerId)
        if ((input.discoveryURL !== undefined || input.clientId !== undefined) && input.clientSecret === undefined) {
          // The secret is never answered, so a new client or issuer comes with its secret again.
          return yield* new Errors.InvalidInput({ field: "clientSecret", reason: "is required when discoveryURL or clientId changes" })
        }
        const patch = yield* patchOf(organizationId, input, current)
        const updated = yield* transactor.transaction(Effect.gen(function*() {
          const updated = yield* repo.update(organizationId, providerId, patch)
          yield* admin.audited(Effect.void, organizationId, "oidc", "sso.provider-changed", Option.getOrThrow(updated), Object.keys(patch))
          return updated
        }))
        return yield* admin.view(access, Option.getOrThrow(updated))
      })

      const remove = Effect.fn("OidcProviders.remove")(function*(organizationId: string, providerId: string) {
        yield* admin.adminAccess(organizationId)
        const current = yield* repo.find(organizationId, providerId)
        if (Option.isNone(current)) return
        yield* admin.audited(repo.remove(organizationId, providerId), organizationId, "oidc", "sso.provider-removed", current.value)
      })

      const logins = Effect.fn("OidcProviders.logins")(function*(organizationId: string) {
        return (yield* repo.list(organizationId, undefined, Pagination.maxLimit)).items
      })

      return OidcProviders.of({ list, create, get, update, remove, logins })
    })
  )
}
