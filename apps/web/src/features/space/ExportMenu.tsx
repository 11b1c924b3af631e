/**
 * "Export" on a space: the page shown, or the whole space, as a PDF; or the whole space as a zip of
 * GitBook markdown (the files Git sync would write). The server renders each and answers a signed
 * download link, which the browser then downloads; until then the menu says what it is preparing.
 */
import { Effect } from "effect"
import { useRef, useState } from "react"
import { callApi } from "../../api/call.ts"
import { QuireApi } from "../../api/client.ts"
import { useRegistry } from "../../api/react.ts"
import { MenuDisclosure } from "../../ui/MenuDisclosure.tsx"

type Export = "page-pdf" | "space-pdf" | "markdown"

const preparing: Record<Export, string> = {
  "page-pdf": "Preparing the page's PDF…",
  "space-pdf": "Preparing the space's PDF…",
  markdown: "Preparing the markdown files…"
}

const linkOf = (spaceId: string, kind: Export, pageId: string | undefined) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    if (kind === "markdown") return (yield* client.spacePdf.getSpaceMarkdownArchive({ params: { spaceId } })).url
    const query = kind === "page-pdf" && pageId !== undefined ? { page: pageId, only: true } : {}
    return (yield* client.spacePdf.getSpacePDF({ params: { spaceId }, query })).url
  })

/** Starts the download of `url` (served as an attachment, so the app stays where it is). */
const downloadFrom = (url: string) => {
  const anchor = document.createElement("a")
  anchor.href = url
  anchor.download = ""
  anchor.rel = "noopener"
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
}

export const ExportMenu = (props: { readonly spaceId: string; readonly page?: { readonly id: string; readonly title: string } | undefined }) => {
  const registry = useRegistry()
  const menu = useRef<HTMLDetailsElement>(null)
  const [busy, setBusy] = useState<Export | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const start = (kind: Export) => {
    setBusy(kind)
    setError(undefined)
    callApi(registry, linkOf(props.spaceId, kind, props.page?.id)).then(
      (url) => {
        setBusy(undefined)
        if (menu.current !== null) menu.current.open = false
        downloadFrom(url)
      },
      (failure: unknown) => {
        setBusy(undefined)
        setError(`Could not export: ${failure instanceof Error ? failure.message : String(failure)}`)
      }
    )
  }
  return (
    <MenuDisclosure label="Export" menu={menu}>
      {props.page === undefined ? null : (
        <button type="button" onClick={() => start("page-pdf")} disabled={busy !== undefined}>
          This page as PDF<span className="muted">{props.page.title}</span>
        </button>
      )}
      <button type="button" onClick={() => start("space-pdf")} disabled={busy !== undefined}>
        The whole space as PDF<span className="muted">Every page, in the order of the table of contents</span>
      </button>
      <button type="button" onClick={() => start("markdown")} disabled={busy !== undefined}>
        Markdown files (.zip)<span className="muted">GitBook's layout: a file per page, SUMMARY.md and the space's files</span>
      </button>
      <p role="status" className="muted menu-disclosure-status">{busy === undefined ? "" : preparing[busy]}</p>
      {error === undefined ? null : <p role="alert" className="form-error">{error}</p>}
    </MenuDisclosure>
  )
}
