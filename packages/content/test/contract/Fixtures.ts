/** Records and helpers shared by the content contract suites. */
import type { Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Transactor } from "@quire/kernel"
import { at } from "@quire/testkit"
import type { PassageVectors } from "../../src/ask/PassageVectors.ts"
import type { CollectionsRepo } from "../../src/CollectionsRepo.ts"
import type { PageNode, Revision } from "../../src/domain/Revision.ts"
import type { Collection, Space } from "../../src/domain/Space.ts"
import { RevisionsRepo } from "../../src/RevisionsRepo.ts"
import type { Head, HeadState } from "../../src/RevisionWriter.ts"
import type { ImportRunsRepo } from "../../src/ImportRunsRepo.ts"
import type { SearchIndex } from "../../src/SearchIndex.ts"
import { SpacesRepo } from "../../src/SpacesRepo.ts"
import type { StorageUsageRepo } from "../../src/StorageUsageRepo.ts"

/** Every content port and the Transactor, as the backends under test provide them (one shared store). */
export type Repos = SpacesRepo | CollectionsRepo | RevisionsRepo | SearchIndex | StorageUsageRepo | ImportRunsRepo | PassageVectors | Transactor.Transactor

/** The test registrar of a backend's shared layer: the suites register their tests with it. */
export type ReposTest = Vitest.MethodsNonLive<Repos>

export const makeSpace = (id: string, organizationId: string, overrides: Partial<Space> = {}): Space => ({
  id,
  organizationId,
  parentId: null,
  title: `Space ${id}`,
  emoji: "",
  visibility: "private",
  editMode: "live",
  defaultLevel: "inherit",
  language: null,
  mergeRules: { type: "inherit" },
  position: 0,
  revisionId: `${id}-r1`,
  shareKey: `${id}-key`,
  createdAt: at(0),
  updatedAt: at(0),
  deletedAt: null,
  ...overrides
})

export const makeCollection = (id: string, organizationId: string, overrides: Partial<Collection> = {}): Collection => ({
  id,
  organizationId,
  parentId: null,
  title: `Collection ${id}`,
  description: null,
  defaultLevel: "inherit",
  position: 0,
  createdAt: at(0),
  updatedAt: at(0),
  ...overrides
})

/** Ids without the test's prefix, to compare orders briefly. */
export const shortIds = (prefix: string, items: ReadonlyArray<{ readonly id: string }>) =>
  items.map((item) => item.id.slice(prefix.length + 1))

/**
 * A space `id` of `organizationId` on a first revision holding `pages` (and the `documents` they
 * point to), and the head of its main content for the RevisionWriter (outside search).
 */
export const spaceHead = Effect.fnUntraced(function*(
  id: string,
  organizationId: string,
  pages: ReadonlyArray<PageNode>,
  documents: ReadonlyMap<string, string> = new Map()
) {
  const spaces = yield* SpacesRepo
  const revisions = yield* RevisionsRepo
  const first: Revision = { id: `${id}-r1`, spaceId: id, parents: [], type: "edits", pages, files: [], variables: {}, git: null, createdAt: at(0) }
  yield* revisions.insert(first, documents)
  yield* spaces.insert(makeSpace(id, organizationId))
  const head: Head<HeadState> = {
    read: Effect.map(spaces.find(id), (space) => {
      const found = Option.getOrThrow(space)
      return { space: found, revisionId: found.revisionId }
    }),
    move: (state, next) => spaces.setRevision(id, state.revisionId, next.id, next.createdAt),
    main: false,
    describe: () => `space ${id}`
  }
  return { head, first }
})
