/** Port: each reviewer's "Viewed" marks on the pages of change requests. */
import { Context, Effect, Layer } from "effect"
import { MemoryStore } from "@quire/kernel"
import type { ViewedPage } from "./domain/ViewedPage.ts"

export interface ViewedPagesRepoShape {
  /** The user's marks on the change request, by page id. */
  readonly list: (changeRequestId: string, userId: string) => Effect.Effect<ReadonlyArray<ViewedPage>>
  /** Marks the page (again: the new mark replaces the old). */
  readonly put: (mark: ViewedPage) => Effect.Effect<void>
  /** Removes the user's mark on the page: false when there was none. */
  readonly remove: (changeRequestId: string, userId: string, pageId: string) => Effect.Effect<boolean>
  /** Removes every mark in the space. */
  readonly removeForSpace: (spaceId: string) => Effect.Effect<void>
}

const keyOf = (changeRequestId: string, userId: string, pageId: string) => JSON.stringify([changeRequestId, userId, pageId])

export class ViewedPagesRepo extends Context.Service<ViewedPagesRepo, ViewedPagesRepoShape>()("@quire/reviews/ViewedPagesRepo") {
  static readonly layerMemory = Layer.sync(ViewedPagesRepo, () => {
    const marks = new MemoryStore.TxMap<string, ViewedPage>()
    return ViewedPagesRepo.of({
      list: (changeRequestId, userId) =>
        Effect.sync(() =>
          Array.from(marks.values())
            .filter((mark) => mark.changeRequestId === changeRequestId && mark.userId === userId)
            .toSorted((a, b) => (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0))
        ),
      put: (mark) => Effect.sync(() => void marks.set(keyOf(mark.changeRequestId, mark.userId, mark.pageId), mark)),
      remove: (changeRequestId, userId, pageId) => Effect.sync(() => marks.delete(keyOf(changeRequestId, userId, pageId))),
      removeForSpace: (spaceId) =>
        Effect.sync(() => {
          for (const [key, mark] of Array.from(marks)) if (mark.spaceId === spaceId) marks.delete(key)
        })
    })
  })
}
