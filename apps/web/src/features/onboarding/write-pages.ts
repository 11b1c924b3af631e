/**
 * Pages written into a new change request of a space, in batches the API takes: a page goes into
 * its parent by the parent's batch ref, or, when the parent went in an earlier batch, by the id the
 * server gave it (the pages a batch added, in the order of the tree, are the batch's pages in order).
 */
import { Effect } from "effect"
import { callApi } from "../../api/call.ts"
import { QuireApi } from "../../api/client.ts"
import { useRegistry } from "../../api/react.ts"
import { refusalOf } from "../../ui/refusal.ts"
import { flattenPages } from "../space/PageTree.tsx"
import { batches, type PlannedPage } from "./folder-import.ts"

/** The API takes at most 50 changes a batch, and at most this much markdown. */
const batchSize = 50
const batchMarkdown = 9_000_000

export const failureWords = (cause: unknown) => refusalOf(cause)?.message ?? (cause instanceof Error && cause.message !== "" ? cause.message : "The server could not be reached: check your connection and try again.")

const writePages = (spaceId: string, subject: string, pages: ReadonlyArray<PlannedPage>) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const cr = yield* client.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } })
    const params = { spaceId, changeRequestId: cr.id }
    const pageIds = () => Effect.map(client.changeRequestContent.listPagesInChangeRequest({ params, query: {} }), (listed) => flattenPages(listed.pages).map((page) => page.id))
    const ids: Array<string> = []
    const all = batches(pages, batchSize, batchMarkdown)
    for (const [n, { from, to }] of all.entries()) {
      const before = n === 0 ? new Set<string>() : new Set(yield* pageIds())
      yield* client.changeRequestContent.updateChangeRequestContent({
        params,
        payload: {
          changes: pages.slice(from, to).map((page, k) => ({
            operation: "insert_page" as const,
            ref: `p${from + k}`,
            title: page.title,
            document: { markdown: page.markdown },
            ...(page.parent === undefined ? {} : { into: page.parent >= from ? `p${page.parent}` : ids[page.parent]! })
          }))
        }
      })
      if (n < all.length - 1) ids.push(...(yield* pageIds()).filter((id) => !before.has(id)))
    }
    return cr.number
  })

/** Writes pages into a new change request `subject` of the space; answers its number. */
export const useWritePages = (spaceId: string) => {
  const registry = useRegistry()
  return (subject: string, pages: ReadonlyArray<PlannedPage>) => callApi(registry, writePages(spaceId, subject, pages))
}
