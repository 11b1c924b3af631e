/**
 * The audit log's AuditNames port, answered by the packages that own what events name: people
 * (identity's users), organizations and their teams, spaces and collections (content), sites.
 * Read without an actor: the instance's log is for instance administrators, who see every
 * organization's events already.
 */
import { Effect, Layer, Option } from "effect"
import { AuditNames, type AuditRef, nameKey } from "@quire/audit"
import { CollectionsRepo, SpacesRepo } from "@quire/content"
import { OrganizationsRepo, TeamsRepo, UsersRepo } from "@quire/identity"
import { SitesRepo } from "@quire/sites"

const title = <A extends { readonly title: string }>(found: Option.Option<A>) => Option.map(found, (a) => a.title)

export const layer = Layer.effect(
  AuditNames,
  Effect.gen(function*() {
    const users = yield* UsersRepo
    const organizations = yield* OrganizationsRepo
    const teams = yield* TeamsRepo
    const spaces = yield* SpacesRepo
    const collections = yield* CollectionsRepo
    const sites = yield* SitesRepo
    const nameOf = (ref: AuditRef): Effect.Effect<Option.Option<string>> => {
      switch (ref.type) {
        case "user":
          return Effect.map(users.findById(ref.id), Option.map((user) => (user.displayName === "" ? user.email : user.displayName)))
        case "organization":
          return Effect.map(organizations.find(ref.id), title)
        case "team":
          return ref.organizationId === null ? Effect.succeedNone : Effect.map(teams.find(ref.organizationId, ref.id), title)
        case "space":
          return Effect.map(spaces.find(ref.id), title)
        case "collection":
          return Effect.map(collections.find(ref.id), title)
        case "site":
          return Effect.map(sites.find(ref.id), title)
        default:
          return Effect.succeedNone
      }
    }
    return AuditNames.of({
      names: (refs) =>
        Effect.gen(function*() {
          const distinct = new Map<string, AuditRef>()
          for (const ref of refs) distinct.set(nameKey(ref.type, ref.id), ref)
          const found = yield* Effect.forEach(distinct, ([key, ref]) => Effect.map(nameOf(ref), (name) => [key, name] as const), { concurrency: 4 })
          return new Map(found.flatMap(([key, name]) => (Option.isSome(name) && name.value !== "" ? [[key, name.value] as const] : [])))
        })
    })
  })
)
