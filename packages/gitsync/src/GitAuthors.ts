/** Port: the name and email a user's exports are authored with (platform implements it over identity). */
import { Context, Effect } from "effect"
import type { GitAuthor } from "./GitTransport.ts"

export interface GitAuthorsShape {
  readonly author: (userId: string) => Effect.Effect<GitAuthor>
}

/** By default the user id, at a non-routable address. */
export const GitAuthors = Context.Reference<GitAuthorsShape>("@quire/gitsync/GitAuthors", {
  defaultValue: () => ({ author: (userId) => Effect.succeed({ name: userId, email: `${userId}@users.quire.invalid` }) })
})
