/**
 * Port: what sign-in keeps: people's password hashes (argon2id, never the password), their
 * sign-in sessions (one row each, the cookie carrying only a signed id), and the sign-in attempts
 * counted per key (an email, an address) in fixed windows.
 */
import { Context, Effect, Layer, Option } from "effect"
import { compareCodePoints } from "@quire/kernel"
import { IdentityMemory } from "../IdentityMemory.ts"
import type { AttemptCount, SessionRow } from "./SignInRows.ts"

export type { AttemptCount, SessionMethod, SessionRow } from "./SignInRows.ts"

export interface SignInRepoShape {
  readonly findPassword: (userId: string) => Effect.Effect<Option.Option<string>>
  /** Sets (or replaces) the user's password hash. */
  readonly setPassword: (userId: string, hash: string, at: Date) => Effect.Effect<void>
  /** Whether some instance administrator has a password (first-run setup is then closed). */
  readonly adminHasPassword: Effect.Effect<boolean>
  /** Stores a new session, forgetting its person's sessions that expired before `row.createdAt`. */
  readonly insertSession: (row: SessionRow) => Effect.Effect<void>
  readonly findSession: (id: string) => Effect.Effect<Option.Option<SessionRow>>
  /** Records the session's use at `at`, unless one was recorded at or after `notBefore`. */
  readonly touchSession: (id: string, at: Date, notBefore: Date) => Effect.Effect<void>
  /** The user's sessions neither revoked nor expired at `now`, newest first. */
  readonly listSessions: (userId: string, now: Date) => Effect.Effect<ReadonlyArray<SessionRow>>
  /** Revokes the user's session `id` (false: no such live session of theirs). */
  readonly revokeSession: (userId: string, id: string, at: Date) => Effect.Effect<boolean>
  /** Revokes every live session of the user but `except`; answers how many. */
  readonly revokeOtherSessions: (userId: string, except: string | undefined, at: Date) => Effect.Effect<number>
  /** The attempts counted for `key` in its window at `now` (0 when its window ended). */
  readonly countAttempts: (key: string, now: Date) => Effect.Effect<AttemptCount>
  /** Counts one attempt for `key`: in its window, or in a new one ending at `now + windowMs`. */
  readonly addAttempt: (key: string, now: Date, windowMs: number) => Effect.Effect<AttemptCount>
  /** Forgets the attempts counted for `key`. */
  readonly clearAttempts: (key: string) => Effect.Effect<void>
  /** Deletes sessions expired at `now` or revoked before `revokedBefore`, and ended attempt windows; answers how many sessions. */
  readonly purge: (now: Date, revokedBefore: Date) => Effect.Effect<number>
}

const newestFirst = (a: SessionRow, b: SessionRow) =>
  b.createdAt.getTime() - a.createdAt.getTime() || compareCodePoints(b.id, a.id)

const live = (row: SessionRow, now: Date) => row.revokedAt === null && row.expiresAt > now

export class SignInRepo extends Context.Service<SignInRepo, SignInRepoShape>()("@quire/identity/SignInRepo") {
  static readonly layerMemory = Layer.effect(
    SignInRepo,
    Effect.map(Effect.service(IdentityMemory), (store) =>
      SignInRepo.of({
        findPassword: (userId) => Effect.sync(() => Option.fromNullishOr(store.passwords.get(userId))),
        setPassword: (userId, hash) => Effect.sync(() => void store.passwords.set(userId, hash)),
        adminHasPassword: Effect.sync(() =>
          Array.from(store.users.values()).some((user) => user.instanceAdmin && store.passwords.has(user.id))
        ),
        insertSession: (row) =>
          Effect.sync(() => {
            for (const [id, old] of store.sessions) {
              if (old.userId === row.userId && old.expiresAt <= row.createdAt) store.sessions.delete(id)
            }
            store.sessions.set(row.id, row)
          }),
        findSession: (id) => Effect.sync(() => Option.fromNullishOr(store.sessions.get(id))),
        touchSession: (id, at, notBefore) =>
          Effect.sync(() => {
            const row = store.sessions.get(id)
            if (row !== undefined && row.lastSeenAt < notBefore) store.sessions.set(id, { ...row, lastSeenAt: at })
          }),
        listSessions: (userId, now) =>
          Effect.sync(() =>
            Array.from(store.sessions.values()).filter((row) => row.userId === userId && live(row, now)).toSorted(newestFirst)
          ),
        revokeSession: (userId, id, at) =>
          Effect.sync(() => {
            const row = store.sessions.get(id)
            if (row === undefined || row.userId !== userId || !live(row, at)) return false
            store.sessions.set(id, { ...row, revokedAt: at })
            return true
          }),
        revokeOtherSessions: (userId, except, at) =>
          Effect.sync(() => {
            let revoked = 0
            for (const row of Array.from(store.sessions.values())) {
              if (row.userId !== userId || row.id === except || !live(row, at)) continue
              store.sessions.set(row.id, { ...row, revokedAt: at })
              revoked++
            }
            return revoked
          }),
        countAttempts: (key, now) =>
          Effect.sync(() => {
            const found = store.attempts.get(key)
            return found === undefined || found.resetAt <= now ? { count: 0, resetAt: now } : found
          }),
        addAttempt: (key, now, windowMs) =>
          Effect.sync(() => {
            const found = store.attempts.get(key)
            const next = found === undefined || found.resetAt <= now
              ? { count: 1, resetAt: new Date(now.getTime() + windowMs) }
              : { count: found.count + 1, resetAt: found.resetAt }
            store.attempts.set(key, next)
            return next
          }),
        clearAttempts: (key) => Effect.sync(() => void store.attempts.delete(key)),
        purge: (now, revokedBefore) =>
          Effect.sync(() => {
            let purged = 0
            for (const [id, row] of Array.from(store.sessions)) {
              if (row.expiresAt <= now || (row.revokedAt !== null && row.revokedAt < revokedBefore)) {
                store.sessions.delete(id)
                purged++
              }
            }
            for (const [key, count] of Array.from(store.attempts)) if (count.resetAt <= now) store.attempts.delete(key)
            return purged
          })
      }))
  )
}
