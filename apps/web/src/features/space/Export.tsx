/**
 * "Export" on a space: the page shown, or the whole space, as a PDF; or the whole space as a zip of
 * GitBook markdown (the files Git sync would write). The server renders each and answers a signed
 * download link, which the browser then downloads; until then the toolbar says what it is preparing.
 */
import { Effect } from "effect"
import { useState } from "react"
import { callApi } from "../../api/call.ts"
import { QuireApi } from "../../api/client.ts"
import { useRegistry } from "../../api/react.ts"
import { DownloadIcon } from "../../ui/icons.tsx"
import { MenuGroup, MenuItem } from "../../ui/Menu.tsx"

type Export = "page-pdf" | "section-pdf" | "page-markdown" | "space-pdf" | "markdown"

const preparing: Record<Export, string> = {
  "page-pdf": "Preparing the page's PDF…",
  "section-pdf": "Preparing the PDF of the page and its subpages…",
  "page-markdown": "Preparing the page's markdown…",
  "space-pdf": "Preparing the space's PDF…",
  markdown: "Preparing the markdown files…"
}

/** The page shown: the menu offers it alone, and with its subpages when it has some. */
export interface ExportedPage {
  readonly id: string
  readonly title: string
  readonly hasSubpages: boolean
}

/** A page's markdown as a file of its own: its title as the first heading, after its frontmatter. */
export const pageFile = (title: string, markdown: string): string => {
  const frontmatter = /^---\r?\n[\s\S]*?\r?\n---\r?\n/.exec(markdown)?.[0] ?? ""
  return `${frontmatter}# ${title}\n\n${markdown.slice(frontmatter.length).replace(/^\s*\n/, "")}`
}

/** A file name of a title: characters file systems refuse become spaces. */
const fileNameOf = (title: string, extension: string) =>
  `${[...title].map((c) => (c < " " || '\\/:*?"<>|'.includes(c) ? " " : c)).join("").trim() || "page"}.${extension}`

/** Where the export downloads from: the server's signed link, or the page's markdown as a file made here. */
const linkOf = (spaceId: string, kind: Export, page: ExportedPage | undefined) =>
  Effect.gen(function*() {
    const client = yield* QuireApi
    if (kind === "markdown") return { url: (yield* client.spacePdf.getSpaceMarkdownArchive({ params: { spaceId } })).url }
    if (kind === "page-markdown" && page !== undefined) {
      const read = yield* client.spaceContent.getPageById({ params: { spaceId, pageId: page.id }, query: { format: "markdown" } })
      const markdown = "markdown" in read && typeof read.markdown === "string" ? read.markdown : ""
      const file = new Blob([pageFile(page.title, markdown)], { type: "text/markdown;charset=utf-8" })
      return { url: URL.createObjectURL(file), name: fileNameOf(page.title, "md") }
    }
    const query = page === undefined || kind === "space-pdf" ? {} : kind === "page-pdf" ? { page: page.id, only: true } : { page: page.id }
    return { url: (yield* client.spacePdf.getSpacePDF({ params: { spaceId }, query })).url }
  })

/** Starts the download of `url` (served as an attachment, or a file made here, so the app stays where it is). */
const downloadFrom = (url: string, name?: string) => {
  const anchor = document.createElement("a")
  anchor.href = url
  anchor.download = name ?? ""
  anchor.rel = "noopener"
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  if (url.startsWith("blob:")) setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/** The export under way and its failure, kept by the toolbar (the menu closes as an export starts). */
export const useExport = (spaceId: string, page: ExportedPage | undefined) => {
  const registry = useRegistry()
  const [busy, setBusy] = useState<Export | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const start = (kind: Export) => {
    setBusy(kind)
    setError(undefined)
    callApi(registry, linkOf(spaceId, kind, page)).then(
      (link) => {
        setBusy(undefined)
        downloadFrom(link.url, link.name)
      },
      (failure: unknown) => {
        setBusy(undefined)
        setError(`Could not export: ${failure instanceof Error ? failure.message : String(failure)}`)
      }
    )
  }
  return { start, busy, error, page }
}

/** The export entries of the space's "More" menu: the page shown (alone, with its subpages) and the whole space. */
export const ExportItems = (props: { readonly exporter: ReturnType<typeof useExport> }) => {
  const { start, busy, page } = props.exporter
  const disabled = busy !== undefined
  return (
    <MenuGroup label="Export">
      {page === undefined ? null : (
        <>
          <MenuItem icon={<DownloadIcon />} onSelect={() => start("page-pdf")} disabled={disabled}>This page as PDF</MenuItem>
          {page.hasSubpages ? <MenuItem icon={<DownloadIcon />} onSelect={() => start("section-pdf")} disabled={disabled}>This page and its subpages as PDF</MenuItem> : null}
          <MenuItem icon={<DownloadIcon />} onSelect={() => start("page-markdown")} disabled={disabled}>This page as markdown (.md)</MenuItem>
        </>
      )}
      <MenuItem icon={<DownloadIcon />} onSelect={() => start("space-pdf")} disabled={disabled}>The whole space as PDF</MenuItem>
      <MenuItem icon={<DownloadIcon />} onSelect={() => start("markdown")} disabled={disabled}>Markdown files (.zip)</MenuItem>
    </MenuGroup>
  )
}

/** What the export is preparing, or why it failed, beside the toolbar. */
export const ExportStatus = (props: { readonly exporter: ReturnType<typeof useExport> }) => (
  <>
    <span role="status" className="muted status">{props.exporter.busy === undefined ? "" : preparing[props.exporter.busy]}</span>
    {props.exporter.error === undefined ? null : <p role="alert" className="form-error">{props.exporter.error}</p>}
  </>
)
