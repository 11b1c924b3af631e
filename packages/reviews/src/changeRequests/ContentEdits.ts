/**
 * Use cases that edit a change request's content: a batch of changes, or a website imported as
 * pages; each is one new revision of the change request's branch.
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { Access } from "@quire/content"
import type { ChangeInput } from "../ChangeRequests.ts"
import { applyChanges } from "../ChangeSet.ts"
import type { BatchFiles } from "./BatchFiles.ts"
import type { Branch } from "./Branch.ts"

/** Changes in one batch. */
export const maxChanges = 50

/** Built by the ChangeRequests layer over the shared branch helpers and the batch files. */
export const contentEdits = (branch: Branch, batchFiles: BatchFiles) => {
  const { content, ids, now, resolve, commitTo } = branch

  const updateContent = Effect.fn("ChangeRequests.updateContent")(function*(
    spaceId: string,
    ref: string,
    changes: ReadonlyArray<ChangeInput>
  ) {
    if (changes.length === 0 || changes.length > maxChanges) {
      return yield* new Errors.InvalidInput({ field: "changes", reason: `a batch holds 1 to ${maxChanges} changes` })
    }
    // Refused before anything is stored.
    const found = yield* resolve(spaceId, ref)
    yield* Access.ensure(found.access.permissions.edit, "edit this change request's content")
    // Files by URL are fetched (after the access check) before anything is stored.
    const fetched = yield* batchFiles.fetchAll(changes)
    const { prepared, insertedFiles } = yield* batchFiles.store(found.access.space.organizationId, changes, fetched)
    const inserts = prepared.filter((change) => change.operation === "insert_page").length
    const result = yield* commitTo(spaceId, ref, (parent) =>
      Effect.gen(function*() {
        const fresh = yield* Effect.replicateEffect(ids.make, inserts)
        const at = (yield* now).toISOString()
        const applied = applyChanges(parent, prepared, { makeId: () => fresh.shift()!, now: at })
        if (applied.kind === "rejected") {
          const change = prepared[applied.value.index]!
          return yield* new Errors.InvalidInput({
            field: `changes[${applied.value.index}]`,
            reason: `${change.operation}: ${applied.value.reason}; no change of the batch was applied`
          })
        }
        return applied.value
      }))
    return { access: result.access, changeRequest: result.changeRequest, outdated: result.outdated, outcomes: result.change.outcomes, insertedFiles }
  })

  const importWebsite = Effect.fn("ChangeRequests.importWebsite")(function*(spaceId: string, ref: string, url: string) {
    // Checked before anything is fetched, so that nobody makes Quire fetch for content they cannot change.
    const found = yield* resolve(spaceId, ref)
    yield* Access.ensure(found.access.permissions.edit, "edit this change request's content")
    const site = yield* content.fetchWebsite(url)
    const result = yield* commitTo(spaceId, ref, site.build)
    return {
      changeRequest: result.changeRequest,
      revision: result.revision,
      importedResources: site.importedResources,
      totalResources: site.totalResources
    }
  })

  return { updateContent, importWebsite }
}
