/**
 * "Restore this revision": one call (`restoreRevisionInChangeRequest`, Quire's extension) opens a
 * draft change request on the current main content holding that revision's whole content (pages,
 * groups, link pages, descriptions, files), in one transaction; its review shows what it changes.
 */
import { Effect } from "effect"
import { QuireApi } from "../../api/client.ts"

/** Opens the change request; answers its app URL. */
export const restoreRevision = (spaceId: string, revisionId: string, label: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const cr = yield* client.revisions.restoreRevisionInChangeRequest({ params: { spaceId, revisionId }, payload: { subject: `Restore ${label}` } })
    return cr.urls.app
  })
