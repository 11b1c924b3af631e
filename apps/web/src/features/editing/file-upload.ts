/**
 * A file's bytes sent to the change request as they are (the server's raw upload route, not base64
 * in JSON), with XMLHttpRequest because only it reports how much of a request body is sent. The
 * route's limit is checked before a byte is sent; every refusal becomes an
 * UploadFailure in words a person understands.
 */
import type { RevisionFile } from "@quire/api"
import { describeSize, UploadFailure, type UploadOptions } from "../../editor/uploads.ts"

/** What the route answers: the stored file and the change request's new revision. */
export interface UploadAnswer {
  readonly file: RevisionFile
  readonly changeRequest: { readonly id: string; readonly number: number; readonly revision: string }
}

const filesPath = (spaceId: string, cr: string | number) =>
  `/v1/spaces/${encodeURIComponent(spaceId)}/change-requests/${encodeURIComponent(String(cr))}/files`

/** The largest file the server takes (`QUIRE_MAX_UPLOAD_BYTES`); undefined when it does not say (the upload's answer will). */
export const uploadLimit = (spaceId: string, cr: string | number): Promise<number | undefined> =>
  fetch(`${filesPath(spaceId, cr)}/limit`, { credentials: "same-origin" })
    .then((r): Promise<{ readonly maxBytes?: unknown }> | { readonly maxBytes?: unknown } => (r.ok ? r.json() as Promise<{ readonly maxBytes?: unknown }> : {}))
    .then((body) => (typeof body.maxBytes === "number" ? body.maxBytes : undefined), () => undefined)

/** `100 MB`, as the server's refusals say it. */
const inMegabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024)
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}

const tooLarge = (file: File, max: number) =>
  new UploadFailure("too-large", `“${file.name}” is ${describeSize(file.size)}; files can be at most ${inMegabytes(max)}.`)

/** The refusal a status and body of the upload route stand for, in words. */
export const uploadRefusal = (file: File, status: number, body: string, max: number | undefined): UploadFailure => {
  let message = ""
  try {
    message = (JSON.parse(body) as { readonly error?: { readonly message?: string } }).error?.message ?? ""
  } catch {
    // Not our envelope: a proxy's page; the status says enough.
  }
  if (status === 413) return max === undefined ? new UploadFailure("too-large", message || `“${file.name}” is too large for this server.`) : tooLarge(file, max)
  if (status === 403 && /quota/i.test(message)) {
    return new UploadFailure("quota", `“${file.name}” would take the organization past its storage quota. Remove files it no longer needs, or ask an administrator for more room.`)
  }
  if (status === 403) return new UploadFailure("refused", `You cannot add files to this change request${message ? `: ${message}` : "."}`)
  if (status === 401) return new UploadFailure("refused", "Your session has ended: sign in again, then retry.")
  return new UploadFailure(status >= 500 ? "network" : "refused", `Could not upload “${file.name}”${message ? `: ${message}` : ` (the server answered ${status}).`}`)
}

/** Sends `file` to the change request, refused at once when larger than `limit`; its progress to `onProgress`, `signal` cancels it. */
export const sendFile = async (spaceId: string, cr: string | number, file: File, limit: Promise<number | undefined>, options: UploadOptions = {}): Promise<UploadAnswer> => {
  const max = await limit
  if (max !== undefined && file.size > max) throw tooLarge(file, max)
  if (file.size === 0) throw new UploadFailure("refused", `“${file.name}” is empty.`)
  return new Promise<UploadAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open("POST", `${filesPath(spaceId, cr)}?name=${encodeURIComponent(file.name || "file")}`)
    xhr.setRequestHeader("content-type", file.type || "application/octet-stream")
    xhr.upload.addEventListener("progress", (e) => options.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size))
    xhr.addEventListener("load", () => {
      if (xhr.status === 201) {
        try {
          return resolve(JSON.parse(xhr.responseText) as UploadAnswer)
        } catch {
          return reject(new UploadFailure("network", `The upload of “${file.name}” ended without an answer. Retry.`))
        }
      }
      reject(uploadRefusal(file, xhr.status, xhr.responseText, max))
    })
    xhr.addEventListener("error", () => reject(new UploadFailure("network", `The connection failed while uploading “${file.name}”. Check your network and retry.`)))
    xhr.addEventListener("abort", () => reject(new UploadFailure("cancelled", `The upload of “${file.name}” was cancelled.`)))
    if (options.signal?.aborted) return xhr.abort()
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true })
    options.onProgress?.(0, file.size)
    xhr.send(file)
  })
}
