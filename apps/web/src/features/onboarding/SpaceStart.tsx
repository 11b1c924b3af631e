/**
 * What an empty space offers: write its first page, start from a template, import markdown files,
 * or sync with a Git repository. A template or an import is written as pages of one new change request (as every
 * edit of a space is), which opens for the person to look over and merge; Git sync is its own
 * screen. Offered to whoever may edit the space; the Git sync screen to its administrators.
 */
import type { Space } from "@quire/api"
import { useState } from "react"
import { navigate } from "../../router.ts"
import { Link } from "../../ui/Link.tsx"
import { ImportFiles } from "./ImportFiles.tsx"
import { useStartFirstPage } from "./first-page.ts"
import { templates } from "./templates.ts"
import { failureWords, useWritePages } from "./write-pages.ts"
import "./onboarding.css"

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
      const number = await write(`Start from the template “${template.title}”`, template.pages.map((page) => ({ ...page, parent: undefined })))
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

/** "Write the first page": a page to type into, its title first. */
const FirstPageOption = (props: { readonly spaceId: string }) => {
  const start = useStartFirstPage()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const onClick = () => {
    setBusy(true)
    setError(undefined)
    start(props.spaceId).catch((cause: unknown) => {
      setError(`Could not open a first page: ${failureWords(cause)}`)
      setBusy(false)
    })
  }
  return (
    <div className="space-start-option">
      <h3>Write</h3>
      <p>A first page opens in the editor: type its title, then its text.</p>
      <button type="button" className="primary" onClick={onClick} disabled={busy} aria-busy={busy} aria-describedby={error === undefined ? undefined : "first-page-error"}>
        {busy ? "Opening…" : "Write the first page"}
      </button>
      {error === undefined ? null : <p id="first-page-error" className="field-error" role="alert">{error}</p>}
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
      <p className="muted">It has no pages yet. Write one, begin with ready-made pages, bring your own, or keep it in sync with a Git repository.</p>
      <div className="space-start-options">
        <FirstPageOption spaceId={space.id} />
        <TemplateOption spaceId={space.id} />
        <div className="space-start-option">
          <h3>Import</h3>
          <ImportFiles spaceId={space.id} />
        </div>
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
