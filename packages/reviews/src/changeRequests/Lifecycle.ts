/** Use cases on change requests as records: create, list and read them, change their subject and status. */
import { Effect, Option } from "effect"
import { Actor, Errors, Pagination } from "@quire/kernel"
import { Access, type SpaceAccess } from "@quire/content"
import type { ChangeRequestView, CreateInput, ListRequest, OrganizationListRequest, UpdateInput } from "./ChangeRequestTypes.ts"
import { changeRequestKeyShape, spacesChangeRequestKeyShape } from "../ChangeRequestsRepo.ts"
import { countersOf, maxSubjectLength, permittedTransitions } from "../domain/ChangeRequest.ts"
import { type Branch, view } from "./Branch.ts"

/** A subject within GitBook's bound, for every caller (the API's schema checks it first). */
const checkSubject = (subject: string | undefined): Effect.Effect<void, Errors.InvalidInput> =>
  subject !== undefined && subject.length > maxSubjectLength
    ? Effect.fail(new Errors.InvalidInput({ field: "subject", reason: `is longer than ${maxSubjectLength} characters` }))
    : Effect.void

/** The statuses a listing asks for: GitBook's `status`, one or repeated, `open` when absent. */
const statusesOf = (request: ListRequest) =>
  request.status === undefined ? ["open" as const] : typeof request.status === "string" ? [request.status] : request.status

export const lifecycle = (branch: Branch) => {
  const { repo, reviews, access, counters, spaces, ids, transactor, now, resolve, writes } = branch

  const create = Effect.fn("ChangeRequests.create")(function*(spaceId: string, input: CreateInput) {
    yield* checkSubject(input.subject)
    const spaceAccess = yield* access.space(spaceId)
    yield* Access.ensure(spaceAccess.permissions.edit, "create change requests in this space")
    const actor = yield* Actor.Actor
    const at = yield* now
    const space = spaceAccess.space
    // GitBook creates change requests as drafts.
    const created = yield* transactor.transaction(Effect.gen(function*() {
      const stored = yield* repo.insert({
        id: yield* ids.make,
        spaceId,
        status: "draft",
        subject: input.subject ?? "",
        createdBy: actor.userId,
        createdAt: at,
        updatedAt: at,
        revision: space.revisionId,
        revisionInitial: space.revisionId,
        revisionMergedAncestor: space.revisionId,
        revisionMerged: null,
        agentTaskId: input.agentTaskId ?? null,
        contributors: []
      })
      yield* counters.add(spaceId, { changeRequests: 1, ...countersOf(stored.status) })
      return stored
    }))
    return view(spaceAccess, created)
  })

  const list = Effect.fn("ChangeRequests.list")(function*(spaceId: string, request: ListRequest) {
    const after = yield* Pagination.afterOf(request, changeRequestKeyShape)
    const spaceAccess = yield* access.space(spaceId)
    const ids = request.requestedReviewer === undefined ? undefined : yield* reviews.changeRequestsAwaiting(request.requestedReviewer)
    const items = yield* repo.list(
      { spaceId, statuses: statusesOf(request), creator: request.creator, contributor: request.contributor, ids },
      after,
      Pagination.limitOf(request)
    )
    return { access: spaceAccess, items, spaceRevision: spaceAccess.space.revisionId }
  })

  /** Every space of the organization the caller can view, by id (NotFound for a non-member). */
  const visibleSpaces = Effect.fnUntraced(function*(organizationId: string) {
    const visible = new Map<string, SpaceAccess>()
    let page: string | undefined
    do {
      const batch = yield* spaces.list(organizationId, { limit: Pagination.maxLimit, ...(page === undefined ? {} : { page }) })
      for (const seen of batch.items) visible.set(seen.space.id, seen)
      page = batch.next
    } while (page !== undefined)
    return visible
  })

  const listForOrganization = Effect.fn("ChangeRequests.listForOrganization")(function*(organizationId: string, request: OrganizationListRequest) {
    const after = yield* Pagination.afterOf(request, spacesChangeRequestKeyShape)
    const visible = yield* visibleSpaces(organizationId)
    const spaceIds = request.space === undefined ? [...visible.keys()] : visible.has(request.space) ? [request.space] : []
    const ids = request.requestedReviewer === undefined ? undefined : yield* reviews.changeRequestsAwaiting(request.requestedReviewer)
    const page = yield* repo.listInSpaces(
      {
        spaceIds,
        statuses: statusesOf(request),
        creator: request.creator,
        contributor: request.contributor,
        ids,
        orderBy: request.orderBy ?? "updatedAt"
      },
      after,
      Pagination.limitOf(request)
    )
    return { ...page, items: page.items.map((cr): ChangeRequestView => view(visible.get(cr.spaceId)!, cr)) }
  })

  const get = Effect.fn("ChangeRequests.get")(function*(spaceId: string, ref: string) {
    const found = yield* resolve(spaceId, ref)
    return view(found.access, found.changeRequest)
  })

  const mergedInto = Effect.fn("ChangeRequests.mergedInto")(function*(spaceId: string, revisionId: string) {
    const spaceAccess = yield* access.space(spaceId)
    return Option.map(yield* repo.findMergedInto(spaceId, revisionId), (cr) => view(spaceAccess, cr))
  })

  const update = Effect.fn("ChangeRequests.update")(function*(spaceId: string, ref: string, input: UpdateInput) {
    const found = yield* resolve(spaceId, ref)
    yield* Access.ensure(found.access.permissions.edit, "change this change request")
    let current = found.changeRequest
    const at = yield* now
    if (input.status !== undefined && input.status !== current.status) {
      const next = input.status
      if (next === "merged") {
        return yield* new Errors.InvalidInput({ field: "status", reason: "a change request becomes merged only by merging it" })
      }
      const allowed = permittedTransitions[current.status]
      if (!allowed.includes(next)) {
        return yield* new Errors.InvalidInput({
          field: "status",
          reason: `a ${current.status} change request cannot become ${next}` +
            (allowed.length === 0 ? "" : ` (it may become ${allowed.join(" or ")})`)
        })
      }
      const from = current.status
      const moved = yield* transactor.transaction(Effect.gen(function*() {
        const changed = yield* repo.setStatus(current.id, from, next, at)
        if (Option.isNone(changed)) return changed
        const before = countersOf(from)
        const after = countersOf(next)
        yield* counters.add(spaceId, {
          changeRequestsOpen: after.changeRequestsOpen - before.changeRequestsOpen,
          changeRequestsDraft: after.changeRequestsDraft - before.changeRequestsDraft
        })
        return changed
      }))
      if (Option.isNone(moved)) {
        return yield* new Errors.Conflict({ reason: "The change request's status changed meanwhile; try again" })
      }
      current = moved.value
      // Live editing closes the change request's shared documents to typing at once when archived.
      yield* writes.written({ spaceId, changeRequestId: current.id, status: next })
    }
    if (input.subject !== undefined && input.subject !== current.subject) {
      yield* checkSubject(input.subject)
      const patched = yield* repo.update(current.id, { subject: input.subject, updatedAt: at })
      if (Option.isSome(patched)) current = patched.value
    }
    return view(found.access, current)
  })

  return { create, list, listForOrganization, get, mergedInto, update }
}
