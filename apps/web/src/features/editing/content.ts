/**
 * The editing screens' reads and writes of a change request, as calls of the typed client
 * (`QuireApi`): run them with `callApi` (api/call.ts), which answers a Promise and an `ApiFailure`
 * in words. A change request is named by its id or its number in the space.
 */
import { type Context, Effect } from "effect"
import type { ChangeRequestContentChange, RevisionFile } from "@quire/api"
import { QuireApi } from "../../api/client.ts"
import { ApiFailure } from "../../api/call.ts"

/** A call of the client. */
const withClient = <A, E>(call: (client: Context.Service.Shape<typeof QuireApi>) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    return yield* call(yield* QuireApi)
  })

const params = (spaceId: string, cr: string | number) => ({ spaceId, changeRequestId: String(cr) })

export const getChangeRequest = (spaceId: string, cr: string | number) =>
  withClient((client) => client.changeRequests.getChangeRequestById({ params: params(spaceId, cr) }))

/** What a change request's PATCH may change, as the contract has it (subject, status, description). */
export type ChangeRequestChanges = Parameters<Context.Service.Shape<typeof QuireApi>["changeRequests"]["updateChangeRequestById"]>[0]["payload"]

export const updateChangeRequest = (spaceId: string, cr: string | number, payload: ChangeRequestChanges) =>
  withClient((client) => client.changeRequests.updateChangeRequestById({ params: params(spaceId, cr), payload }))

/** The page tree at the change request's head, without bodies. */
export const listPages = (spaceId: string, cr: string | number) =>
  withClient((client) => client.changeRequestContent.listPagesInChangeRequest({ params: params(spaceId, cr), query: {} })).pipe(
    Effect.map((answer) => answer.pages)
  )

/** A page at the change request's head, as markdown (`format: "html"`: rendered as the published site renders it). */
export const getPage = (spaceId: string, cr: string | number, pageId: string, format: "markdown" | "html") =>
  withClient((client) => client.changeRequestContent.getPageInChangeRequestById({ params: { ...params(spaceId, cr), pageId }, query: { format } }))

/** Applies `changes` as one revision; with `baseRevision`, a page changed since is merged three-way (or refused with 409). */
export const updateContent = (
  spaceId: string,
  cr: string | number,
  changes: ReadonlyArray<ChangeRequestContentChange>,
  baseRevision?: string | undefined
) =>
  withClient((client) => client.changeRequestContent.updateChangeRequestContent({
    params: params(spaceId, cr),
    payload: baseRevision === undefined ? { changes } : { changes, baseRevision }
  }))

/** Every file of the change request (following `next` pages, at most 20 of them), with its signed download URL. */
export const listFiles = (spaceId: string, cr: string | number) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const files: Array<RevisionFile> = []
    let page: string | undefined
    for (let i = 0; i < 20; i++) {
      const list: { readonly items: ReadonlyArray<RevisionFile>; readonly next?: { readonly page: string } } = yield* client.changeRequestContent.listFilesInChangeRequestById({
        params: params(spaceId, cr),
        query: { limit: 100, ...(page === undefined ? {} : { page }) }
      })
      files.push(...list.items)
      page = list.next?.page
      if (page === undefined) break
    }
    return files as ReadonlyArray<RevisionFile>
  })

/** Copies the file at `url` (another site's) into the change request (`insert_files` by URL): the change request after it, and the stored file. */
export const importFile = (spaceId: string, cr: string | number, url: string, baseRevision?: string) => {
  const name = decodeURIComponent(new URL(url).pathname.split("/").pop() || "") || "image"
  const change: ChangeRequestContentChange = { operation: "insert_files", files: [{ name, url }] }
  return updateContent(spaceId, cr, [change], baseRevision).pipe(
    Effect.flatMap((answer) => {
      const stored = answer.files?.[0]
      return stored === undefined ? Effect.fail(new ApiFailure(500, "The server stored no file")) : Effect.succeed({ changeRequest: answer, file: stored })
    })
  )
}

/**
 * "Edit": a new change request in the space, as GitBook's does; answers its number. Continuing one
 * of the person's own is a choice they make ("Continue a change request"), never a guess: reusing the latest
 * took a newcomer into an unrelated change request with conflicts.
 */
export const newChangeRequest = (spaceId: string, subject: string) =>
  withClient((client) => client.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } })).pipe(
    Effect.map((created) => created.number)
  )

/** The title a first page starts with, selected in the editor so that typing replaces it. */
export const firstPageTitle = "Untitled"

/** A page's address from its title, as the server makes one (lowercase ASCII words joined by hyphens). */
export const titleSlug = (title: string): string => {
  const slug = title.toLowerCase().normalize("NFKD").replace(/\p{M}+/gu, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 100).replace(/-+$/, "")
  return slug === "" ? "untitled" : slug
}

/**
 * A space's first page: a new change request holding one empty page, to be typed into. Answers
 * the change request's number and the page's path in it.
 */
export const changeRequestWithFirstPage = (spaceId: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const created = yield* client.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject: "First page" } })
    yield* client.changeRequestContent.updateChangeRequestContent({
      params: params(spaceId, created.number),
      payload: { changes: [{ operation: "insert_page", ref: "first", title: firstPageTitle, document: { markdown: "" } }] }
    })
    const pages = flattened((yield* client.changeRequestContent.listPagesInChangeRequest({ params: params(spaceId, created.number), query: {} })).pages)
    const page = pages.find((listed) => listed.type === "document")
    return { number: created.number, path: page?.path ?? "" }
  })

/** Where the editor opens a page whose title is to be typed first (PageHeader reads `focus=title`). */
export const typeTitleAt = (spaceId: string, opened: { readonly number: number; readonly path: string }) =>
  `/s/${spaceId}/~/changes/${opened.number}/${opened.path}?focus=title`

/**
 * A new change request in the space holding `markdown` as the page `pageId` (updated where the
 * space has that page, else added as a page titled `title`): text the person typed that another
 * change request will not keep. Answers its number and the page's path in it.
 */
export const changeRequestWithText = (spaceId: string, subject: string, page: { readonly id: string; readonly title: string }, markdown: string) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    const created = yield* client.changeRequests.createChangeRequest({ params: { spaceId }, payload: { subject } })
    const pagesOf = Effect.map(
      client.changeRequestContent.listPagesInChangeRequest({ params: params(spaceId, created.number), query: {} }),
      (answer) => flattened(answer.pages)
    )
    const there = (yield* pagesOf).some((listed) => listed.id === page.id && listed.type === "document")
    const change: ChangeRequestContentChange = there
      ? { operation: "update_page", page: page.id, document: { markdown } }
      : { operation: "insert_page", title: page.title, document: { markdown } }
    yield* client.changeRequestContent.updateChangeRequestContent({ params: params(spaceId, created.number), payload: { changes: [change] } })
    const after = yield* pagesOf
    const path = (there ? after.find((listed) => listed.id === page.id) : after.find((listed) => listed.type === "document" && listed.title === page.title))?.path ?? ""
    return { number: created.number, path }
  })

const flattened = <P extends { readonly pages?: ReadonlyArray<P> | undefined }>(pages: ReadonlyArray<P>): Array<P> =>
  pages.flatMap((page) => [page, ...flattened(page.pages ?? [])])

/** The organization a space belongs to. */
export const organizationOf = (spaceId: string) =>
  withClient((client) => client.spaces.getSpaceById({ params: { spaceId }, query: {} })).pipe(Effect.map((space) => space.organization))

/** The organization's OpenAPI specs (an OpenAPI block picks from them). */
export const listSpecs = (organizationId: string) =>
  withClient((client) => client.openAPISpecs.listOpenAPISpecs({ params: { organizationId }, query: { limit: 100 } })).pipe(Effect.map((answer) => answer.items))

/** The files of a spec's latest version (`openapi`: its entry document). */
export const latestSpecContent = (organizationId: string, specSlug: string) =>
  withClient((client) => client.openAPISpecs.getLatestOpenAPISpecVersionContent({ params: { organizationId, specSlug } }))

/** The change request's reusable contents (Quire's `listReusableContentsInChangeRequest`), with their markdown. */
export const listReusableContents = (spaceId: string, cr: string | number) =>
  withClient((client) => client.reusableContents.listReusableContentsInChangeRequest({ params: params(spaceId, cr) })).pipe(
    Effect.map((answer) => answer.items)
  )

/** Creates a reusable content in the change request (Quire's `createReusableContentInChangeRequest`). */
export const createReusableContent = (spaceId: string, cr: string | number, payload: { readonly title: string; readonly markdown?: string }) =>
  withClient((client) => client.reusableContents.createReusableContentInChangeRequest({ params: params(spaceId, cr), payload }))

/** Renames a reusable content of the change request, or replaces its markdown. */
export const updateReusableContent = (spaceId: string, cr: string | number, reusableContentId: string, payload: { readonly title?: string; readonly markdown?: string }) =>
  withClient((client) => client.reusableContents.updateReusableContentInChangeRequest({ params: { ...params(spaceId, cr), reusableContentId }, payload }))

/** Deletes a reusable content of the change request. */
export const deleteReusableContent = (spaceId: string, cr: string | number, reusableContentId: string) =>
  withClient((client) => client.reusableContents.deleteReusableContentInChangeRequest({ params: { ...params(spaceId, cr), reusableContentId } }))
