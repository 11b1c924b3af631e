/** The caller of a use case, for tests that call services directly. */
import { Effect } from "effect"
import { Actor } from "@quire/kernel"

/** Runs `self` as the user `userId` (not an instance administrator). */
export const as = (userId: string) => Effect.provideService(Actor.Actor, { userId, instanceAdmin: false })

/** Runs `self` as the instance administrator `userId`. */
export const asInstanceAdmin = (userId: string) => Effect.provideService(Actor.Actor, { userId, instanceAdmin: true })
