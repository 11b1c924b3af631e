/** Use cases on SAML single sign-on providers: organization admins configure them. */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { X509Certificate } from "node:crypto"
import { Actor, Errors, Ids, Pagination, type Roles, Transactor } from "@quire/kernel"
import { type SamlProvider, type SamlProviderPatch, samlStatus } from "./domain/Saml.ts"
import * as ProviderAdmin from "./ProviderAdmin.ts"
import { samlProviderKeyShape, SamlProvidersRepo } from "./SamlProvidersRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface SamlProviderInput {
  readonly label?: string | undefined
  readonly entityID?: string | undefined
  readonly ssoURL?: string | undefined
  readonly certificate?: string | undefined
  readonly defaultTeam?: string | undefined
  readonly defaultRole?: Roles.MemberRole | null | undefined
}

/** A provider with its default team resolved, as responses show it. */
export type SamlProviderView = ProviderAdmin.ProviderView<SamlProvider>

export interface SamlProvidersShape {
  readonly list: (organizationId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SamlProviderView>, Denied | Errors.InvalidInput, Actor.Actor>
  readonly create: (organizationId: string, input: SamlProviderInput & { readonly label: string }) => Effect.Effect<SamlProviderView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, providerId: string) => Effect.Effect<SamlProviderView, Denied, Actor.Actor>
  readonly update: (organizationId: string, providerId: string, input: SamlProviderInput) => Effect.Effect<SamlProviderView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly remove: (organizationId: string, providerId: string) => Effect.Effect<void, Denied, Actor.Actor>
  /** The providers people can sign in with (active ones): public to every authenticated caller. */
  readonly logins: (organizationId: string) => Effect.Effect<ReadonlyArray<SamlProvider>>
}

/** The certificate must be a PEM X.509 certificate that Node can parse. */
const checkCertificate = (certificate: string | undefined) =>
  certificate === undefined
    ? Effect.void
    : Effect.try({
      try: () => void new X509Certificate(certificate),
      catch: () => new Errors.InvalidInput({ field: "certificate", reason: "is not a PEM-encoded X.509 certificate" })
    })

export class SamlProviders extends Context.Service<SamlProviders, SamlProvidersShape>()("@quire/identity/SamlProviders") {
  static readonly layer = Layer.effect(
    SamlProviders,
    Effect.gen(function*() {
      const { adminAccess, view, checkDefaultTeam, audited } = yield* ProviderAdmin.make
      const repo = yield* SamlProvidersRepo
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor

      /** The stored fields of an input, after checking them. */
      const patchOf = Effect.fnUntraced(function*(organizationId: string, input: SamlProviderInput) {
        yield* checkCertificate(input.certificate)
        yield* checkDefaultTeam(organizationId, input.defaultTeam)
        const patch: SamlProviderPatch = {
          ...(input.label === undefined ? {} : { label: input.label }),
          ...(input.entityID === undefined ? {} : { entityID: input.entityID }),
          ...(input.ssoURL === undefined ? {} : { ssoURL: input.ssoURL }),
          ...(input.certificate === undefined ? {} : { certificate: input.certificate.trim() }),
          ...(input.defaultTeam === undefined ? {} : { defaultTeamId: input.defaultTeam }),
          ...(input.defaultRole === undefined ? {} : { defaultRole: input.defaultRole })
        }
        return patch
      })

      const find = Effect.fnUntraced(function*(organizationId: string, providerId: string) {
        const provider = yield* repo.find(organizationId, providerId)
        if (Option.isNone(provider)) return yield* new Errors.NotFound({ resource: "SAML provider", id: providerId })
        return provider.value
      })

      const list = Effect.fn("SamlProviders.list")(function*(organizationId: string, page: Pagination.PageRequest) {
        const access = yield* adminAccess(organizationId)
        const after = yield* Pagination.afterOf(page, samlProviderKeyShape)
        const found = yield* repo.list(organizationId, after, Pagination.limitOf(page))
        const items = yield* Effect.forEach(found.items, (provider) => view(access, provider))
        return { items, next: found.next }
      })

      const create = Effect.fn("SamlProviders.create")(function*(
        organizationId: string,
        input: SamlProviderInput & { readonly label: string }
      ) {
        const access = yield* adminAccess(organizationId)
        const patch = yield* patchOf(organizationId, input)
        const provider: SamlProvider = {
          id: yield* ids.make,
          organizationId,
          label: input.label,
          entityID: patch.entityID ?? null,
          ssoURL: patch.ssoURL ?? null,
          certificate: patch.certificate ?? null,
          defaultTeamId: patch.defaultTeamId ?? null,
          defaultRole: patch.defaultRole ?? null,
          createdAt: new Date(yield* Clock.currentTimeMillis)
        }
        yield* audited(repo.insert(provider), organizationId, "saml", "sso.provider-created", provider)
        return yield* view(access, provider)
      })

      const get = Effect.fn("SamlProviders.get")(function*(organizationId: string, providerId: string) {
        const access = yield* adminAccess(organizationId)
        return yield* view(access, yield* find(organizationId, providerId))
      })

      const update = Effect.fn("SamlProviders.update")(function*(
        organizationId: string,
        providerId: string,
        input: SamlProviderInput
      ) {
        const access = yield* adminAccess(organizationId)
        yield* find(organizationId, providerId)
        const patch = yield* patchOf(organizationId, input)
        const updated = yield* transactor.transaction(Effect.gen(function*() {
          const updated = yield* repo.update(organizationId, providerId, patch)
          yield* audited(Effect.void, organizationId, "saml", "sso.provider-changed", Option.getOrThrow(updated), Object.keys(patch))
          return updated
        }))
        return yield* view(access, Option.getOrThrow(updated))
      })

      const remove = Effect.fn("SamlProviders.remove")(function*(organizationId: string, providerId: string) {
        yield* adminAccess(organizationId)
        const current = yield* repo.find(organizationId, providerId)
        if (Option.isNone(current)) return
        yield* audited(repo.remove(organizationId, providerId), organizationId, "saml", "sso.provider-removed", current.value)
      })

      const logins = Effect.fn("SamlProviders.logins")(function*(organizationId: string) {
        const found = yield* repo.list(organizationId, undefined, Pagination.maxLimit)
        return found.items.filter((provider) => samlStatus(provider) === "active")
      })

      return SamlProviders.of({ list, create, get, update, remove, logins })
    })
  )
}
