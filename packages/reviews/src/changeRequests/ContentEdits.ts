/**
 * Use cases that edit a change request's content: a batch of changes, or a website imported as
 * pages; each is one new revision of the change request's branch.
 */
import { Effect } from "effect"
import { Errors } from "@quire/kernel"
import { Access, type PublishedContent } from "@quire/content"
import type { ChangeInput, FileUpload } from "./ChangeRequestTypes.ts"
import { applyChanges, type Change } from "../ChangeSet.ts"
import { describeConflicts, documentsToMerge, mergeOntoCurrent } from "./BaseMerge.ts"
import type { BatchFiles } from "./BatchFiles.ts"
import type { Branch } from "./Branch.ts"

/** Changes in one batch. */
export const maxChanges = 50

/** Built by the ChangeRequests layer over the shared branch helpers, the batch files and the stored documents. */
export const contentEdits = (branch: Branch, batchFiles: BatchFiles, published: PublishedContent["Service"]) => {
  const { content, ids, now, resolve, commitTo } = branch

  /** The revision of the space that a batch's edits started from. */
  const baseOf = (spaceId: string, revisionId: string) =>
    content.revisionById(revisionId).pipe(
      Effect.flatMap((revision) => revision.spaceId === spaceId ? Effect.succeed(revision) : Effect.fail(undefined)),
      Effect.catch(() => Effect.fail(new Errors.InvalidInput({ field: "baseRevision", reason: `${JSON.stringify(revisionId)} is not a revision of this space` })))
    )

  const updateContent = Effect.fn("ChangeRequests.updateContent")(function*(
    spaceId: string,
    ref: string,
    changes: ReadonlyArray<ChangeInput>,
    options: { readonly baseRevision?: string | undefined; readonly coauthors?: ReadonlyArray<string> | undefined; readonly live?: string | undefined } = {}
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
    const base = options.baseRevision === undefined ? undefined : yield* baseOf(spaceId, options.baseRevision)
    const result = yield* commitTo(spaceId, ref, (parent) =>
      Effect.gen(function*() {
        const fresh = yield* Effect.replicateEffect(ids.make, inserts)
        const at = (yield* now).toISOString()
        // Edits written against an older revision are merged with what changed since, never applied over it.
        let batch: ReadonlyArray<Change> = prepared
        if (base !== undefined && base.id !== parent.id) {
          const merged = mergeOntoCurrent(prepared, base, parent, yield* published.documents(documentsToMerge(prepared, base, parent)))
          if (merged.conflicts.length > 0) return yield* new Errors.Conflict({ reason: describeConflicts(merged.conflicts, base.id) })
          batch = merged.changes
        }
        const applied = applyChanges(parent, batch, { makeId: () => fresh.shift()!, now: at })
        if (applied.kind === "rejected") {
          const change = batch[applied.value.index]!
          return yield* new Errors.InvalidInput({
            field: `changes[${applied.value.index}]`,
            reason: `${change.operation}: ${applied.value.reason}; no change of the batch was applied`
          })
        }
        return applied.value
      }), options.coauthors, options.live)
    return { access: result.access, changeRequest: result.changeRequest, outdated: result.outdated, outcomes: result.change.outcomes, insertedFiles }
  })

  const importWebsite = Effect.fn("ChangeRequests.importWebsite")(function*(spaceId: string, ref: string, url: string) {
    // Checked before anything is fetched, so that nobody makes Quire fetch for content they cannot change.
    const found = yield* resolve(spaceId, ref)
    yield* Access.ensure(found.access.permissions.edit, "edit this change request's content")
    const site = yield* content.fetchWebsite(url)
    const result = yield* commitTo(spaceId, ref, (parent) => site.build(parent))
    return {
      changeRequest: result.changeRequest,
      revision: result.revision,
      importedResources: site.importedResources,
      totalResources: site.totalResources
    }
  })

  const uploadFile = <E>(spaceId: string, ref: string, file: FileUpload<E>) =>
    Effect.gen(function*() {
      // Refused (a reader, a merged change request, another organization's) before a byte is read.
      const head = yield* branch.branchHead(spaceId, ref, "edited").read
      const stored = yield* content.storeFileStream(head.access.space.organizationId, file)
      return yield* updateContent(spaceId, ref, [{ operation: "insert_files", files: [{ stored }] }])
    }).pipe(Effect.withSpan("ChangeRequests.uploadFile"))

  return { updateContent, importWebsite, uploadFile }
}
