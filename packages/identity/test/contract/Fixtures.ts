/** Records and helpers shared by the identity contract suites. */
import { assert, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Pagination } from "@quire/kernel"
import type { Organization, User } from "../../src/domain/Identity.ts"
import type { MembersRepo } from "../../src/MembersRepo.ts"
import type { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import type { SamlProvidersRepo } from "../../src/SamlProvidersRepo.ts"
import type { TeamsRepo } from "../../src/TeamsRepo.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"

/** Every identity port, as the backends under test provide them (one shared store). */
export type Repos = UsersRepo | OrganizationsRepo | MembersRepo | TeamsRepo | SamlProvidersRepo

/** The test registrar of a backend's shared layer: the suites register their tests with it. */
export type ReposTest = Vitest.MethodsNonLive<Repos>

const epoch = Date.UTC(2024, 0, 1)

/** A fixed instant, `ms` milliseconds after 2024-01-01T00:00:00Z. */
export const at = (ms: number): Date => new Date(epoch + ms)

export const makeUser = (id: string, overrides: Partial<User> = {}): User => ({
  id,
  email: `${id}@example.com`,
  displayName: id,
  photoURL: null,
  instanceAdmin: false,
  createdAt: at(0),
  ...overrides
})

export const makeOrganization = (id: string, createdAt: Date, overrides: Partial<Organization> = {}): Organization => ({
  id,
  title: `Organization ${id}`,
  createdAt,
  emailDomains: [],
  hostname: null,
  defaultRole: null,
  defaultContentSite: null,
  logo: null,
  sso: false,
  ai: false,
  inviteLinks: false,
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

/** Inserts users made by `makeUser`, one per id. */
export const insertUsers = (...ids: ReadonlyArray<string>) =>
  UsersRepo.use((users) => Effect.forEach(ids, (id) => users.insert(makeUser(id)), { discard: true })).pipe(Effect.orDie)
