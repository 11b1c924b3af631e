/** Use cases on change requests as records: create, list and read them, change their subject and status. */
import { Effect, Option } from "effect"
import { Actor, Errors, Pagination } from "@quire/kernel"
import { Access } from "@quire/content"
import type { CreateInput, ListRequest, UpdateInput } from "../ChangeRequests.ts"
import { changeRequestKeyShape } from "../ChangeRequestsRepo.ts"
import { countersOf, maxSubjectLength, permittedTransitions } from "../domain/ChangeRequest.ts"
import { type Branch, view } from "./Branch.ts"

/** A subject within GitBook's bound, for every caller (the API's schema checks it first). */
const checkSubject = (subject: string | undefined): Effect.Effect<void, Errors.InvalidInput> =>
  subject !== undefined && subject.length > maxSubjectLength
    ? Effect.fail(new Errors.InvalidInput({ field: "subject", reason: `is longer than ${maxSubjectLength} characters` }))
    : Effect.void

export const lifecycle = (branch: Branch) => {
  const { repo, access, counters, ids, transactor, now, resolve } = branch

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
    const items = yield* repo.list(
      { spaceId, status: request.status ?? "open", creator: request.creator, contributor: request.contributor },
      after,
      Pagination.limitOf(request)
    )
    return { access: spaceAccess, items, spaceRevision: spaceAccess.space.revisionId }
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
    }
    if (input.subject !== undefined && input.subject !== current.subject) {
      yield* checkSubject(input.subject)
      const patched = yield* repo.update(current.id, { subject: input.subject, updatedAt: at })
      if (Option.isSome(patched)) current = patched.value
    }
    return view(found.access, current)
  })

  return { create, list, get, mergedInto, update }
}
