/** The signed-in person, as an atom every screen reads; refreshed after sign-in and sign-out. */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import { getSession } from "./auth.ts"

export const sessionAtom = Atom.make(Effect.promise(() => getSession())).pipe(Atom.keepAlive)
