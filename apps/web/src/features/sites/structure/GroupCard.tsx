/** A group: its title (rename, remove; its sections stay on the site) over its sections and external links. */
import type { SiteExternalLink, SiteSection, SiteSectionGroup } from "@quire/api"
import { type FormEvent, useId, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { Field, FormActions } from "../../../ui/Field.tsx"
import { messageElse, messageFor } from "../errors.ts"
import type { Position } from "../order.ts"
import { deleteGroup, sortStructure, updateGroup, useAction } from "../queries.ts"
import { itemPointer, keys, type StructureContext } from "./context.ts"
import { ExternalLinkCard } from "./ExternalLinkCard.tsx"
import { MovableRow } from "./MovableRow.tsx"
import { Sections } from "./Sections.tsx"
import { AddToGroupForm } from "./AddToGroupForm.tsx"

export interface GroupCardProps {
  readonly context: StructureContext
  readonly group: SiteSectionGroup
  readonly ungrouped: ReadonlyArray<SiteSection>
  readonly siblings: ReadonlyArray<string>
  readonly onMove: (id: string, position: Position) => void
}

export const GroupCard = (props: GroupCardProps) => {
  const { context, group } = props
  const [renaming, setRenaming] = useState(false)
  const [adding, setAdding] = useState(false)
  const [draft, setDraft] = useState(group.title)
  const rename = useMutation(updateGroup)
  const sort = useMutation(sortStructure)
  const links = group.children.filter((child): child is SiteExternalLink => child.object === "site-external-link")
  const linkIds = links.map((link) => link.id)
  const moveLink = (id: string, position: Position) => void action.run(async () => {
    const target = "before" in position ? position.before : position.after
    const pointer = itemPointer(group.children.find((child) => child.id === target) ?? { object: "site-external-link", id: target })
    await sort({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { item: { type: "site-external-link", id }, position: "before" in position ? { before: pointer } : { after: pointer } },
      reactivityKeys: keys(context)
    })
    context.say("Moved the external link")
  })
  const remove = useMutation(deleteGroup)
  const action = useAction()
  const renameAction = useAction()
  const params = { organizationId: context.organizationId, siteId: context.siteId, siteSectionGroupId: group.id }
  const onRename = async (event: FormEvent) => {
    event.preventDefault()
    const value = draft.trim()
    const done = await renameAction.run(() => rename({ params, payload: { title: value }, reactivityKeys: keys(context) }))
    if (done) {
      setRenaming(false)
      context.say(`Renamed the group to ${value}`)
    }
  }
  const onRemove = () => void action.run(async () => {
    await remove({ params, reactivityKeys: keys(context) })
    context.say(`Removed the group ${group.title}; its sections stay on the site`)
  })
  const headingId = useId()
  return (
    <li className="site-group" aria-labelledby={headingId}>
      <MovableRow id={group.id} group="sections:root" siblings={props.siblings} label={`the group ${group.title}`} admin={context.admin} onMove={props.onMove} className="site-group-row" testId={`group-${group.id}`}
        actions={renaming ? null : (
          <>
            <button type="button" className="link" onClick={() => {
              setDraft(group.title)
              setRenaming(true)
            }} aria-label={`Rename the group ${group.title}`}>Rename</button>
            <button type="button" className="link danger" onClick={onRemove} disabled={action.busy} aria-label={`Remove the group ${group.title}`}>Remove</button>
          </>
        )}>
        {renaming ? (
          <form className="inline-form" onSubmit={(event) => void onRename(event)} aria-label={`Rename the group ${group.title}`}>
            <Field label="Group title" name="title" value={draft} onChange={setDraft} error={messageFor(renameAction.problem, "title")} autoFocus />
            <FormActions error={messageElse(renameAction.problem, "title")} busy={renameAction.busy} label="Save" busyLabel="Saving…" onCancel={() => setRenaming(false)} />
          </form>
        ) : (
          <>
            <h3 id={headingId} className="site-row-title">{group.title}</h3>
            <span className="badge">Group</span>
          </>
        )}
      </MovableRow>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <div className="site-variants">
        {group.sections.length === 0 ? <p className="muted">No section in this group yet.</p>
          : <Sections context={context} sections={group.sections} group={`sections:${group.id}`} label={`Sections of the group ${group.title}`} inGroup={group} />}
        {links.length === 0 ? null : (
          <ul className="site-sections" aria-label={`External links of the group ${group.title}`}>
            {links.map((link) => <ExternalLinkCard key={link.id} context={context} link={link} groups={[group]} siblings={linkIds} group={`links:${group.id}`} onMove={moveLink} />)}
          </ul>
        )}
        {context.admin && props.ungrouped.length > 0 ? adding
          ? <AddToGroupForm context={context} group={group} sections={props.ungrouped} onDone={() => setAdding(false)} />
          : <button type="button" onClick={() => setAdding(true)} aria-label={`Add a section to the group ${group.title}`}>Add a section</button>
          : null}
      </div>
    </li>
  )
}
