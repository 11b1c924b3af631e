/**
 * Restoring a past revision of the main content through a change request: one transaction opens a
 * draft on the current main content and writes that revision's whole content into it (pages with
 * their kinds, groups and links, descriptions and metadata, files, variables, reusable contents),
 * so the review shows exactly what the restore changes and merging it makes main read as it did.
 */
import { Effect } from "effect"
import { Access } from "@quire/content"
import type { CreateInput } from "./ChangeRequestTypes.ts"
import type { Branch } from "./Branch.ts"
import type { lifecycle } from "./Lifecycle.ts"

export const restoring = (branch: Branch, create: ReturnType<typeof lifecycle>["create"]) => {
  const { content, transactor, commitTo } = branch

  const restore = Effect.fn("ChangeRequests.restore")(function*(spaceId: string, revisionId: string, input: CreateInput) {
    // A revision of another space, or of a space the caller cannot view, is NotFound.
    const found = yield* content.revisionOf(spaceId, revisionId)
    yield* Access.ensure(found.access.permissions.edit, "restore a revision of this space")
    const old = found.revision
    return yield* transactor.transaction(Effect.gen(function*() {
      const opened = yield* create(spaceId, input)
      const written = yield* commitTo(spaceId, opened.changeRequest.id, () =>
        Effect.succeed({
          pages: old.pages,
          files: old.files,
          variables: old.variables,
          reusableContents: old.reusableContents
        }))
      return { access: written.access, changeRequest: written.changeRequest, outdated: written.outdated }
    }))
  })

  return { restore }
}
