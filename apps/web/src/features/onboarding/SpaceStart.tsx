/**
 * What an empty space offers: start from a template, import markdown files, or sync with a Git
 * repository. A template or an import is written as pages of one new change request (as every
 * edit of a space is), which opens for the person to look over and merge; Git sync is its own
 * screen. Offered to whoever may edit the space; the Git sync screen to its administrators.
 */
import type { Space } from "@quire/api"
import { type ChangeEvent, useState } from "react"
import { QuireApi } from "../../api/client.ts"
import { useMutation } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { Link } from "../../ui/Link.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import { isMarkdown, pageOfFile, type StartPage, templates } from "./templates.ts"
import "./onboarding.css"

const createChangeRequest = QuireApi.mutation("changeRequests", "createChangeRequest")
const updateContent = QuireApi.mutation("changeRequestContent", "updateChangeRequestContent")

/** The API takes at most 50 changes a batch. */
const batchSize = 50

/** Writes `pages` into a new change request `subject` of the space; answers its number. */
const useWritePages = (spaceId: string) => {
  const create = useMutation(createChangeRequest)
  const update = useMutation(updateContent)
  return async (subject: string, pages: ReadonlyArray<StartPage>) => {
    const cr = await create({ params: { spaceId }, payload: { subject }, reactivityKeys: [`space:${spaceId}`] })
    for (let at = 0; at < pages.length; at += batchSize) {
      await update({
        params: { spaceId, changeRequestId: cr.id },
        payload: {
          changes: pages.slice(at, at + batchSize).map((page) => ({ operation: "insert_page" as const, title: page.title, document: { markdown: page.markdown } }))
        },
        reactivityKeys: [`space:${spaceId}`]
      })
    }
    return cr.number
  }
}

const failureWords = (cause: unknown) => refusalOf(cause)?.message ?? "The server could not be reached: check your connection and try again."

const TemplateOption = (props: { readonly spaceId: string }) => {
  const [chosen, setChosen] = useState(templates[0]!.key)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const write = useWritePages(props.spaceId)
  const start = async () => {
    const template = templates.find((t) => t.key === chosen)!
    setBusy(true)
    setError(undefined)
    try {
      const number = await write(`Start from the template “${template.title}”`, template.pages)
      navigate(`/s/${props.spaceId}/~/changes/${number}/`)
    } catch (cause) {
      setError(`Could not add the template: ${failureWords(cause)}`)
      setBusy(false)
    }
  }
  return (
    <div className="space-start-option">
      <h3 id="start-template">Start from a template</h3>
      <fieldset className="template-choices" aria-labelledby="start-template">
        {templates.map((template) => (
          <label key={template.key}>
            <input type="radio" name="template" value={template.key} checked={chosen === template.key} onChange={() => setChosen(template.key)} aria-describedby={`template-${template.key}`} />
            <span><strong>{template.title}</strong><br /><span id={`template-${template.key}`} className="muted">{template.description}</span></span>
          </label>
        ))}
      </fieldset>
      <button type="button" className="primary" onClick={() => void start()} disabled={busy} aria-busy={busy} aria-describedby={error === undefined ? undefined : "template-error"}>
        {busy ? "Adding the pages…" : "Use this template"}
      </button>
      {error === undefined ? null : <p id="template-error" className="field-error" role="alert">{error}</p>}
      <p>The pages open in a change request, for you to edit and merge.</p>
    </div>
  )
}

const ImportOption = (props: { readonly spaceId: string }) => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const write = useWritePages(props.spaceId)
  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? [])
    event.target.value = ""
    const markdown = files.filter((file) => isMarkdown(file.name))
      .toSorted((a, b) => (a.webkitRelativePath || a.name).localeCompare(b.webkitRelativePath || b.name))
    setError(undefined)
    if (markdown.length === 0) {
      setError(files.length === 0 ? undefined : "None of these files is markdown: choose .md or .markdown files.")
      return
    }
    setBusy(true)
    try {
      const pages = await Promise.all(markdown.map(async (file) => pageOfFile(file.webkitRelativePath || file.name, await file.text())))
      const number = await write(pages.length === 1 ? `Import ${pages[0]!.title}` : `Import ${pages.length} markdown files`, pages)
      navigate(`/s/${props.spaceId}/~/changes/${number}/`)
    } catch (cause) {
      setError(`Could not import the files: ${failureWords(cause)}`)
      setBusy(false)
    }
  }
  return (
    <div className="space-start-option">
      <h3>Import</h3>
      <p>Markdown files become pages, one per file, in the order of their names; a file's first heading is its title.</p>
      <label className="button" aria-disabled={busy}>
        {busy ? "Importing…" : "Choose markdown files…"}
        <input type="file" className="visually-hidden" multiple accept=".md,.markdown,text/markdown" disabled={busy}
          onChange={(event) => void onFiles(event)} aria-describedby={error === undefined ? undefined : "import-error"} />
      </label>
      {error === undefined ? null : <p id="import-error" className="field-error" role="alert">{error}</p>}
      <p>A whole folder with its structure, or a website, comes in through Git sync or the API's import (<code>POST /v1/spaces/…/content/import</code>).</p>
    </div>
  )
}

export const SpaceStart = (props: { readonly space: Space }) => {
  const { space } = props
  if (!space.permissions.edit) {
    return (
      <section className="space-start" aria-labelledby="space-start-heading">
        <h2 id="space-start-heading">This space is empty</h2>
        <p className="muted">Nobody has written a page yet. You can read this space but not edit it: ask one of its editors to start it.</p>
      </section>
    )
  }
  return (
    <section className="space-start" aria-labelledby="space-start-heading">
      <h2 id="space-start-heading">Start this space</h2>
      <p className="muted">It has no pages yet. Begin with ready-made pages, bring your own, or keep it in sync with a Git repository.</p>
      <div className="space-start-options">
        <TemplateOption spaceId={space.id} />
        <ImportOption spaceId={space.id} />
        <div className="space-start-option">
          <h3>Sync with Git</h3>
          <p>Keep the space and a GitHub, GitLab or other Git repository in step: pages come from its markdown, and edits go back as commits.</p>
          {space.permissions.admin
            ? <Link className="button" href={`/s/${space.id}/~/git`}>Set up Git sync</Link>
            : <p>Only an administrator of the space can connect a repository: ask one to set it up.</p>}
        </div>
      </div>
    </section>
  )
}
