/** Records and helpers shared by the identity contract suites. */
import type { Vitest } from "@effect/vitest"
import { Effect } from "effect"
import type { Transactor } from "@quire/kernel"
import { at } from "@quire/testkit"
import { newOrganization, type Organization, type User } from "../../src/domain/Identity.ts"
import type { AgentInstructionsRepo } from "../../src/AgentInstructionsRepo.ts"
import type { MembersRepo } from "../../src/MembersRepo.ts"
import type { NotificationSettingsRepo } from "../../src/NotificationSettingsRepo.ts"
import type { OidcProvidersRepo } from "../../src/OidcProvidersRepo.ts"
import type { OrganizationsRepo } from "../../src/OrganizationsRepo.ts"
import type { SamlSignInRepo } from "../../src/SamlSignInRepo.ts"
import type { SamlProvidersRepo } from "../../src/SamlProvidersRepo.ts"
import type { SignInRepo } from "../../src/signin/SignInRepo.ts"
import type { TeamsRepo } from "../../src/TeamsRepo.ts"
import { UsersRepo } from "../../src/UsersRepo.ts"

/** Every identity port, as the backends under test provide them (one shared store). */
export type Repos =
  | UsersRepo
  | OrganizationsRepo
  | MembersRepo
  | TeamsRepo
  | SamlProvidersRepo
  | OidcProvidersRepo
  | SamlSignInRepo
  | SignInRepo
  | NotificationSettingsRepo
  | AgentInstructionsRepo

/** The test registrar of a backend's shared layer (with its Transactor, for rollbacks). */
export type ReposTest = Vitest.MethodsNonLive<Repos | Transactor.Transactor>

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
  ...newOrganization({ id, title: `Organization ${id}`, createdAt, emailDomains: [] }),
  ...overrides
})

/** Inserts users made by `makeUser`, one per id. */
export const insertUsers = (...ids: ReadonlyArray<string>) =>
  UsersRepo.use((users) => Effect.forEach(ids, (id) => users.insert(makeUser(id)), { discard: true })).pipe(Effect.orDie)
