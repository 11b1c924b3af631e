/**
 * Helpers over an organization's tree of collections and spaces, shared by the Spaces and
 * Collections use cases: complete and filtered listings, siblings, destinations of moves, the
 * placement of a moved record and the checks of a transfer.
 */
import { Effect, Option } from "effect"
import { Errors, Pagination } from "@quire/kernel"
import * as Access from "./Access.ts"
import { collectionKey, type CollectionsRepoShape } from "./CollectionsRepo.ts"
import type { ContentAccessShape, OrganizationAccessResolver } from "./ContentAccess.ts"
import type { Collection, Visibility } from "./domain/Space.ts"
import { type ContentPosition, place, type Sibling, sortSiblings } from "./Placement.ts"
import { spaceKey, type SpacesRepoShape } from "./SpacesRepo.ts"

/** Every item of a keyset listing, page after page. */
export const allPages = <A>(
  fetch: (after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<A>>,
  keyOf: (a: A) => Pagination.CursorKey
): Effect.Effect<ReadonlyArray<A>> =>
  Effect.gen(function*() {
    const all: Array<A> = []
    let after: Pagination.CursorKey | undefined = undefined
    for (;;) {
      const page: Pagination.Page<A> = yield* fetch(after, Pagination.maxLimit)
      all.push(...page.items)
      const last = page.items.at(-1)
      if (page.next === undefined || last === undefined) return all
      after = keyOf(last)
    }
  })

/**
 * A page of the items the caller may see: `resolve` answers none for an item to leave out. The
 * underlying listing is read batch after batch until the page is full, and `next` points after
 * the last item returned, so hidden items never shorten a page nor leave it empty.
 */
export const visiblePage = <A, B>(
  fetch: (after: Pagination.CursorKey | undefined, limit: number) => Effect.Effect<Pagination.Page<A>>,
  keyOf: (a: A) => Pagination.CursorKey,
  resolve: (a: A) => Effect.Effect<Option.Option<B>>,
  after: Pagination.CursorKey | undefined,
  limit: number
): Effect.Effect<Pagination.Page<B>> =>
  Effect.gen(function*() {
    const found: Array<readonly [A, B]> = []
    let cursor = after
    for (;;) {
      const page: Pagination.Page<A> = yield* fetch(cursor, limit + 1)
      for (const item of page.items) {
        const visible = yield* resolve(item)
        if (Option.isSome(visible)) found.push([item, visible.value])
        if (found.length > limit) {
          return {
            items: found.slice(0, limit).map(([, b]) => b),
            next: yield* Pagination.encodeCursor(keyOf(found[limit - 1]![0]))
          }
        }
      }
      const last = page.items.at(-1)
      if (page.next === undefined || last === undefined) return { items: found.map(([, b]) => b) }
      cursor = keyOf(last)
    }
  })

/** The live spaces and the collections directly in `parentId` (null: the organization's root), in order. */
export const loadSiblings = (
  spaces: SpacesRepoShape,
  collections: CollectionsRepoShape,
  organizationId: string,
  parentId: string | null
): Effect.Effect<ReadonlyArray<Sibling>> =>
  Effect.gen(function*() {
    const inSpaces = yield* allPages((after, limit) => spaces.list({ organizationId, parentId }, after, limit), spaceKey)
    const inCollections = yield* allPages(
      (after, limit) => collections.list({ organizationId, parentId }, after, limit),
      collectionKey
    )
    return sortSiblings([
      ...inSpaces.map((s) => ({ type: "space" as const, id: s.id, position: s.position, createdAt: s.createdAt })),
      ...inCollections.map((c) => ({ type: "collection" as const, id: c.id, position: c.position, createdAt: c.createdAt }))
    ])
  })

/** Where content may go: a collection of the organization, or its root (null). */
export interface Destination {
  readonly collection: Collection | null
  readonly permissions: Access.CollectionPermissions
}

/**
 * The destination `parentId` in the organization, with the caller's permissions there (at the
 * root, those the organization role gives). A collection the caller cannot see, or one of
 * another organization, is an InvalidInput on `field`: it does not exist as far as they know.
 */
export const destination = Effect.fnUntraced(function*(
  collections: CollectionsRepoShape,
  resolver: OrganizationAccessResolver,
  organizationId: string,
  parentId: string | null,
  field: string
): Effect.fn.Return<Destination, Errors.InvalidInput> {
  if (parentId === null) {
    const role = Access.effectiveRole(Option.getOrNull(resolver.organizationRole), [])
    return { collection: null, permissions: Access.collectionPermissions(role) }
  }
  const found = yield* collections.find(parentId)
  const missing = new Errors.InvalidInput({
    field,
    reason: `collection ${JSON.stringify(parentId)} does not exist in this organization`
  })
  if (Option.isNone(found) || found.value.organizationId !== organizationId) return yield* missing
  const access = yield* resolver.ofCollection(found.value)
  if (!access.permissions.view) return yield* missing
  return { collection: found.value, permissions: access.permissions }
})

/** `title` followed by `suffix`, the title shortened (whole characters) to keep within `max` UTF-16 units. */
export const withSuffix = (title: string, suffix: string, max: number): string => {
  let base = ""
  for (const char of title) {
    if (base.length + char.length + suffix.length > max) break
    base += char
  }
  return `${base.trimEnd()}${suffix}`
}

/** `in-collection` means something only for spaces in a collection; at the root such a space becomes private. */
export const visibilityAt = (visibility: Visibility, parentId: string | null): Visibility =>
  parentId === null && visibility === "in-collection" ? "private" : visibility

/**
 * The resolver of the caller (or of the member `userId`) in an organization they belong to;
 * NotFound (the organization, or the member) otherwise.
 */
export const memberResolver = Effect.fnUntraced(function*(access: ContentAccessShape, organizationId: string, userId?: string) {
  const resolver = yield* access.inOrganization(organizationId, userId)
  if (Option.isNone(resolver.organizationRole)) {
    return yield* new Errors.NotFound({ resource: userId === undefined ? "Organization" : "Member", id: userId ?? organizationId })
  }
  return resolver
})

/**
 * Places a moved space or collection among the siblings of `parentId` (its new parent, or its
 * own) at `position`, and writes the siblings' positions that change to make room; answers the
 * mover's new position. InvalidInput when the move would leave it where it is.
 */
export const reposition = Effect.fnUntraced(function*(
  spaces: SpacesRepoShape,
  collections: CollectionsRepoShape,
  mover: { readonly type: "space" | "collection"; readonly id: string; readonly organizationId: string; readonly parentId: string | null },
  parentId: string | null,
  position: ContentPosition | undefined,
  at: Date,
  endPosition: (now: number) => number
): Effect.fn.Return<number, Errors.InvalidInput> {
  const siblings = yield* loadSiblings(spaces, collections, mover.organizationId, parentId)
  const isMover = (s: Sibling) => s.type === mover.type && s.id === mover.id
  const placement = yield* place(mover, siblings.filter((s) => !isMover(s)), position, at.getTime(), endPosition)
  if (parentId === mover.parentId && placement.index === siblings.findIndex(isMover)) {
    return yield* new Errors.InvalidInput({ reason: `the ${mover.type} is already there: the move would change nothing` })
  }
  for (const sibling of placement.renumbered) {
    yield* sibling.type === "space"
      ? spaces.update(sibling.id, { position: sibling.position })
      : collections.update(sibling.id, { position: sibling.position })
  }
  return placement.position
})

/**
 * The checks of a transfer of a space or collection from organization `from` to `to`: another
 * organization, where the caller is an admin (InvalidInput on `organization` otherwise).
 */
export const ensureTransferTarget = Effect.fnUntraced(function*(
  access: ContentAccessShape,
  kind: "space" | "collection",
  from: string,
  to: string
) {
  if (to === from) {
    return yield* new Errors.InvalidInput({
      field: "organization",
      reason: `the ${kind} already belongs to this organization: the transfer would change nothing`
    })
  }
  const role = yield* access.organizationRole(to)
  if (Option.isNone(role) || role.value !== "admin") {
    return yield* new Errors.InvalidInput({
      field: "organization",
      reason: `you must be an admin of organization ${JSON.stringify(to)} to transfer ${kind}s to it`
    })
  }
})
