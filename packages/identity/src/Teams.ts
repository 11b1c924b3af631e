/** Use cases on teams: listing, creation with members, renaming and removal. */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Transactor } from "@quire/kernel"
import { ensureOrganization } from "./Authorization.ts"
import type { OrganizationAccess, Team } from "./domain/Identity.ts"
import { MembershipDependents } from "./MembershipDependents.ts"
import { MembersRepo } from "./MembersRepo.ts"
import { Organizations } from "./Organizations.ts"
import { type TeamFilter, teamKeyShape, TeamsRepo } from "./TeamsRepo.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface TeamView {
  readonly access: OrganizationAccess
  readonly team: Team
}

export interface TeamsShape {
  readonly list: (organizationId: string, filter: TeamFilter, page: Pagination.PageRequest) => Effect.Effect<{ readonly access: OrganizationAccess; readonly page: Pagination.Page<Team> }, Denied | Errors.InvalidInput, Actor.Actor>
  readonly create: (organizationId: string, input: { readonly title: string; readonly members?: ReadonlyArray<string> | undefined }) => Effect.Effect<TeamView, Denied | Errors.InvalidInput, Actor.Actor>
  readonly get: (organizationId: string, teamId: string) => Effect.Effect<TeamView, Denied, Actor.Actor>
  readonly rename: (organizationId: string, teamId: string, title: string) => Effect.Effect<TeamView, Denied, Actor.Actor>
  readonly remove: (organizationId: string, teamId: string) => Effect.Effect<void, Denied, Actor.Actor>
}

export class Teams extends Context.Service<Teams, TeamsShape>()("@quire/identity/Teams") {
  static readonly layer = Layer.effect(
    Teams,
    Effect.gen(function*() {
      const organizations = yield* Organizations
      const repo = yield* TeamsRepo
      const members = yield* MembersRepo
      const dependents = yield* MembershipDependents
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor

      const find = Effect.fnUntraced(function*(organizationId: string, teamId: string) {
        const team = yield* repo.find(organizationId, teamId)
        if (Option.isNone(team)) return yield* new Errors.NotFound({ resource: "Team", id: teamId })
        return team.value
      })

      const list = Effect.fn("Teams.list")(function*(organizationId: string, filter: TeamFilter, page: Pagination.PageRequest) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "listTeams", "list teams")
        const after = yield* Pagination.afterOf(page, teamKeyShape)
        return { access, page: yield* repo.list(organizationId, filter, after, Pagination.limitOf(page)) }
      })

      const create = Effect.fn("Teams.create")(function*(
        organizationId: string,
        input: { readonly title: string; readonly members?: ReadonlyArray<string> | undefined }
      ) {
        const actor = yield* Actor.Actor
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "create teams")
        // GitBook's `members` are the team's members, exactly: the caller joins only when listed.
        const memberIds = Array.from(new Set(input.members ?? []))
        for (const [index, userId] of (input.members ?? []).entries()) {
          if (Option.isNone(yield* members.find(organizationId, userId))) {
            return yield* new Errors.InvalidInput({
              field: `members[${index}]`,
              reason: `user ${JSON.stringify(userId)} is not a member of the organization`
            })
          }
        }
        const id = yield* ids.make
        const createdAt = new Date(yield* Clock.currentTimeMillis)
        yield* repo.insert(
          { id, organizationId, title: input.title, createdAt },
          memberIds.map((userId) => ({ userId, role: userId === actor.userId ? "owner" as const : "member" as const }))
        )
        return { access, team: yield* find(organizationId, id) }
      }, transactor.transaction)

      const get = Effect.fn("Teams.get")(function*(organizationId: string, teamId: string) {
        const access = yield* organizations.access(organizationId)
        return { access, team: yield* find(organizationId, teamId) }
      })

      const rename = Effect.fn("Teams.rename")(function*(organizationId: string, teamId: string, title: string) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "rename teams")
        const team = yield* find(organizationId, teamId)
        yield* repo.rename(organizationId, teamId, title)
        return { access, team: { ...team, title } }
      })

      const remove = Effect.fn("Teams.remove")(function*(organizationId: string, teamId: string) {
        const access = yield* organizations.access(organizationId)
        yield* ensureOrganization(access.membership, "admin", "delete teams")
        yield* dependents.removeTeam(organizationId, teamId)
        yield* repo.remove(organizationId, teamId)
      }, transactor.transaction)

      return Teams.of({ list, create, get, rename, remove })
    })
  )
}
