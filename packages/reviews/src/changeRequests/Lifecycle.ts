/** Use cases on change requests as records: create, list and read them, change their subject and status. */
import { Effect, Option } from "effect"
import { Actor, Errors, Pagination } from "@quire/kernel"
import { Access, type SpaceAccess } from "@quire/content"
import type { ChangeRequestView, CreateInput, LinkInput, ListRequest, OrganizationListRequest, UpdateInput } from "./ChangeRequestTypes.ts"
import { type ChangeRequestPatch, changeRequestKeyShape, spacesChangeRequestKeyShape } from "../ChangeRequestsRepo.ts"
import {
  type ChangeRequest,
  type ChangeRequestLink,
  countersOf,
  maxDescriptionLength,
  maxLinks,
  maxLinkTitleLength,
  maxLinkUrlLength,
  maxSubjectLength,
  permittedTransitions
} from "../domain/ChangeRequest.ts"
import { type Branch, view } from "./Branch.ts"

/** A subject within GitBook's bound, for every caller (the API's schema checks it first). */
const checkSubject = (subject: string | undefined): Effect.Effect<void, Errors.InvalidInput> =>
  subject !== undefined && subject.length > maxSubjectLength
    ? Effect.fail(new Errors.InvalidInput({ field: "subject", reason: `is longer than ${maxSubjectLength} characters` }))
    : Effect.void

/** The description to store: null when blank, refused past `maxDescriptionLength`. */
const checkDescription = (description: string | null): Effect.Effect<string | null, Errors.InvalidInput> => {
  if (description === null || description.trim() === "") return Effect.succeed(null)
  return description.length > maxDescriptionLength
    ? Effect.fail(new Errors.InvalidInput({ field: "description", reason: `is longer than ${maxDescriptionLength.toLocaleString("en")} characters of markdown (${description.length.toLocaleString("en")})` }))
    : Effect.succeed(description)
}

/** A link's URL: absolute, http or https (the app makes it a link a person clicks). */
const webUrl = (url: string): boolean => {
  if (url.length > maxLinkUrlLength || !URL.canParse(url)) return false
  const protocol = new URL(url).protocol
  return protocol === "https:" || protocol === "http:"
}

const bad = (field: string, reason: string) => new Errors.InvalidInput({ field, reason })

/** The links to store, ids kept for those that name one of `current`'s and made for new ones; refused naming `links[i]…`. */
const checkLinks = (
  input: ReadonlyArray<LinkInput>,
  current: ReadonlyArray<ChangeRequestLink>,
  makeId: Effect.Effect<string>
): Effect.Effect<ReadonlyArray<ChangeRequestLink>, Errors.InvalidInput> =>
  Effect.gen(function*() {
    if (input.length > maxLinks) return yield* bad("links", `at most ${maxLinks} links (${input.length} given)`)
    const known = new Set(current.map((link) => link.id))
    const seen = new Set<string>()
    const out: Array<ChangeRequestLink> = []
    for (const [i, link] of input.entries()) {
      if (!webUrl(link.url.trim())) return yield* bad(`links[${i}].ref.url`, `must be an http or https URL of at most ${maxLinkUrlLength} characters`)
      const title = link.title?.trim()
      if (title !== undefined && title.length > maxLinkTitleLength) return yield* bad(`links[${i}].title`, `is longer than ${maxLinkTitleLength} characters`)
      if (link.id !== undefined && !known.has(link.id)) return yield* bad(`links[${i}].id`, "names no link of this change request (omit it to add a link)")
      if (link.id !== undefined && seen.has(link.id)) return yield* bad(`links[${i}].id`, "names a link given twice")
      const id = link.id ?? (yield* makeId)
      seen.add(id)
      out.push(title === undefined || title === "" ? { id, url: link.url.trim() } : { id, url: link.url.trim(), title })
    }
    return out
  })

const sameLinks = (a: ReadonlyArray<ChangeRequestLink>, b: ReadonlyArray<ChangeRequestLink>) =>
  a.length === b.length && a.every((link, i) => link.id === b[i]!.id && link.url === b[i]!.url && link.title === b[i]!.title)

/** Whether `patch` would change anything of `cr`'s. */
const changes = (cr: ChangeRequest, patch: ChangeRequestPatch): boolean =>
  (patch.subject !== undefined && patch.subject !== cr.subject) ||
  (patch.description !== undefined && patch.description !== cr.description) ||
  (patch.links !== undefined && !sameLinks(patch.links, cr.links))

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
    // Every field is checked before anything is written: a refusal leaves the change request as it was.
    yield* checkSubject(input.subject)
    const patch: ChangeRequestPatch = {
      ...(input.subject === undefined ? {} : { subject: input.subject }),
      ...(input.description === undefined ? {} : { description: yield* checkDescription(input.description) }),
      ...(input.links === undefined ? {} : { links: yield* checkLinks(input.links, current.links, ids.make) })
    }
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
    if (changes(current, patch)) {
      const patched = yield* repo.update(current.id, { ...patch, updatedAt: at })
      if (Option.isSome(patched)) current = patched.value
    }
    return view(found.access, current)
  })

  return { create, list, listForOrganization, get, mergedInto, update }
}
