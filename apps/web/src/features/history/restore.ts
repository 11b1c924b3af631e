/**
 * "Restore this revision": opens a change request and writes that revision's pages back into it
 * with `updateChangeRequestContent` (GitBook has no one-call restore; docs/web-api.md proposes
 * one). Documents of the revision are updated (title, description, markdown) or inserted again;
 * documents it did not have are deleted. Batches of at most 50 changes.
 */
import { Effect } from "effect"
import type { RevisionPage } from "@quire/api"
import { QuireApi } from "../../api/client.ts"

type Change = { readonly operation: "update_page" | "insert_page" | "delete_page"; readonly [key: string]: unknown }

const documents = (pages: ReadonlyArray<RevisionPage>, parent?: string): Array<{ page: RevisionPage; parent: string | undefined }> =>
  pages.flatMap((page) => [
    ...(page.kind === "sheet" ? [{ page, parent }] : []),
    ...documents(page.pages ?? [], page.kind === "sheet" ? page.id : parent)
  ])

/** The changes that make `current` read as `old`, given each old document's markdown. */
export const restoreChanges = (
  old: ReadonlyArray<RevisionPage>,
  current: ReadonlyArray<RevisionPage>,
  markdown: ReadonlyMap<string, string>
): ReadonlyArray<Change> => {
  const oldDocs = documents(old)
  const currentIds = new Set(documents(current).map((entry) => entry.page.id))
  const oldIds = new Set(oldDocs.map((entry) => entry.page.id))
  const changes: Array<Change> = []
  for (const { page, parent } of oldDocs) {
    const document = { markdown: markdown.get(page.id) ?? "" }
    if (currentIds.has(page.id)) changes.push({ operation: "update_page", page: page.id, title: page.title, document })
    else changes.push({ operation: "insert_page", ref: page.id, title: page.title, document, ...(parent === undefined ? {} : { into: parent }) })
  }
  for (const { page } of documents(current)) if (!oldIds.has(page.id)) changes.push({ operation: "delete_page", page: page.id })
  return changes
}

/** Opens the change request and fills it; answers its app URL. */
export const restoreRevision = (spaceId: string, revisionId: string, label: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const [old, current] = yield* Effect.all([
      client.revisions.listPagesInRevisionById({ params: { spaceId, revisionId }, query: {} }),
      client.spaceContent.listPages({ params: { spaceId }, query: {} })
    ], { concurrency: 2 })
    const markdown = new Map<string, string>()
    yield* Effect.forEach(documents(old.pages), ({ page }) =>
      client.revisions.getPageInRevisionById({ params: { spaceId, revisionId, pageId: page.id }, query: { format: "markdown" } }).pipe(
        Effect.map((read) => { markdown.set(page.id, "markdown" in read && typeof read.markdown === "string" ? read.markdown : "") })
      ), { concurrency: 4 })
    const changes = restoreChanges(old.pages, current.pages, markdown)
    const cr = yield* client.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: `Restore ${label}` } })
    for (let at = 0; at < changes.length; at += 50) {
      yield* client.changeRequestContent.updateChangeRequestContent({
        params: { spaceId, changeRequestId: cr.number === undefined ? cr.id : String(cr.number) },
        // oxlint-disable-next-line typescript/no-explicit-any -- the changes are built to the API's union above
        payload: { changes: changes.slice(at, at + 50) as any }
      })
    }
    return cr.urls.app
  })
