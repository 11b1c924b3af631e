/**
 * Use cases on spaces: creation (with an empty first revision), settings, listings, the trash
 * (soft delete, restore within 7 days, purge), duplication, moves and transfers.
 */
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import { Actor, Errors, Ids, Pagination, Roles, Transactor } from "@quire/kernel"
import * as Access from "./Access.ts"
import { CollectionsRepo } from "./CollectionsRepo.ts"
import { ContentAccess, type SpaceAccess } from "./ContentAccess.ts"
import { flattenPages, type Revision } from "./domain/Revision.ts"
import type { DefaultLevel, EditMode, Language, MergeRules, Space, Visibility } from "./domain/Space.ts"
import { MainObservers } from "./MainObservers.ts"
import { PermissionsRepo } from "./PermissionsRepo.ts"
import { type ContentPosition, endPosition, place } from "./Placement.ts"
import { RevisionsRepo } from "./RevisionsRepo.ts"
import { SearchIndex } from "./SearchIndex.ts"
import { StorageUsageRepo } from "./StorageUsageRepo.ts"
import { SpaceDependents } from "./SpaceDependents.ts"
import { spaceKey, spaceKeyShape, type SpacePatch, SpacesRepo } from "./SpacesRepo.ts"
import { destination, loadSiblings, visibilityAt, visiblePage, withSuffix } from "./Tree.ts"

type Denied = Errors.NotFound | Errors.Forbidden

export interface CreateSpaceInput {
  readonly title?: string | undefined
  readonly emoji?: string | undefined
  /** The parent collection; absent: the organization's root. */
  readonly parent?: string | undefined
  readonly language?: Language | undefined
  readonly editMode?: EditMode | undefined
}

export interface SpaceUpdate {
  readonly title?: string | undefined
  /** null removes the emoji. */
  readonly emoji?: string | null | undefined
  readonly editMode?: EditMode | undefined
  readonly defaultLevel?: DefaultLevel | undefined
  readonly language?: Language | null | undefined
  readonly visibility?: Visibility | undefined
  readonly mergeRules?: MergeRules | undefined
}

export interface MoveInput {
  /** The new parent collection, null for the organization's root; absent keeps the parent. */
  readonly parent?: string | null | undefined
  readonly position?: ContentPosition | undefined
}

/** A space another member can access, with their role on it (the space as the caller sees it). */
export interface MemberSpace {
  readonly permission: Roles.MemberRole
  readonly space: SpaceAccess
}

export interface MemberSpacesRequest extends Pagination.PageRequest {
  readonly order?: Pagination.Order | undefined
}

export interface SpacesShape {
  readonly create: (organizationId: string, input: CreateSpaceInput) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** The organization's spaces the caller can see, in order. */
  readonly list: (organizationId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SpaceAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The spaces directly in a collection that the caller can see. */
  readonly listInCollection: (collectionId: string, page: Pagination.PageRequest) => Effect.Effect<Pagination.Page<SpaceAccess>, Errors.NotFound | Errors.InvalidInput, Actor.Actor>
  /** The spaces a member can access (among those the caller can see), with the member's role. */
  readonly listForMember: (organizationId: string, userId: string, page: MemberSpacesRequest) => Effect.Effect<Pagination.Page<MemberSpace>, Denied | Errors.InvalidInput, Actor.Actor>
  /**
   * A space the caller can see. `shareKey` only resolves published URLs of share-link content
   * (as in GitBook); it never grants access.
   */
  readonly get: (spaceId: string, options?: { readonly shareKey?: string | undefined }) => Effect.Effect<SpaceAccess, Errors.NotFound, Actor.Actor>
  readonly update: (spaceId: string, update: SpaceUpdate) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Moves the space to the trash; nothing happens when it does not exist (as far as the caller knows). */
  readonly remove: (spaceId: string) => Effect.Effect<void, Errors.Forbidden, Actor.Actor>
  /** Takes the space out of the trash, within `trashRetention` of its deletion. */
  readonly restore: (spaceId: string) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** A new space "<title> (copy)" beside the source, whose first revision shares the source's content. */
  readonly duplicate: (spaceId: string) => Effect.Effect<SpaceAccess, Denied, Actor.Actor>
  readonly move: (spaceId: string, input: MoveInput) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Moves the space to the root of another organization where the caller is an admin. */
  readonly transfer: (spaceId: string, organizationId: string) => Effect.Effect<SpaceAccess, Denied | Errors.InvalidInput, Actor.Actor>
  /** Removes for good the spaces in the trash for longer than `trashRetention`, with their revisions; answers how many. */
  readonly purgeDeleted: Effect.Effect<number>
}

/** How long a deleted space stays restorable before it is removed for good. */
export const trashRetention = Duration.days(7)

const purgeBatch = 100

/** GitBook's merge rules that Quire cannot evaluate: there are no agents, and change requests have no description. */
const unsupportedMergeRules: Readonly<Record<string, string>> = {
  require_agent_review: "Quire has no review agents",
  require_change_request_description: "Quire's change requests have no description"
}

/** Merge rules Quire can enforce, each rule once; a 400 names the rule that is not. */
const checkMergeRules = (rules: MergeRules): Effect.Effect<void, Errors.InvalidInput> => {
  if (rules.type !== "rules") return Effect.void
  const seen = new Set<string>()
  for (const [index, rule] of rules.rules.entries()) {
    const field = `mergeRules.rules[${index}]`
    const unsupported = unsupportedMergeRules[rule.rule]
    if (unsupported !== undefined) {
      return Effect.fail(new Errors.InvalidInput({ field, reason: `${rule.rule} is not supported: ${unsupported}` }))
    }
    if (seen.has(rule.rule)) return Effect.fail(new Errors.InvalidInput({ field, reason: `${rule.rule} is given twice` }))
    seen.add(rule.rule)
    if ("users" in rule && rule.rule !== "allow_bypass" && rule.users.length === 0) {
      return Effect.fail(new Errors.InvalidInput({ field: `${field}.users`, reason: `${rule.rule} needs at least one user` }))
    }
  }
  return Effect.void
}

export class Spaces extends Context.Service<Spaces, SpacesShape>()("@quire/content/Spaces") {
  static readonly layer = Layer.effect(
    Spaces,
    Effect.gen(function*() {
      const repo = yield* SpacesRepo
      const collections = yield* CollectionsRepo
      const revisions = yield* RevisionsRepo
      const searchIndex = yield* SearchIndex
      const usage = yield* StorageUsageRepo
      const dependents = yield* SpaceDependents
      const grants = yield* PermissionsRepo
      const access = yield* ContentAccess
      const ids = yield* Ids.Ids
      const transactor = yield* Transactor.Transactor
      const observers = yield* MainObservers
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      /** Tells the observers once a change of the space's record has landed (published sites show it). */
      const observed = <A, E, R, Args extends [string, ...Array<unknown>]>(use: (...args: Args) => Effect.Effect<A, E, R>) =>
      (...args: Args): Effect.Effect<A, E, R> =>
        Effect.tap(use(...args), () => observers.spaceChanged?.(args[0]) ?? Effect.void)

      const organization = Effect.fnUntraced(function*(organizationId: string, userId?: string) {
        const resolver = yield* access.inOrganization(organizationId, userId)
        if (Option.isNone(resolver.organizationRole)) {
          return yield* new Errors.NotFound({ resource: userId === undefined ? "Organization" : "Member", id: userId ?? organizationId })
        }
        return resolver
      })

      const updated = Effect.fnUntraced(function*(spaceId: string, patch: SpacePatch) {
        const space = yield* repo.update(spaceId, patch)
        if (Option.isNone(space)) return yield* new Errors.NotFound({ resource: "Space", id: spaceId })
        return yield* access.ofSpace(space.value)
      })

      const create = Effect.fn("Spaces.create")(function*(organizationId: string, input: CreateSpaceInput) {
        const resolver = yield* organization(organizationId)
        const parentId = input.parent ?? null
        const target = yield* destination(collections, resolver, organizationId, parentId, "parent")
        yield* Access.ensure(target.permissions.create, target.collection === null
          ? "create spaces in this organization"
          : "create spaces in this collection")
        const createdAt = yield* now
        const spaceId = yield* ids.make
        const revision: Revision = {
          id: yield* ids.make,
          spaceId,
          parents: [],
          type: "edits",
          pages: [],
          files: [],
          variables: {},
          git: null,
          createdAt
        }
        const space: Space = {
          id: spaceId,
          organizationId,
          parentId,
          title: input.title ?? "Untitled",
          emoji: input.emoji ?? "",
          visibility: "private",
          editMode: input.editMode ?? "live",
          defaultLevel: "inherit",
          language: input.language ?? null,
          mergeRules: { type: "inherit" },
          position: endPosition(createdAt.getTime()),
          revisionId: revision.id,
          shareKey: yield* ids.make,
          createdAt,
          updatedAt: createdAt,
          deletedAt: null
        }
        yield* revisions.insert(revision, new Map())
        yield* repo.insert(space)
        return yield* resolver.ofSpace(space)
      }, transactor.transaction)

      const list = Effect.fn("Spaces.list")(function*(organizationId: string, page: Pagination.PageRequest) {
        const resolver = yield* organization(organizationId)
        const after = yield* Pagination.afterOf(page, spaceKeyShape)
        return yield* visiblePage(
          (cursor, limit) => repo.list({ organizationId }, cursor, limit),
          spaceKey,
          (space) => Effect.map(resolver.ofSpace(space), (a) => a.permissions.view ? Option.some(a) : Option.none()),
          after,
          Pagination.limitOf(page)
        )
      })

      const listInCollection = Effect.fn("Spaces.listInCollection")(function*(collectionId: string, page: Pagination.PageRequest) {
        const { collection } = yield* access.collection(collectionId)
        const resolver = yield* access.inOrganization(collection.organizationId)
        const after = yield* Pagination.afterOf(page, spaceKeyShape)
        return yield* visiblePage(
          (cursor, limit) => repo.list({ organizationId: collection.organizationId, parentId: collection.id }, cursor, limit),
          spaceKey,
          (space) => Effect.map(resolver.ofSpace(space), (a) => a.permissions.view ? Option.some(a) : Option.none()),
          after,
          Pagination.limitOf(page)
        )
      })

      const listForMember = Effect.fn("Spaces.listForMember")(function*(
        organizationId: string,
        userId: string,
        page: MemberSpacesRequest
      ) {
        const actor = yield* Actor.Actor
        const caller = yield* organization(organizationId)
        if (actor.userId !== userId) {
          yield* Access.ensure(Roles.atLeast(Option.getOrNull(caller.organizationRole), "read"), "list the spaces of other members")
        }
        const member = yield* organization(organizationId, userId)
        const after = yield* Pagination.afterOf(page, spaceKeyShape)
        return yield* visiblePage(
          (cursor, limit) => repo.list({ organizationId, order: page.order ?? "desc" }, cursor, limit),
          spaceKey,
          (space) =>
            Effect.gen(function*() {
              const theirs = yield* member.ofSpace(space)
              const mine = yield* caller.ofSpace(space)
              return theirs.role !== null && theirs.permissions.view && mine.permissions.view
                ? Option.some({ permission: theirs.role, space: mine })
                : Option.none()
            }),
          after,
          Pagination.limitOf(page)
        )
      })

      const get = Effect.fn("Spaces.get")(function*(spaceId: string, _options?: { readonly shareKey?: string | undefined }) {
        return yield* access.space(spaceId)
      })

      const update = Effect.fn("Spaces.update")(function*(spaceId: string, input: SpaceUpdate) {
        const { space, permissions } = yield* access.space(spaceId)
        yield* Access.ensure(permissions.admin, "change this space's settings")
        if (input.visibility === "in-collection" && space.parentId === null) {
          return yield* new Errors.InvalidInput({
            field: "visibility",
            reason: "in-collection is only for spaces in a collection"
          })
        }
        if (input.mergeRules !== undefined) yield* checkMergeRules(input.mergeRules)
        const patch: SpacePatch = {
          ...(input.title === undefined ? {} : { title: input.title }),
          ...(input.emoji === undefined ? {} : { emoji: input.emoji ?? "" }),
          ...(input.editMode === undefined ? {} : { editMode: input.editMode }),
          ...(input.defaultLevel === undefined ? {} : { defaultLevel: input.defaultLevel }),
          ...(input.language === undefined ? {} : { language: input.language }),
          ...(input.visibility === undefined ? {} : { visibility: input.visibility }),
          ...(input.mergeRules === undefined ? {} : { mergeRules: input.mergeRules }),
          updatedAt: yield* now
        }
        return yield* updated(spaceId, patch)
      })

      const remove = Effect.fn("Spaces.remove")(function*(spaceId: string) {
        const found = yield* Effect.option(access.space(spaceId))
        if (Option.isNone(found)) return
        yield* Access.ensure(found.value.permissions.admin, "delete this space")
        const at = yield* now
        yield* repo.update(spaceId, { deletedAt: at, updatedAt: at })
      })

      const restore = Effect.fn("Spaces.restore")(function*(spaceId: string) {
        const found = yield* access.space(spaceId, { includeDeleted: true })
        yield* Access.ensure(found.permissions.admin, "restore this space")
        const { space } = found
        if (space.deletedAt === null) return found
        const at = yield* now
        if (at.getTime() - space.deletedAt.getTime() > Duration.toMillis(trashRetention)) {
          return yield* new Errors.InvalidInput({
            reason: `Space ${JSON.stringify(spaceId)} was deleted more than 7 days ago and can no longer be restored`
          })
        }
        const parent = space.parentId === null ? Option.none() : yield* collections.find(space.parentId)
        const parentGone = space.parentId !== null &&
          (Option.isNone(parent) || parent.value.organizationId !== space.organizationId)
        return yield* updated(spaceId, {
          deletedAt: null,
          updatedAt: at,
          ...(parentGone ? { parentId: null, visibility: visibilityAt(space.visibility, null) } : {})
        })
      }, transactor.transaction)

      const duplicate = Effect.fn("Spaces.duplicate")(function*(spaceId: string) {
        const { space: source } = yield* access.space(spaceId)
        const resolver = yield* access.inOrganization(source.organizationId)
        // A caller who sees the space but not its collection cannot create anything there either.
        const canCreate = yield* destination(collections, resolver, source.organizationId, source.parentId, "parent").pipe(
          Effect.map((target) => target.permissions.create),
          Effect.orElseSucceed(() => false)
        )
        yield* Access.ensure(canCreate, "create spaces where this space is")
        const createdAt = yield* now
        const copyId = yield* ids.make
        const content = yield* revisions.find(source.revisionId)
        const revision: Revision = {
          id: yield* ids.make,
          spaceId: copyId,
          parents: [],
          type: "edits",
          pages: Option.match(content, { onNone: () => [], onSome: (r) => r.pages }),
          files: Option.match(content, { onNone: () => [], onSome: (r) => r.files }),
          variables: Option.match(content, { onNone: () => ({}), onSome: (r) => r.variables }),
          git: null,
          createdAt
        }
        const copy: Space = {
          ...source,
          id: copyId,
          title: withSuffix(source.title, " (copy)", 50),
          position: endPosition(createdAt.getTime()),
          revisionId: revision.id,
          shareKey: yield* ids.make,
          createdAt,
          updatedAt: createdAt,
          deletedAt: null
        }
        // The documents are content-addressed and already stored: the new revision only points at them.
        const shared = flattenPages(revision.pages).flatMap(({ page }) => (page.document === undefined ? [] : [page.document]))
        yield* revisions.insert(revision, new Map(), shared)
        // The copy holds its files' blobs too: they stay counted, once, while either space holds them.
        const blobs = new Map(revision.files.map((f) => [f.blob, f.size]))
        yield* usage.hold(copy.organizationId, copyId, Array.from(blobs, ([blob, size]) => ({ blob, size })), Number.MAX_SAFE_INTEGER)
        yield* repo.insert(copy)
        // Same pages, same paths: the copy's search entries are the source's.
        yield* searchIndex.copySpace(source.id, copyId)
        return yield* resolver.ofSpace(copy)
      }, transactor.transaction)

      const move = Effect.fn("Spaces.move")(function*(spaceId: string, input: MoveInput) {
        const { space, permissions } = yield* access.space(spaceId)
        yield* Access.ensure(permissions.admin, "move this space")
        if (input.parent === undefined && input.position === undefined) {
          return yield* new Errors.InvalidInput({ reason: "give a parent or a position to move the space to" })
        }
        const parentId = input.parent === undefined ? space.parentId : input.parent
        if (parentId !== space.parentId) {
          const resolver = yield* access.inOrganization(space.organizationId)
          const target = yield* destination(collections, resolver, space.organizationId, parentId, "parent")
          yield* Access.ensure(target.permissions.create, "move spaces there")
        }
        const siblings = yield* loadSiblings(repo, collections, space.organizationId, parentId)
        const others = siblings.filter((s) => !(s.type === "space" && s.id === spaceId))
        const at = yield* now
        const placement = yield* place({ type: "space", id: spaceId }, others, input.position, at.getTime())
        if (parentId === space.parentId && placement.index === siblings.findIndex((s) => s.type === "space" && s.id === spaceId)) {
          return yield* new Errors.InvalidInput({ reason: "the space is already there: the move would change nothing" })
        }
        for (const sibling of placement.renumbered) {
          yield* sibling.type === "space"
            ? repo.update(sibling.id, { position: sibling.position })
            : collections.update(sibling.id, { position: sibling.position })
        }
        return yield* updated(spaceId, {
          parentId,
          position: placement.position,
          visibility: visibilityAt(space.visibility, parentId),
          updatedAt: at
        })
      }, transactor.transaction)

      const transfer = Effect.fn("Spaces.transfer")(function*(spaceId: string, organizationId: string) {
        const { space, permissions } = yield* access.space(spaceId)
        yield* Access.ensure(permissions.admin, "transfer this space")
        if (organizationId === space.organizationId) {
          return yield* new Errors.InvalidInput({
            field: "organization",
            reason: "the space already belongs to this organization: the transfer would change nothing"
          })
        }
        const role = yield* access.organizationRole(organizationId)
        if (Option.isNone(role) || role.value !== "admin") {
          return yield* new Errors.InvalidInput({
            field: "organization",
            reason: `you must be an admin of organization ${JSON.stringify(organizationId)} to transfer spaces to it`
          })
        }
        const at = yield* now
        // Its files now count against the organization it joins; its grants were to people of the one it leaves.
        yield* usage.moveSpace(spaceId, organizationId)
        yield* grants.removeTarget({ kind: "space", id: spaceId })
        return yield* updated(spaceId, {
          organizationId,
          parentId: null,
          position: endPosition(at.getTime()),
          visibility: visibilityAt(space.visibility, null),
          updatedAt: at
        })
      }, transactor.transaction)

      const purgeDeleted = Effect.gen(function*() {
        const cutoff = new Date((yield* Clock.currentTimeMillis) - Duration.toMillis(trashRetention))
        let purged = 0
        for (;;) {
          const batch = yield* repo.listDeletedBefore(cutoff, purgeBatch)
          for (const space of batch) {
            // Everything of the space, in every package, or nothing.
            yield* transactor.transaction(Effect.all([
              dependents.removeSpace(space.id),
              revisions.removeForSpace(space.id),
              usage.releaseSpace(space.id),
              grants.removeTarget({ kind: "space", id: space.id }),
              searchIndex.removeSpace(space.id),
              repo.remove(space.id)
            ], { discard: true }))
          }
          purged += batch.length
          if (batch.length < purgeBatch) return purged
        }
      }).pipe(Effect.withSpan("Spaces.purgeDeleted"))

      return Spaces.of({
        create,
        list,
        listInCollection,
        listForMember,
        get,
        update: observed(update),
        remove: observed(remove),
        restore: observed(restore),
        duplicate,
        move: observed(move),
        transfer: observed(transfer),
        purgeDeleted
      })
    })
  )
}
