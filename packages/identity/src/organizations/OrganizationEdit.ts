/**
 * What the organization use cases (records, email invitations, invite links) share: the ports,
 * the audit log, the clock, and the caller's access to an organization, as a member or as its admin.
 */
import { Clock, Effect, Option } from "effect"
import { AuditLog } from "@quire/audit"
import { Actor, Errors, Ids, Spans, Transactor } from "@quire/kernel"
import { ensureOrganization } from "../Authorization.ts"
import { MembersRepo } from "../MembersRepo.ts"
import { OrganizationsRepo } from "../OrganizationsRepo.ts"
import { reaches } from "../Scope.ts"
import { UsersRepo } from "../UsersRepo.ts"

/** Built once by the Organizations layer and handed to each group of use cases. */
export const make = Effect.gen(function*() {
  const repo = yield* OrganizationsRepo
  const users = yield* UsersRepo
  const members = yield* MembersRepo
  const ids = yield* Ids.Ids
  const transactor = yield* Transactor.Transactor
  const audit = yield* AuditLog
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  /**
   * The organization as the caller sees it; NotFound for a non-member or a caller scoped to another one.
   * Every request about an organization starts here: its span is made only when traces are exported.
   */
  const access = Effect.fnUntraced(function*(organizationId: string) {
    const actor = yield* Actor.Actor
    const found = reaches(actor, organizationId) ? yield* repo.findAccess(organizationId, actor.userId) : Option.none()
    if (Option.isNone(found)) return yield* new Errors.NotFound({ resource: "Organization", id: organizationId })
    return found.value
  }, Spans.whenTraced("Organizations.access"))

  /** `access` for an admin of the organization; Forbidden to anyone else, naming `action`. */
  const adminAccess = Effect.fnUntraced(function*(organizationId: string, action: string) {
    const found = yield* access(organizationId)
    yield* ensureOrganization(found.membership, "admin", action)
    return found
  })

  return { repo, users, members, ids, transactor, audit, now, access, adminAccess }
})

export type OrganizationEdit = Effect.Success<typeof make>
