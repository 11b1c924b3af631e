/** History's reads: main's revisions (paginated) with what each changed; one revision's tree and a page's two sides. */
import { Effect } from "effect"
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"
import { revisionFiles } from "../files/queries.ts"

/** One page of main's history (`listRevisionsInSpace`), each revision with its semantic changes. */
export const revisionsPageAtom = Atom.family((key: string) => {
  const [spaceId = "", page = ""] = key.split("\n")
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const list = yield* client.revisions.listRevisionsInSpace({ params: { spaceId }, query: { limit: 20, ...(page === "" ? {} : { page }) } })
    const items = yield* Effect.forEach(list.items, (revision) =>
      client.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId: revision.id }, query: { limit: 20 } }).pipe(
        Effect.map((changes) => ({ revision, changes }))
      ), { concurrency: 4 })
    return { items, next: list.next?.page }
  })).pipe(Atom.withReactivity([`space:${spaceId}`]))
})

/** One revision: its pages and what it changed (with line diffs). */
export const revisionAtom = Atom.family((key: string) => {
  const [spaceId = "", revisionId = ""] = key.split("\n")
  return QuireApi.runtime.atom(Effect.gen(function*() {
    const client = yield* QuireApi
    const [revision, changes] = yield* Effect.all([
      client.revisions.getRevisionById({ params: { spaceId, revisionId }, query: {} }),
      client.revisions.getRevisionSemanticChanges({ params: { spaceId, revisionId }, query: { limit: 100, diff: true } })
    ], { concurrency: 2 })
    return { revision, changes }
  }))
})

const markdownIn = (spaceId: string, revisionId: string | undefined, pageId: string) =>
  revisionId === undefined ? Effect.succeed("") : Effect.gen(function*() {
    const client = yield* QuireApi
    const page = yield* client.revisions.getPageInRevisionById({ params: { spaceId, revisionId, pageId }, query: { format: "markdown" } })
    return "markdown" in page && typeof page.markdown === "string" ? page.markdown : ""
  }).pipe(Effect.catch(() => Effect.succeed("")))

/** A page's markdown in a revision and in its first parent (empty where it did not exist), with the files of each (for images). */
export const pageSidesAtom = Atom.family((key: string) => {
  const [spaceId = "", revisionId = "", parentId = "", pageId = ""] = key.split("\n")
  return QuireApi.runtime.atom(Effect.all({
    base: markdownIn(spaceId, parentId === "" ? undefined : parentId, pageId),
    head: markdownIn(spaceId, revisionId, pageId),
    files: Effect.all({ base: parentId === "" ? Effect.succeed([]) : revisionFiles(spaceId, parentId), head: revisionFiles(spaceId, revisionId) }, { concurrency: 2 })
  }, { concurrency: 3 }))
})
