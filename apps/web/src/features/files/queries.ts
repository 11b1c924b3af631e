/** The stored files of a change request's head or of a revision (their download URLs), as a diff draws images with them. */
import { Effect } from "effect"
import type { RevisionFile } from "@quire/api"
import { QuireApi } from "../../api/client.ts"

type FileList = { readonly items: ReadonlyArray<RevisionFile>; readonly next?: { readonly page: string } }

/** Every page of a listing (at most 20 of 100), or none when it fails: images then keep their src. */
const allPages = (list: (page: string | undefined) => Effect.Effect<FileList, unknown>) =>
  Effect.gen(function*() {
    const files: Array<RevisionFile> = []
    let page: string | undefined
    for (let i = 0; i < 20; i++) {
      const answer: FileList = yield* list(page)
      files.push(...answer.items)
      page = answer.next?.page
      if (page === undefined) break
    }
    return files as ReadonlyArray<RevisionFile>
  }).pipe(Effect.catch(() => Effect.succeed([] as ReadonlyArray<RevisionFile>)))

export const changeRequestFiles = (spaceId: string, changeRequestId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    return yield* allPages((page) => client.changeRequestContent.listFilesInChangeRequestById({ params: { spaceId, changeRequestId }, query: { limit: 100, ...(page === undefined ? {} : { page }) } }))
  })

export const revisionFiles = (spaceId: string, revisionId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    return yield* allPages((page) => client.revisions.listFilesInRevisionById({ params: { spaceId, revisionId }, query: { limit: 100, ...(page === undefined ? {} : { page }) } }))
  })
