/** Port: the name and email a user's exports are authored with (platform implements it over identity). */
import { Context, Effect, Layer } from "effect"
import type { GitAuthor } from "./GitTransport.ts"

export interface GitAuthorsShape {
  readonly author: (userId: string) => Effect.Effect<GitAuthor>
}

/** Required: platform answers it from identity; a composition without users says `GitAuthors.layerUserIds`. */
export class GitAuthors extends Context.Service<GitAuthors, GitAuthorsShape>()("@quire/gitsync/GitAuthors") {
  /** The user id as the name, at a non-routable address (Git sync's own tests). */
  static readonly layerUserIds = Layer.succeed(GitAuthors, GitAuthors.of({ author: (userId) => Effect.succeed({ name: userId, email: `${userId}@users.quire.invalid` }) }))
}
