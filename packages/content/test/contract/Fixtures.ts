/** Records and helpers shared by the content contract suites. */
import { assert, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Pagination } from "@quire/kernel"
import type { CollectionsRepo } from "../../src/CollectionsRepo.ts"
import type { Collection, Space } from "../../src/domain/Space.ts"
import type { RevisionsRepo } from "../../src/RevisionsRepo.ts"
import type { SearchIndex } from "../../src/SearchIndex.ts"
import type { SpacesRepo } from "../../src/SpacesRepo.ts"

/** Every content port, as the backends under test provide them (one shared store). */
export type Repos = SpacesRepo | CollectionsRepo | RevisionsRepo | SearchIndex

/** The test registrar of a backend's shared layer: the suites register their tests with it. */
export type ReposTest = Vitest.MethodsNonLive<Repos>

const epoch = Date.UTC(2024, 0, 1)

/** A fixed instant, `ms` milliseconds after 2024-01-01T00:00:00Z. */
export const at = (ms: number): Date => new Date(epoch + ms)

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

/** The value of an option that the test expects to be present. */
export const some = <A>(option: Option.Option<A>): A => {
  assert.isTrue(Option.isSome(option), "expected a value, found none")
  return Option.getOrThrow(option)
}

export const assertNone = <A>(option: Option.Option<A>): void => {
  assert.isTrue(Option.isNone(option), `expected none, found ${JSON.stringify(option)}`)
}

/** Every page of a listing, following `next` cursors from the first page to the last. */
export const allPages = <A>(
  fetch: (after: Pagination.CursorKey | undefined) => Effect.Effect<Pagination.Page<A>>
): Effect.Effect<ReadonlyArray<ReadonlyArray<A>>> =>
  Effect.gen(function*() {
    const pages: Array<ReadonlyArray<A>> = []
    let after: Pagination.CursorKey | undefined = undefined
    for (;;) {
      const page: Pagination.Page<A> = yield* fetch(after)
      pages.push(page.items)
      if (page.next === undefined) return pages
      assert.isBelow(pages.length, 100, "pagination does not end")
      after = yield* Pagination.decodeCursor(page.next).pipe(Effect.orDie)
    }
  })

/** Ids without the test's prefix, to compare orders briefly. */
export const shortIds = (prefix: string, items: ReadonlyArray<{ readonly id: string }>) =>
  items.map((item) => item.id.slice(prefix.length + 1))
