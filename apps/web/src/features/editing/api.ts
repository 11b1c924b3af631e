/**
 * The /v1 calls of the editing screens, as plain JSON requests on this origin (the session cookie
 * goes with them). A failure is an `ApiFailure`: the HTTP status (0: no answer, the connection is
 * down) and the server's message, so a screen can say it in words next to what caused it.
 */
import type { ChangeRequestContentChange, RevisionFile, RevisionPage } from "@quire/api"

export class ApiFailure extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

export const v1 = async <A>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<A> => {
  let response: Response
  try {
    response = await fetch(`/v1${path}`, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  } catch {
    throw new ApiFailure(0, "No connection to the server")
  }
  const text = await response.text()
  const json: unknown = text === "" ? undefined : (() => {
    try {
      return JSON.parse(text)
    } catch {
      return undefined
    }
  })()
  if (!response.ok) {
    const message = (json as { error?: { message?: string } } | undefined)?.error?.message
    throw new ApiFailure(response.status, message ?? `The server answered ${response.status}`)
  }
  return json as A
}

export interface ChangeRequestInfo {
  readonly id: string
  readonly number: number
  readonly subject?: string
  readonly status: string
  readonly revision: string
  readonly space?: string
}

export interface PageDocument {
  readonly id: string
  readonly title: string
  readonly description?: string
  readonly markdown?: string
  readonly path?: string
}

const enc = encodeURIComponent
const crPath = (spaceId: string, cr: string | number) => `/spaces/${enc(spaceId)}/change-requests/${enc(String(cr))}`

export const getChangeRequest = (spaceId: string, cr: string | number) => v1<ChangeRequestInfo>("GET", crPath(spaceId, cr))

export const updateChangeRequest = (spaceId: string, cr: string | number, payload: { readonly subject?: string; readonly status?: "draft" | "open" | "archived" }) =>
  v1<ChangeRequestInfo>("PATCH", crPath(spaceId, cr), payload)

export const listPages = (spaceId: string, cr: string | number) =>
  v1<{ readonly pages: ReadonlyArray<RevisionPage> }>("GET", `${crPath(spaceId, cr)}/content/pages`).then((r) => r.pages)

export const getPageMarkdown = (spaceId: string, cr: string | number, pageId: string) =>
  v1<PageDocument>("GET", `${crPath(spaceId, cr)}/content/page/${enc(pageId)}?format=markdown`)

export const updateContent = (
  spaceId: string,
  cr: string | number,
  changes: ReadonlyArray<ChangeRequestContentChange>,
  baseRevision?: string | undefined
) => v1<ChangeRequestInfo>("POST", `${crPath(spaceId, cr)}/content`, baseRevision === undefined ? { changes } : { changes, baseRevision })

export const getPageHtml = (spaceId: string, cr: string | number, pageId: string) =>
  v1<PageDocument & { readonly html?: string }>("GET", `${crPath(spaceId, cr)}/content/page/${enc(pageId)}?format=html`)

/** Every file of the change request (following `next` pages), with its signed download URL. */
export const listFiles = async (spaceId: string, cr: string | number): Promise<ReadonlyArray<RevisionFile>> => {
  const files: Array<RevisionFile> = []
  let page: string | undefined
  for (let i = 0; i < 20; i++) {
    const list = await v1<{ readonly items: ReadonlyArray<RevisionFile>; readonly next?: { readonly page: string } }>(
      "GET", `${crPath(spaceId, cr)}/content/files?limit=100${page === undefined ? "" : `&page=${enc(page)}`}`)
    files.push(...list.items)
    page = list.next?.page
    if (page === undefined) break
  }
  return files
}

const base64Of = async (file: Blob): Promise<string> => {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** Stores `file` in the change request (`insert_files`): the change request after it, and the stored file. */
export const uploadFile = async (spaceId: string, cr: string | number, file: File, baseRevision?: string) => {
  const base64 = await base64Of(file)
  const change: ChangeRequestContentChange = { operation: "insert_files", files: [{ name: file.name || "image.png", ...(file.type ? { contentType: file.type } : {}), base64 }] }
  const answer = await v1<ChangeRequestInfo & { readonly files?: ReadonlyArray<RevisionFile> }>(
    "POST", `${crPath(spaceId, cr)}/content`, baseRevision === undefined ? { changes: [change] } : { changes: [change], baseRevision })
  const stored = answer.files?.[0]
  if (stored === undefined) throw new ApiFailure(500, "The server stored no file")
  return { changeRequest: answer, file: stored }
}
