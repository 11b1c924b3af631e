/** Use cases that read a space's content: its current revision or another of its revisions, their pages and files. */
import { Effect, Option } from "effect"
import { Actor, Errors, Pagination } from "@quire/kernel"
import { type FileNode, flattenPages, type Revision } from "../domain/Revision.ts"
import type { ContentEdit } from "./ContentEdit.ts"
import type { RevisionPageEntry } from "./SpaceContentTypes.ts"

/** Sort key of file listings: name, then id. */
const fileKey = (file: FileNode): Pagination.CursorKey => [file.name, file.id]
const fileKeyShape: Pagination.KeyShape = ["string", "string"]

/** A history cursor names the revision the next page starts with. */
const historyKeyShape: Pagination.KeyShape = ["string"]

export const reading = (edit: ContentEdit) => {
  const { access, revisions, current } = edit

  const revision = Effect.fn("SpaceContent.revision")(function*(spaceId: string) {
    return yield* current(spaceId)
  })

  const pageEntryIn = Effect.fn("SpaceContent.pageEntryIn")(function*(revision: Revision, pageId: string) {
    const found = flattenPages(revision.pages).find((entry) => entry.page.id === pageId)
    if (found === undefined) return yield* new Errors.NotFound({ resource: "Page", id: pageId })
    return { revision, page: found.page, path: found.path }
  })

  const pageMarkdown = Effect.fn("SpaceContent.pageMarkdown")(function*(entry: RevisionPageEntry) {
    const hash = entry.page.document
    if (hash === undefined) return undefined
    const markdown = (yield* revisions.documents([hash])).get(hash)
    if (markdown === undefined) return yield* Effect.die(new Error(`Document ${hash} of page ${entry.page.id} is missing`))
    return markdown
  })

  const withMarkdown = <A extends RevisionPageEntry>(entry: A): Effect.Effect<A & { readonly markdown?: string }> =>
    Effect.map(pageMarkdown(entry), (markdown) => markdown === undefined ? entry : { ...entry, markdown })

  const pageIn = Effect.fn("SpaceContent.pageIn")(function*(revision: Revision, pageId: string) {
    return yield* withMarkdown(yield* pageEntryIn(revision, pageId))
  })

  const filesIn = Effect.fnUntraced(function*(revision: Revision, request: Pagination.PageRequest) {
    const after = yield* Pagination.afterOf(request, fileKeyShape)
    return yield* Pagination.paginateArray(revision.files, fileKey, {
      order: "asc",
      after,
      limit: Pagination.limitOf(request)
    })
  })

  const fileIn = Effect.fnUntraced(function*(revision: Revision, fileId: string) {
    const found = revision.files.find((f) => f.id === fileId)
    if (found === undefined) return yield* new Errors.NotFound({ resource: "File", id: fileId })
    return found
  })

  const revisionOf = Effect.fn("SpaceContent.revisionOf")(function*(spaceId: string, revisionId: string) {
    const spaceAccess = yield* access.space(spaceId)
    // A published site's reader reads what the site shows: the main content, never its history.
    const reader = (yield* Actor.Actor).siteReader
    if (reader !== undefined && spaceAccess.space.revisionId !== revisionId) {
      return yield* new Errors.NotFound({ resource: "Revision", id: revisionId })
    }
    const found = yield* revisions.find(revisionId)
    if (Option.isNone(found) || found.value.spaceId !== spaceId) return yield* new Errors.NotFound({ resource: "Revision", id: revisionId })
    return { access: spaceAccess, revision: found.value }
  })

  const history = Effect.fn("SpaceContent.history")(function*(spaceId: string, request: Pagination.PageRequest) {
    const from = yield* Pagination.afterOf(request, historyKeyShape)
    const spaceAccess = yield* access.space(spaceId)
    const limit = Pagination.limitOf(request)
    const line = yield* revisions.history(from === undefined ? spaceAccess.space.revisionId : String(from[0]), limit + 1)
    // A cursor is signed, but name another space's revision it must not (one of the caller's other listings).
    if (line[0] !== undefined && line[0].spaceId !== spaceId) {
      return yield* new Errors.InvalidInput({ field: "page", reason: "is a cursor of another listing" })
    }
    const items = line.slice(0, limit)
    const next = line.length > limit ? yield* Pagination.encodeCursor([line[limit]!.id]) : undefined
    return { access: spaceAccess, items: next === undefined ? { items } : { items, next } }
  })

  const pageEntryAt = Effect.fn("SpaceContent.pageEntryAt")(function*(revision: Revision, path: string) {
    const wanted = path.replace(/^\/+|\/+$/g, "")
    const found = flattenPages(revision.pages).find((entry) => entry.path === wanted)
    if (found === undefined) return yield* new Errors.NotFound({ resource: "Page", id: path })
    return { revision, page: found.page, path: found.path }
  })

  const pageAt = Effect.fn("SpaceContent.pageAt")(function*(revision: Revision, path: string) {
    return yield* withMarkdown(yield* pageEntryAt(revision, path))
  })

  const pageEntry = Effect.fn("SpaceContent.pageEntry")(function*(spaceId: string, pageId: string) {
    const content = yield* current(spaceId)
    return { ...content, ...(yield* pageEntryIn(content.revision, pageId)) }
  })

  const page = Effect.fn("SpaceContent.page")(function*(spaceId: string, pageId: string) {
    const found = yield* pageEntry(spaceId, pageId)
    return yield* withMarkdown(found)
  })

  const files = Effect.fn("SpaceContent.files")(function*(spaceId: string, request: Pagination.PageRequest) {
    const after = yield* Pagination.afterOf(request, fileKeyShape)
    const content = yield* current(spaceId)
    return {
      access: content.access,
      files: yield* Pagination.paginateArray(content.revision.files, fileKey, {
        order: "asc",
        after,
        limit: Pagination.limitOf(request)
      })
    }
  })

  const file = Effect.fn("SpaceContent.file")(function*(spaceId: string, fileId: string) {
    const content = yield* current(spaceId)
    return { ...content, file: yield* fileIn(content.revision, fileId) }
  })

  return {
    revision,
    revisionById: edit.revisionById,
    pageIn,
    pageEntryIn,
    pageMarkdown,
    filesIn,
    fileIn,
    revisionOf,
    history,
    pageAt,
    pageEntryAt,
    page,
    pageEntry,
    files,
    file
  }
}
