/** A section of the site: its title (rename, remove, make it the default, take it out of its group) over its variants, with "Add a space". */
import type { SiteSection, SiteSectionGroup } from "@quire/api"
import { type FormEvent, useId, useState } from "react"
import { useMutation } from "../../../api/react.ts"
import { Field, FormActions } from "../../../ui/Field.tsx"
import { messageElse, messageFor } from "../errors.ts"
import type { Position } from "../order.ts"
import { deleteSection, removeSectionFromGroup, updateSection, updateSite, useAction } from "../queries.ts"
import { keys, type StructureContext } from "./context.ts"
import { AddSpaceForm } from "./AddSpaceForm.tsx"
import { MovableRow } from "./MovableRow.tsx"
import { Variants } from "./Variants.tsx"

export interface SectionCardProps {
  readonly context: StructureContext
  readonly section: SiteSection
  readonly siblings: ReadonlyArray<string>
  readonly group: string
  readonly onMove: (id: string, position: Position) => void
  readonly inGroup?: SiteSectionGroup | undefined
}

export const SectionCard = (props: SectionCardProps) => {
  const { context, section, inGroup } = props
  const takeOut = useMutation(removeSectionFromGroup)
  const [renaming, setRenaming] = useState(false)
  const [adding, setAdding] = useState(false)
  const [draft, setDraft] = useState(section.title)
  const rename = useMutation(updateSection)
  const remove = useMutation(deleteSection)
  const setDefault = useMutation(updateSite)
  const action = useAction()
  const renameAction = useAction()
  const params = { organizationId: context.organizationId, siteId: context.siteId, siteSectionId: section.id }
  const onRename = async (event: FormEvent) => {
    event.preventDefault()
    const value = draft.trim()
    const done = await renameAction.run(() => rename({ params, payload: { title: value }, reactivityKeys: keys(context) }))
    if (done) {
      setRenaming(false)
      context.say(`Renamed the section to ${value}`)
    }
  }
  const onRemove = () => void action.run(async () => {
    await remove({ params, reactivityKeys: keys(context) })
    context.say(`Removed the section ${section.title}`)
  })
  const makeDefault = () => void action.run(async () => {
    await setDefault({ params: { organizationId: context.organizationId, siteId: context.siteId }, payload: { defaultSiteSection: section.id }, reactivityKeys: keys(context) })
    context.say(`${section.title} is the default section`)
  })
  const onTakeOut = (group: SiteSectionGroup) => void action.run(async () => {
    await takeOut({ params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionGroupId: group.id, siteSectionId: section.id }, reactivityKeys: keys(context) })
    context.say(`Took ${section.title} out of the group ${group.title}`)
  })
  const headingId = useId()
  return (
    <li className="site-section" aria-labelledby={headingId}>
      <MovableRow id={section.id} group={props.group} siblings={props.siblings} label={`the section ${section.title}`} admin={context.admin} onMove={props.onMove} className="site-section-row" testId={`section-${section.id}`}
        actions={renaming ? null : (
          <>
            <button type="button" className="link" onClick={() => {
              setDraft(section.title)
              setRenaming(true)
            }} aria-label={`Rename the section ${section.title}`}>Rename</button>
            {section.default ? null : <button type="button" className="link" onClick={makeDefault} disabled={action.busy} aria-label={`Make default section: ${section.title}`}>Make default</button>}
            {inGroup === undefined ? null : <button type="button" className="link" onClick={() => onTakeOut(inGroup)} disabled={action.busy} aria-label={`Take out of group ${inGroup.title}: ${section.title}`}>Take out of group</button>}
            <button type="button" className="link danger" onClick={onRemove} disabled={action.busy} aria-label={`Remove the section ${section.title}`}>Remove</button>
          </>
        )}>
        {renaming ? (
          <form className="inline-form" onSubmit={(event) => void onRename(event)} aria-label={`Rename the section ${section.title}`}>
            <Field label="Section title" name="title" value={draft} onChange={setDraft} error={messageFor(renameAction.problem, "title")} autoFocus />
            <FormActions error={messageElse(renameAction.problem, "title")} busy={renameAction.busy} label="Save" busyLabel="Saving…" onCancel={() => setRenaming(false)} />
          </form>
        ) : (
          <>
            <h3 id={headingId} className="site-row-title">{section.title}</h3>
            {section.default ? <span className="badge">Default section</span> : null}
            <span className="meta">/{section.path}</span>
          </>
        )}
      </MovableRow>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <div className="site-variants">
        <Variants context={context} siteSpaces={section.siteSpaces} section={section} label={`Variants of ${section.title}`} />
        {context.admin ? adding
          ? <AddSpaceForm context={context} sectionId={section.id} taken={section.siteSpaces.map((s) => s.space.id)} label={`Space to add to ${section.title}`} onDone={() => setAdding(false)} />
          : <button type="button" onClick={() => setAdding(true)} aria-label={`Add a variant to ${section.title}`}>Add a variant</button>
          : null}
      </div>
    </li>
  )
}
