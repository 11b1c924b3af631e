/**
 * The import screen's reads and writes. Reactivity key `imports:<space>`: the space's runs, named by
 * every write of the screen. Files are sent to the raw upload route (`uploadImportFile`) first.
 */
import { Atom } from "effect/reactivity"
import { QuireApi } from "../../api/client.ts"

export const importsKey = (spaceId: string) => `imports:${spaceId}`

/** The space's last import runs (`listImportRuns`), by `<organization>|<space>`. */
export const importRunsAtom = Atom.family((key: string) => {
  const [organizationId = "", spaceId = ""] = key.split("|")
  return QuireApi.query("imports", "listImportRuns", { params: { organizationId }, query: { space: spaceId, limit: 10 }, reactivityKeys: [importsKey(spaceId)] })
})

export const startImport = QuireApi.mutation("imports", "startImportRun")
export const cancelImport = QuireApi.mutation("imports", "cancelImportRun")

/** Why an upload was refused, in the server's words when it gave some. */
export class UploadRefused extends Error {}

/** Sends `file` for an import; answers the key `startImportRun` names it by. */
export const uploadImportFile = async (organizationId: string, file: File): Promise<string> => {
  const response = await fetch(`/v1/org/${encodeURIComponent(organizationId)}/imports/files?name=${encodeURIComponent(file.name || "upload")}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": file.type || "application/octet-stream" },
    body: file
  })
  const text = await response.text()
  let body: { readonly key?: string; readonly error?: { readonly message?: string } } = {}
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    // A proxy's page: the status says enough.
  }
  if (response.status === 201 && typeof body.key === "string") return body.key
  if (response.status === 413) throw new UploadRefused(body.error?.message ?? `“${file.name}” is too large for this server.`)
  throw new UploadRefused(body.error?.message ?? `Could not upload “${file.name}” (the server answered ${response.status}).`)
}
