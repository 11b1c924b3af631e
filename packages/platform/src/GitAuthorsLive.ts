/** Git sync's GitAuthors port, answered by the identity package: exports are authored with the user's name and email. */
import { Effect, Layer, Option } from "effect"
import { GitAuthors } from "@quire/gitsync"
import { UsersRepo } from "@quire/identity"

export const layer = Layer.effect(
  GitAuthors,
  Effect.gen(function*() {
    const users = yield* UsersRepo
    return {
      author: (userId: string) =>
        Effect.map(users.findById(userId), Option.match({
          onNone: () => ({ name: userId, email: `${userId}@users.quire.invalid` }),
          onSome: (user) => ({ name: user.displayName === "" ? user.email : user.displayName, email: user.email })
        }))
    }
  })
)
