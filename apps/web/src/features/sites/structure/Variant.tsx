/** A site space: its space (opened in the app), its published page, whether it is the default. */
import type { SiteSection, SiteSpace } from "@quire/api"
import { useMutation } from "../../../api/react.ts"
import { Link } from "../../../ui/Link.tsx"
import type { Position } from "../order.ts"
import { useState } from "react"
import { deleteSiteSpace, duplicateSiteSpace, updateSection, updateSite, useAction } from "../queries.ts"
import { VariantLook } from "./VariantLook.tsx"
import { keys, spaceTitle, type StructureContext } from "./context.ts"
import { MovableRow } from "./MovableRow.tsx"

export interface VariantProps {
  readonly context: StructureContext
  readonly siteSpace: SiteSpace
  readonly siblings: ReadonlyArray<string>
  readonly group: string
  readonly section?: SiteSection
  readonly onMove: (id: string, position: Position) => void
}

export const Variant = (props: VariantProps) => {
  const { context, siteSpace, section } = props
  const remove = useMutation(deleteSiteSpace)
  const duplicate = useMutation(duplicateSiteSpace)
  const [styling, setStyling] = useState(false)
  const setSectionDefault = useMutation(updateSection)
  const setSiteDefault = useMutation(updateSite)
  const action = useAction()
  const title = siteSpace.title === "" ? spaceTitle(siteSpace.space) : siteSpace.title
  const params = { organizationId: context.organizationId, siteId: context.siteId, siteSpaceId: siteSpace.id }
  const makeDefault = () => void action.run(async () => {
    if (section === undefined) await setSiteDefault({ params: { organizationId: context.organizationId, siteId: context.siteId }, payload: { defaultSiteSpace: siteSpace.id }, reactivityKeys: keys(context) })
    else await setSectionDefault({ params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionId: section.id }, payload: { defaultSiteSpace: siteSpace.id }, reactivityKeys: keys(context) })
    context.say(`${title} is the default`)
  })
  const onDuplicate = () => void action.run(async () => {
    await duplicate({ params, payload: {}, reactivityKeys: keys(context) })
    context.say(`Duplicated ${title}`)
  })
  const onRemove = () => void action.run(async () => {
    await remove({ params, reactivityKeys: keys(context) })
    context.say(`Removed ${title} from the site`)
  })
  return (
    <li>
      <MovableRow id={siteSpace.id} group={props.group} siblings={props.siblings} label={title} admin={context.admin} onMove={props.onMove} testId={`variant-${siteSpace.id}`}
        actions={(
          <>
            {siteSpace.default ? null : <button type="button" className="link" onClick={makeDefault} disabled={action.busy} aria-label={`Make default: ${title}`}>Make default</button>}
            {context.admin ? <button type="button" className="link" onClick={() => setStyling(true)} disabled={styling} aria-label={`Look of ${title}`}>Look</button> : null}
            {context.admin ? <button type="button" className="link" onClick={onDuplicate} disabled={action.busy} aria-label={`Duplicate ${title}`}>Duplicate</button> : null}
            <button type="button" className="link danger" onClick={onRemove} disabled={action.busy} aria-label={`Remove ${title} from the site`}>Remove</button>
          </>
        )}>
        <Link href={`/s/${siteSpace.space.id}`} className="site-row-title">{title}</Link>
        {siteSpace.default ? <span className="badge">Default</span> : null}
        <span className="meta">/{siteSpace.path}</span>
        {siteSpace.urls.published === undefined ? null : <a className="meta" href={siteSpace.urls.published} target="_blank" rel="noreferrer" aria-label={`${title} on the published site`}>Published ↗</a>}
      </MovableRow>
      {styling ? <VariantLook context={context} siteSpace={siteSpace} title={title} onDone={() => setStyling(false)} /> : null}
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.field === undefined ? action.problem.message : `${action.problem.field}: ${action.problem.message}`}</p>}
    </li>
  )
}
