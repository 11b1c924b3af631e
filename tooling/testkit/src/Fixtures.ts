/** The fixtures the use-case tests of the domain packages share: who has which role, and how a call failed. */
import { Effect } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { Errors, type Roles } from "@quire/kernel"

/**
 * The roles of the test users, for `Memberships.layerTest`: per organization, each user's role
 * (null: a member without one); users not named are outsiders.
 */
export const memberRoles = (
  byOrganization: Readonly<Record<string, Readonly<Record<string, Roles.MemberRole | null>>>>
): Map<string, Roles.MemberRole | null> =>
  new Map(
    Object.entries(byOrganization).flatMap(([organizationId, users]) =>
      Object.entries(users).map(([userId, role]) => [`${organizationId}/${userId}`, role] as const)
    )
  )

/** The kind of common error an effect fails with (`NotFound`, `Forbidden`, `InvalidInput`, `Conflict`), else the error as text. */
export const errorTag = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<string, A, R> =>
  Effect.map(Effect.flip(self), (e) =>
    e instanceof Errors.NotFound
      ? "NotFound"
      : e instanceof Errors.Forbidden
      ? "Forbidden"
      : e instanceof Errors.InvalidInput
      ? "InvalidInput"
      : e instanceof Errors.Conflict
      ? "Conflict"
      : String(e))

/** The message of the error an effect fails with. */
export const errorMessage = <A, E extends { readonly message: string }, R>(self: Effect.Effect<A, E, R>): Effect.Effect<string, A, R> =>
  Effect.map(Effect.flip(self), (e) => e.message)

/** The files under folder `root`, by path relative to it after `prefix`, in name order (what a zip of the folder holds). */
export const filesOfFolder = (root: string, prefix = ""): Record<string, Uint8Array> => {
  const files: Record<string, Uint8Array> = {}
  const walk = (at: string, rel: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path, `${rel}${name}/`)
      else files[`${rel}${name}`] = readFileSync(path)
    }
  }
  walk(root, prefix)
  return files
}
