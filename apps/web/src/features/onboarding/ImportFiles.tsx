/**
 * Markdown files, or a whole folder of them, imported as pages of a new change request, which then
 * opens: a folder keeps its structure (see folder-import.ts). Read in the browser; nothing is sent
 * until every file has been read.
 */
import { type ChangeEvent, useState } from "react"
import { Link } from "../../ui/Link.tsx"
import { navigate } from "../../router.ts"
import { countPages, insertionOrder, pagesOfFolder } from "./folder-import.ts"
import { isMarkdown } from "./templates.ts"
import { failureWords, useWritePages } from "./write-pages.ts"

/** The most pages one import writes (the Git import's own default bound). */
const maxPages = 5_000

export const ImportFiles = (props: { readonly spaceId: string }) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const write = useWritePages(props.spaceId)
  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? [])
    event.target.value = ""
    const markdown = files.filter((file) => isMarkdown(file.name))
    setError(undefined)
    if (markdown.length === 0) {
      setError(files.length === 0 ? undefined : "None of these files is markdown: choose .md or .markdown files, or a folder holding them.")
      return
    }
    setBusy(true)
    try {
      const read = await Promise.all(markdown.map(async (file) => ({ path: file.webkitRelativePath || file.name, text: await file.text() })))
      const tree = pagesOfFolder(read)
      const count = countPages(tree)
      if (count > maxPages) {
        setError(`This would make ${count} pages; one import makes at most ${maxPages}. Import the folder in parts.`)
        setBusy(false)
        return
      }
      const subject = count === 1 ? `Import ${tree[0]!.title}` : `Import ${count} pages`
      const number = await write(subject, insertionOrder(tree))
      navigate(`/s/${props.spaceId}/~/changes/${number}/`)
    } catch (cause) {
      setError(`Could not import the files: ${failureWords(cause)}`)
      setBusy(false)
    }
  }
  const describedBy = error === undefined ? undefined : `import-error-${props.spaceId}`
  return (
    <div className="import-files">
      <p>Markdown files become pages in a new change request, for you to look over and merge. A folder keeps its structure: its subfolders become pages holding their files' pages, and a folder's README.md is its page's text.</p>
      <div className="import-files-choices">
        <label className="button" aria-disabled={busy}>
          {busy ? "Importing…" : "Choose markdown files…"}
          <input type="file" className="visually-hidden" multiple accept=".md,.markdown,text/markdown" disabled={busy}
            onChange={(event) => void onFiles(event)} aria-describedby={describedBy} />
        </label>
        <label className="button" aria-disabled={busy}>
          Choose a folder…
          <input type="file" className="visually-hidden" {...{ webkitdirectory: "" }} disabled={busy}
            onChange={(event) => void onFiles(event)} aria-describedby={describedBy} />
        </label>
      </div>
      {error === undefined ? null : <p id={describedBy} className="field-error" role="alert">{error}</p>}
      <p className="import-files-more">A Word document, a Confluence or Notion export, HTML or a website: <Link href={`/s/${props.spaceId}/~/import`}>Import from…</Link></p>
    </div>
  )
}
