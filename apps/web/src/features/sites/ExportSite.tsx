/**
 * "Download as static files" on a published site (`exportSite`): the server answers a signed link to
 * a zip of the site's pages, markdown, machine files, assets and offline search, which the browser
 * downloads. A site read with a share link or visitor authentication exports only what its public
 * audience sees, and the panel says so.
 */
import { Effect } from "effect"
import { useState } from "react"
import { callApi } from "../../api/call.ts"
import { QuireApi } from "../../api/client.ts"
import { useRegistry } from "../../api/react.ts"

/** Starts the download of `url` (served as an attachment, so the app stays where it is). */
const downloadFrom = (url: string, name: string) => {
  const anchor = document.createElement("a")
  anchor.href = url
  anchor.download = name
  anchor.rel = "noopener"
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
}

export const ExportSite = (props: { readonly organizationId: string; readonly siteId: string }) => {
  const registry = useRegistry()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const start = () => {
    setBusy(true)
    setError(undefined)
    const params = { organizationId: props.organizationId, siteId: props.siteId }
    callApi(registry, Effect.gen(function*() {
      const client = yield* QuireApi
      return yield* client.siteExport.exportSite({ params })
    })).then(
      (link) => {
        setBusy(false)
        setNotice(link.notice ?? undefined)
        downloadFrom(link.url, link.name)
      },
      (failure: unknown) => {
        setBusy(false)
        setError(`Could not export: ${failure instanceof Error ? failure.message : String(failure)}`)
      }
    )
  }
  return (
    <div className="site-export">
      <button type="button" disabled={busy} aria-busy={busy} onClick={start}>{busy ? "Preparing the export…" : "Download as static files"}</button>
      {notice === undefined ? null : <p className="muted" role="note">{notice}</p>}
      {error === undefined ? null : <p className="form-error" role="alert">{error}</p>}
    </div>
  )
}
