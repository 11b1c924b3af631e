/**
 * What a caller's single sign-on scope lets it reach: a session or token obtained through
 * organization A's identity provider speaks for A only (docs/sso.md).
 */
import { Effect, Option } from "effect"
import { Actor, Errors } from "@quire/kernel"

/** Whether `actor` may reach `organizationId`: always, unless its scope is another organization. */
export const reaches = (actor: Actor.ActorShape, organizationId: string): boolean =>
  actor.scope === undefined || actor.scope === organizationId

/**
 * Whether the current caller, if any, may see `userId`'s standing in `organizationId`: a scoped
 * caller's own memberships outside its scope do not exist for it; other people's are unaffected.
 */
export const callerReaches = (organizationId: string, userId: string): Effect.Effect<boolean> =>
  Effect.map(Effect.serviceOption(Actor.Actor), (actor) =>
    Option.isNone(actor) || actor.value.userId !== userId || reaches(actor.value, organizationId))

/** Refuses a scoped caller what concerns every organization of the account (creating one, another's invites). */
export const ensureUnscoped = (actor: Actor.ActorShape, action: string): Effect.Effect<void, Errors.Forbidden> =>
  actor.scope === undefined
    ? Effect.void
    : Effect.fail(new Errors.Forbidden({ reason: `A single sign-on token of one organization cannot ${action}: use a token of your own account` }))
