/** Use cases that make a space: an empty one, or a duplicate sharing its source's content. */
import { Effect, Option } from "effect"
import * as Access from "../Access.ts"
import { flattenPages, type Revision } from "../domain/Revision.ts"
import { reusableDocuments } from "../domain/ReusableContent.ts"
import type { Space } from "../domain/Space.ts"
import type { CreateSpaceInput } from "./SpaceTypes.ts"
import { destination, withSuffix } from "../Tree.ts"
import type { SpaceEdit } from "./SpaceEdit.ts"

export const spaceCreation = (edit: SpaceEdit) => {
  const { repo, collections, revisions, searchIndex, usage, access, ids, transactor, endPosition, now, organization } = edit

  /** The first revision of a new space: `content`'s pages, files and variables, or nothing. */
  const firstRevision = (spaceId: string, createdAt: Date, content: Option.Option<Revision>): Effect.Effect<Revision> =>
    Effect.map(ids.make, (id) => ({
      id,
      spaceId,
      parents: [],
      type: "edits",
      pages: Option.match(content, { onNone: () => [], onSome: (r) => r.pages }),
      files: Option.match(content, { onNone: () => [], onSome: (r) => r.files }),
      ...Option.match(content, { onNone: () => ({}), onSome: (r) => r.reusableContents === undefined ? {} : { reusableContents: r.reusableContents } }),
      variables: Option.match(content, { onNone: () => ({}), onSome: (r) => r.variables }),
      git: null,
      createdAt
    }))

  /** The fields a new space starts with: at the end of its siblings, on its first revision, with a share key of its own. */
  const freshFields = (createdAt: Date, revision: Revision) =>
    Effect.map(ids.make, (shareKey) => ({
      position: endPosition(createdAt.getTime()),
      revisionId: revision.id,
      shareKey,
      createdAt,
      updatedAt: createdAt,
      deletedAt: null
    }))

  const create = Effect.fn("Spaces.create")(function*(organizationId: string, input: CreateSpaceInput) {
    const resolver = yield* organization(organizationId)
    const parentId = input.parent ?? null
    const target = yield* destination(collections, resolver, organizationId, parentId, "parent")
    yield* Access.ensure(target.permissions.create, target.collection === null
      ? "create spaces in this organization"
      : "create spaces in this collection")
    const createdAt = yield* now
    const spaceId = yield* ids.make
    const revision = yield* firstRevision(spaceId, createdAt, Option.none())
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
      ...(yield* freshFields(createdAt, revision))
    }
    yield* revisions.insert(revision, new Map())
    yield* repo.insert(space)
    return yield* resolver.ofSpace(space)
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
    const revision = yield* firstRevision(copyId, createdAt, yield* revisions.find(source.revisionId))
    const copy: Space = {
      ...source,
      id: copyId,
      title: withSuffix(source.title, " (copy)", 50),
      ...(yield* freshFields(createdAt, revision))
    }
    // The documents are content-addressed and already stored: the new revision only points at them.
    const shared = [
      ...flattenPages(revision.pages).flatMap(({ page }) => (page.document === undefined ? [] : [page.document])),
      ...reusableDocuments(revision.reusableContents)
    ]
    yield* revisions.insert(revision, new Map(), shared)
    // The copy holds its files' blobs too: they stay counted, once, while either space holds them.
    const blobs = new Map(revision.files.map((f) => [f.blob, f.size]))
    yield* usage.hold(copy.organizationId, copyId, Array.from(blobs, ([blob, size]) => ({ blob, size })), Number.MAX_SAFE_INTEGER)
    yield* repo.insert(copy)
    // Same pages, same paths: the copy's search entries are the source's.
    yield* searchIndex.copySpace(source.id, copyId)
    return yield* resolver.ofSpace(copy)
  }, transactor.transaction)

  return { create, duplicate }
}
