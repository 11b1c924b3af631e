/** Assertions on what ports and listings answer, shared by the contract suites. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Pagination } from "@quire/kernel"

/** The value of an option that the test expects to be present. */
export const some = <A>(option: Option.Option<A>): A => {
  assert.isTrue(Option.isSome(option), "expected a value, found none")
  return Option.getOrThrow(option)
}

/** Fails the test unless the option is empty. */
export const assertNone = <A>(option: Option.Option<A>): void => {
  assert.isTrue(Option.isNone(option), `expected none, found ${JSON.stringify(option)}`)
}

/** Every page of a keyset listing, following `next` cursors from the first page to the last. */
export const allPages = <A, E, R>(
  fetch: (after: Pagination.CursorKey | undefined) => Effect.Effect<Pagination.Page<A>, E, R>
): Effect.Effect<ReadonlyArray<ReadonlyArray<A>>, E, R> =>
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

/** The ids of every item of a keyset listing, in listing order across its pages. */
export const allIds = <A extends { readonly id: string }, E, R>(
  fetch: (after: Pagination.CursorKey | undefined) => Effect.Effect<Pagination.Page<A>, E, R>
): Effect.Effect<ReadonlyArray<string>, E, R> =>
  Effect.map(allPages(fetch), (pages) => pages.flatMap((items) => items.map((item) => item.id)))

const epoch = Date.UTC(2024, 0, 1)

/** A fixed instant, `ms` milliseconds after 2024-01-01T00:00:00Z. */
export const at = (ms: number): Date => new Date(epoch + ms)
