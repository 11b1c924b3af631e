/** An external link of the structure: its title and URL, draft or live; edit it, remove it, move it among its siblings. */
import type { SiteExternalLink, SiteSectionGroup } from "@quire/api"
import { useState } from "react"
import { useMutation } from "../../../api/react.ts"
import type { Position } from "../order.ts"
import { deleteExternalLink, useAction } from "../queries.ts"
import { keys, type StructureContext } from "./context.ts"
import { ExternalLinkForm } from "./ExternalLinkForm.tsx"
import { MovableRow } from "./MovableRow.tsx"

export interface ExternalLinkCardProps {
  readonly context: StructureContext
  readonly link: SiteExternalLink
  readonly groups: ReadonlyArray<SiteSectionGroup>
  readonly siblings: ReadonlyArray<string>
  readonly group: string
  readonly onMove: (id: string, position: Position) => void
}

export const ExternalLinkCard = (props: ExternalLinkCardProps) => {
  const { context, link } = props
  const [editing, setEditing] = useState(false)
  const remove = useMutation(deleteExternalLink)
  const action = useAction()
  const onRemove = () => void action.run(async () => {
    await remove({ params: { organizationId: context.organizationId, siteId: context.siteId, siteExternalLinkId: link.id }, reactivityKeys: keys(context) })
    context.say(`Removed the external link ${link.title}`)
  })
  return (
    <li className="site-section site-external-link">
      <MovableRow id={link.id} group={props.group} siblings={props.siblings} label={`the external link ${link.title}`} admin={context.admin} onMove={props.onMove} className="site-section-row" testId={`link-${link.id}`}
        actions={editing || !context.admin ? null : (
          <>
            <button type="button" className="link" onClick={() => setEditing(true)} aria-label={`Edit the external link ${link.title}`}>Edit</button>
            <button type="button" className="link danger" onClick={onRemove} disabled={action.busy} aria-label={`Remove the external link ${link.title}`}>Remove</button>
          </>
        )}>
        <span className="site-row-title">{link.title}</span>
        <span className="badge">{link.draft ? "Draft link" : "Link"}</span>
        <a className="meta" href={link.url} target="_blank" rel="noreferrer">{link.url} ↗</a>
      </MovableRow>
      {editing ? <ExternalLinkForm context={context} groups={props.groups} link={link} onDone={() => setEditing(false)} /> : null}
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
    </li>
  )
}
