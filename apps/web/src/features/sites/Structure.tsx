/**
 * A site's structure: its sections (tabs readers switch between), each holding site spaces (its
 * variants), or, before it has sections, the site spaces at its root. Admins add a space to the
 * site or to a section, add, rename and remove sections, choose the default section and variant,
 * gather sections in groups (a heading over several tabs: create, rename, remove, put a section in
 * or take it out), and reorder by drag or from the keyboard (Alt+Up/Down on a row, or its buttons):
 * each move is one `moveSiteSection` / `moveSiteSpace` / `moveSiteSectionGroup` with the sibling it
 * goes before or after (./order.ts).
 */
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine"
import { draggable, dropTargetForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter"
import type { SiteSection, SiteSectionGroup, SiteSpace, SiteStructure, Space } from "@quire/api"
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import { useMutation } from "../../api/react.ts"
import { Field, FormActions } from "../../ui/Field.tsx"
import { Link } from "../../ui/Link.tsx"
import { messageElse, messageFor } from "./errors.ts"
import { applyMove, dropPosition, edgeOf, type Position, stepPosition } from "./order.ts"
import {
  addGroup,
  addSection,
  addSectionToGroup,
  addSiteSpace,
  deleteGroup,
  deleteSection,
  deleteSiteSpace,
  moveGroup,
  moveSection,
  moveSiteSpace,
  removeSectionFromGroup,
  siteKey,
  updateGroup,
  updateSection,
  updateSite,
  useAction
} from "./queries.ts"

interface Context {
  readonly organizationId: string
  readonly siteId: string
  readonly admin: boolean
  readonly spaces: ReadonlyArray<Space>
  readonly say: (message: string) => void
}

const keys = (context: Context) => [siteKey(context.siteId)]
const siteSpacePointer = (siteSpace: string) => ({ type: "site-space" as const, siteSpace })
const sectionPointer = (siteSection: string) => ({ type: "site-section" as const, siteSection })
const spaceTitle = (space: Space) => space.title === "" ? "Untitled space" : space.title

/** A select of the organization's spaces, those already in the container left out. */
const SpacePicker = (props: { readonly label: string; readonly spaces: ReadonlyArray<Space>; readonly value: string; readonly onChange: (id: string) => void; readonly error?: string | undefined }) => {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error === undefined ? undefined : true} aria-describedby={props.error === undefined ? undefined : `${id}-error`}>
        <option value="">Choose a space…</option>
        {props.spaces.map((space) => <option key={space.id} value={space.id}>{spaceTitle(space)}</option>)}
      </select>
      {props.error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{props.error}</p>}
    </div>
  )
}

/** "Add a space": to a section (a variant) or to the site's root. */
const AddSpaceForm = (props: { readonly context: Context; readonly sectionId?: string; readonly taken: ReadonlyArray<string>; readonly label: string; readonly onDone: () => void }) => {
  const { context } = props
  const [spaceId, setSpaceId] = useState("")
  const add = useMutation(addSiteSpace)
  const action = useAction()
  const choices = context.spaces.filter((space) => !props.taken.includes(space.id))
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const space = context.spaces.find((s) => s.id === spaceId)
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { spaceId, ...(props.sectionId === undefined ? {} : { sectionId: props.sectionId }) },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Added ${space === undefined ? "the space" : spaceTitle(space)}`)
      props.onDone()
    }
  }
  const other = messageElse(action.problem, "spaceId")
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label={props.sectionId === undefined ? "New space of the site" : "New variant"}>
      <SpacePicker label={props.label} spaces={choices} value={spaceId} onChange={setSpaceId} error={messageFor(action.problem, "spaceId")} />
      <FormActions error={other} busy={action.busy} label="Add" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}

/** "New section": a title and the space it shows first. */
const AddSectionForm = (props: { readonly context: Context; readonly onDone: () => void }) => {
  const { context } = props
  const [title, setTitle] = useState("")
  const [spaceId, setSpaceId] = useState("")
  const add = useMutation(addSection)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { spaceId, ...(value === "" ? {} : { title: value }) },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Added the section ${value === "" ? "" : value}`.trim())
      props.onDone()
    }
  }
  const other = messageElse(action.problem, "title", "spaceId")
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label="New section">
      <Field label="Section title" name="title" value={title} onChange={setTitle} error={messageFor(action.problem, "title")} hint="Empty: the space's title." autoFocus />
      <SpacePicker label="Space it shows" spaces={context.spaces} value={spaceId} onChange={setSpaceId} error={messageFor(action.problem, "spaceId")} />
      <FormActions error={other} busy={action.busy} label="Add section" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}

/**
 * A row that moves among its siblings: dragged by its handle onto a sibling's top or bottom half,
 * or from the keyboard with Alt+Up / Alt+Down while focus is in it, or by its Move buttons.
 */
const MovableRow = (props: {
  readonly id: string
  readonly group: string
  readonly siblings: ReadonlyArray<string>
  readonly label: string
  readonly admin: boolean
  /** Moves a row of this list (this one, or one dropped on it) to `position`. */
  readonly onMove: (id: string, position: Position) => void
  readonly className?: string
  readonly children: ReactNode
  readonly actions?: ReactNode
  readonly testId?: string
}) => {
  const row = useRef<HTMLDivElement>(null)
  const handle = useRef<HTMLSpanElement>(null)
  const [dragging, setDragging] = useState(false)
  const [edge, setEdge] = useState<"top" | "bottom" | undefined>(undefined)
  const { id, group, admin, onMove, siblings } = props
  const latest = useRef({ onMove, siblings })
  latest.current = { onMove, siblings }
  useEffect(() => {
    const element = row.current
    const dragHandle = handle.current
    if (!admin || element === null || dragHandle === null) return
    return combine(
      draggable({ element, dragHandle, getInitialData: () => ({ id, group }), onDragStart: () => setDragging(true), onDrop: () => setDragging(false) }),
      dropTargetForElements({
        element,
        canDrop: ({ source }) => source.data["group"] === group && source.data["id"] !== id,
        getData: ({ input }) => ({ id, edge: edgeOf(element, input.clientY) }),
        onDrag: ({ self }) => setEdge(self.data["edge"] as "top" | "bottom"),
        onDragLeave: () => setEdge(undefined),
        onDrop: ({ source, self }) => {
          setEdge(undefined)
          // The drop lands on this row; the row dragged is the one that moves.
          const dragged = String(source.data["id"])
          const position = dropPosition(latest.current.siblings, dragged, id, self.data["edge"] as "top" | "bottom")
          if (position !== undefined) latest.current.onMove(dragged, position)
        }
      })
    )
  }, [id, group, admin])
  // A row moved from the keyboard keeps the focus where it was once the new order is drawn.
  const refocus = useRef<HTMLElement | null>(null)
  const index = siblings.indexOf(id)
  useEffect(() => {
    const element = refocus.current
    refocus.current = null
    if (element !== null && element.isConnected && document.activeElement !== element) element.focus()
  }, [index])
  const step = (direction: -1 | 1) => {
    const position = stepPosition(siblings, id, direction)
    if (position === undefined) return
    refocus.current = document.activeElement instanceof HTMLElement && row.current?.contains(document.activeElement) === true ? document.activeElement : null
    onMove(id, position)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (!admin || !event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return
    event.preventDefault()
    event.stopPropagation()
    step(event.key === "ArrowUp" ? -1 : 1)
  }
  const className = ["site-row", props.className ?? "", dragging ? "dragging" : "", edge === undefined ? "" : `drop-${edge}`].filter(Boolean).join(" ")
  return (
    <div ref={row} className={className} onKeyDown={onKeyDown} data-testid={props.testId}>
      {admin ? <span ref={handle} className="drag-handle" aria-hidden="true" title="Drag to reorder">⋮⋮</span> : null}
      <div className="site-row-body">{props.children}</div>
      {admin ? (
        <div className="site-row-actions">
          {siblings.length > 1 ? (
            <>
              <button type="button" className="link" aria-label={`Move ${props.label} up`} aria-keyshortcuts="Alt+ArrowUp" disabled={index <= 0} onClick={() => step(-1)}>↑</button>
              <button type="button" className="link" aria-label={`Move ${props.label} down`} aria-keyshortcuts="Alt+ArrowDown" disabled={index === siblings.length - 1} onClick={() => step(1)}>↓</button>
            </>
          ) : null}
          {props.actions}
        </div>
      )
        : null}
    </div>
  )
}

/** A site space: its space (opened in the app), its published page, whether it is the default. */
const Variant = (props: { readonly context: Context; readonly siteSpace: SiteSpace; readonly siblings: ReadonlyArray<string>; readonly group: string; readonly section?: SiteSection; readonly onMove: (id: string, position: Position) => void }) => {
  const { context, siteSpace, section } = props
  const remove = useMutation(deleteSiteSpace)
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
            <button type="button" className="link danger" onClick={onRemove} disabled={action.busy} aria-label={`Remove ${title} from the site`}>Remove</button>
          </>
        )}>
        <Link href={`/s/${siteSpace.space.id}`} className="site-row-title">{title}</Link>
        {siteSpace.default ? <span className="badge">Default</span> : null}
        <span className="meta">/{siteSpace.path}</span>
        {siteSpace.urls.published === undefined ? null : <a className="meta" href={siteSpace.urls.published} target="_blank" rel="noreferrer" aria-label={`${title} on the published site`}>Published ↗</a>}
      </MovableRow>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.field === undefined ? action.problem.message : `${action.problem.field}: ${action.problem.message}`}</p>}
    </li>
  )
}

const Variants = (props: { readonly context: Context; readonly siteSpaces: ReadonlyArray<SiteSpace>; readonly section?: SiteSection; readonly label: string }) => {
  const { context } = props
  const order = useOrder(props.siteSpaces)
  const ids = order.ids
  const group = `variants:${props.section?.id ?? "root"}`
  const move = useMutation(moveSiteSpace)
  const action = useAction()
  const onMove = (id: string, position: Position) => void action.run(async () => {
    order.show(id, position)
    await move({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSpaceId: id },
      payload: { position: "before" in position ? { before: siteSpacePointer(position.before) } : { after: siteSpacePointer(position.after) } },
      reactivityKeys: keys(context)
    })
    const moved = props.siteSpaces.find((s) => s.id === id)
    context.say(`Moved ${moved === undefined ? "the space" : moved.title}`)
  }).then((done) => done ? undefined : order.undo())
  return props.siteSpaces.length === 0 ? <p className="muted">No spaces yet.</p> : (
    <>
      <ul className="site-list" aria-label={props.label}>
        {order.ordered.map((siteSpace) => (
          <Variant key={siteSpace.id} context={context} siteSpace={siteSpace} siblings={ids} group={group} onMove={onMove} {...(props.section === undefined ? {} : { section: props.section })} />
        ))}
      </ul>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
    </>
  )
}

const SectionCard = (props: { readonly context: Context; readonly section: SiteSection; readonly siblings: ReadonlyArray<string>; readonly group: string; readonly onMove: (id: string, position: Position) => void; readonly inGroup?: SiteSectionGroup | undefined }) => {
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

/**
 * The order of a list as drawn: the API's, or, from a move until the API's next answer, the order
 * the move gives (./order.ts `applyMove`), so a move shows at once and the next key press moves
 * from there.
 */
const useOrder = <A extends { readonly id: string }>(items: ReadonlyArray<A>) => {
  const served = items.map((item) => item.id)
  const servedKey = served.join(",")
  const [pending, setPending] = useState<ReadonlyArray<string> | undefined>(undefined)
  useEffect(() => setPending(undefined), [servedKey])
  const ids = pending !== undefined && pending.length === served.length && pending.every((id) => served.includes(id)) ? pending : served
  const byId = new Map(items.map((item) => [item.id, item]))
  return {
    ids,
    ordered: ids.map((id) => byId.get(id)!),
    /** Draws the move now; `undo` when the API refused it. */
    show: (id: string, position: Position) => setPending(applyMove(ids, id, position)),
    undo: () => setPending(undefined)
  }
}

/** A group's sections in their order, each moved beside a sibling. */
const Sections = (props: { readonly context: Context; readonly sections: ReadonlyArray<SiteSection>; readonly group: string; readonly label: string; readonly inGroup: SiteSectionGroup }) => {
  const { context } = props
  const order = useOrder(props.sections)
  const ids = order.ids
  const move = useMutation(moveSection)
  const action = useAction()
  const onMove = (id: string, position: Position) => void action.run(async () => {
    order.show(id, position)
    await move({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionId: id },
      payload: { position: "before" in position ? { before: sectionPointer(position.before) } : { after: sectionPointer(position.after) } },
      reactivityKeys: keys(context)
    })
    const moved = props.sections.find((s) => s.id === id)
    context.say(`Moved the section ${moved === undefined ? "" : moved.title}`.trim())
  }).then((done) => done ? undefined : order.undo())
  return (
    <>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <ul className="site-sections" aria-label={props.label}>
        {order.ordered.map((section) => <SectionCard key={section.id} context={context} section={section} siblings={ids} group={props.group} onMove={onMove} inGroup={props.inGroup} />)}
      </ul>
    </>
  )
}

type TopEntry = SiteSection | SiteSectionGroup

/** The sections at the top level, out of any group. */
const ungroupedOf = (entries: ReadonlyArray<TopEntry>) => entries.filter((entry): entry is SiteSection => entry.object === "site-section")

/** "New group": a title and the top-level sections it gathers, in their order. */
const NewGroupForm = (props: { readonly context: Context; readonly sections: ReadonlyArray<SiteSection>; readonly onDone: () => void }) => {
  const { context } = props
  const [title, setTitle] = useState("")
  const [chosen, setChosen] = useState<ReadonlyArray<string>>([])
  const add = useMutation(addGroup)
  const action = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = title.trim()
    const sections = props.sections.map((section) => section.id).filter((id) => chosen.includes(id))
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { title: value, sections },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Added the group ${value}`)
      props.onDone()
    }
  }
  const toggle = (id: string, on: boolean) => setChosen((now) => on ? [...now, id] : now.filter((other) => other !== id))
  return (
    <form className="panel site-form" onSubmit={(event) => void submit(event)} aria-label="New group">
      <Field label="Group title" name="title" value={title} onChange={setTitle} error={messageFor(action.problem, "title")} hint="Readers see it as a menu holding the sections below." autoFocus />
      <fieldset className="checks">
        <legend>Sections it holds</legend>
        {props.sections.map((section) => (
          <label key={section.id} className="check">
            <input type="checkbox" checked={chosen.includes(section.id)} onChange={(event) => toggle(section.id, event.target.checked)} />
            {section.title}
          </label>
        ))}
        {messageFor(action.problem, "sections") === undefined ? null : <p className="field-error" role="alert">{messageFor(action.problem, "sections")}</p>}
      </fieldset>
      <FormActions error={messageElse(action.problem, "title", "sections")} busy={action.busy} label="Add group" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}

/** "Add a section to the group": one of the top-level sections. */
const AddToGroupForm = (props: { readonly context: Context; readonly group: SiteSectionGroup; readonly sections: ReadonlyArray<SiteSection>; readonly onDone: () => void }) => {
  const { context, group } = props
  const [sectionId, setSectionId] = useState("")
  const add = useMutation(addSectionToGroup)
  const action = useAction()
  const id = useId()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const section = props.sections.find((s) => s.id === sectionId)
    const done = await action.run(() => add({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionGroupId: group.id },
      payload: { sectionId },
      reactivityKeys: keys(context)
    }))
    if (done) {
      context.say(`Put ${section === undefined ? "the section" : section.title} in the group ${group.title}`)
      props.onDone()
    }
  }
  const error = messageFor(action.problem, "sectionId")
  return (
    <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label={`Add a section to the group ${group.title}`}>
      <div className="field">
        <label htmlFor={id}>Section to put in {group.title}</label>
        <select id={id} value={sectionId} onChange={(event) => setSectionId(event.target.value)}
          aria-invalid={error === undefined ? undefined : true} aria-describedby={error === undefined ? undefined : `${id}-error`}>
          <option value="">Choose a section…</option>
          {props.sections.map((section) => <option key={section.id} value={section.id}>{section.title}</option>)}
        </select>
        {error === undefined ? null : <p id={`${id}-error`} className="field-error" role="alert">{error}</p>}
      </div>
      <FormActions error={messageElse(action.problem, "sectionId")} busy={action.busy} label="Add" busyLabel="Adding…" onCancel={props.onDone} />
    </form>
  )
}

/** A group: its title (rename, remove; its sections stay on the site) over its sections. */
const GroupCard = (props: {
  readonly context: Context
  readonly group: SiteSectionGroup
  readonly ungrouped: ReadonlyArray<SiteSection>
  readonly siblings: ReadonlyArray<string>
  readonly onMove: (id: string, position: Position) => void
}) => {
  const { context, group } = props
  const [renaming, setRenaming] = useState(false)
  const [adding, setAdding] = useState(false)
  const [draft, setDraft] = useState(group.title)
  const rename = useMutation(updateGroup)
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
      <MovableRow id={group.id} group="top" siblings={props.siblings} label={`the group ${group.title}`} admin={context.admin} onMove={props.onMove} className="site-group-row" testId={`group-${group.id}`}
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
        {context.admin && props.ungrouped.length > 0 ? adding
          ? <AddToGroupForm context={context} group={group} sections={props.ungrouped} onDone={() => setAdding(false)} />
          : <button type="button" onClick={() => setAdding(true)} aria-label={`Add a section to the group ${group.title}`}>Add a section</button>
          : null}
      </div>
    </li>
  )
}

/**
 * The top level of a site with sections: sections and groups in the site's order. A section moves
 * beside another top-level section (`moveSiteSection`), a group beside any top-level entry
 * (`moveSiteSectionGroup`, with the entry's kind).
 */
const TopLevel = (props: { readonly context: Context; readonly entries: ReadonlyArray<TopEntry> }) => {
  const { context } = props
  const order = useOrder(props.entries)
  const sectionIds = order.ordered.filter((entry) => entry.object === "site-section").map((entry) => entry.id)
  const ungrouped = ungroupedOf(props.entries)
  const moveS = useMutation(moveSection)
  const moveG = useMutation(moveGroup)
  const action = useAction()
  const kindOf = (id: string) => props.entries.find((entry) => entry.id === id)?.object ?? "site-section"
  const titleOf = (id: string) => props.entries.find((entry) => entry.id === id)?.title ?? ""
  const onMoveSection = (id: string, position: Position) => void action.run(async () => {
    order.show(id, position)
    await moveS({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionId: id },
      payload: { position: "before" in position ? { before: sectionPointer(position.before) } : { after: sectionPointer(position.after) } },
      reactivityKeys: keys(context)
    })
    context.say(`Moved the section ${titleOf(id)}`)
  }).then((done) => done ? undefined : order.undo())
  const onMoveGroup = (id: string, position: Position) => void action.run(async () => {
    order.show(id, position)
    const pointer = (target: string) => ({ type: kindOf(target), id: target })
    await moveG({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionGroupId: id },
      payload: { position: "before" in position ? { before: pointer(position.before) } : { after: pointer(position.after) } },
      reactivityKeys: keys(context)
    })
    context.say(`Moved the group ${titleOf(id)}`)
  }).then((done) => done ? undefined : order.undo())
  return (
    <>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <ul className="site-sections" aria-label="Sections">
        {order.ordered.map((entry) => entry.object === "site-section"
          ? <SectionCard key={entry.id} context={context} section={entry} siblings={sectionIds} group="sections:root" onMove={onMoveSection} />
          : <GroupCard key={entry.id} context={context} group={entry} ungrouped={ungrouped} siblings={order.ids} onMove={onMoveGroup} />)}
      </ul>
    </>
  )
}

/** The structure of a site: its sections (and groups) or its root spaces, with the admin's forms. */
export const Structure = (props: { readonly organizationId: string; readonly siteId: string; readonly admin: boolean; readonly structure: SiteStructure; readonly spaces: ReadonlyArray<Space> }) => {
  const [message, setMessage] = useState("")
  const [adding, setAdding] = useState<"section" | "space" | "group" | undefined>(undefined)
  const context: Context = { organizationId: props.organizationId, siteId: props.siteId, admin: props.admin, spaces: props.spaces, say: setMessage }
  const { structure } = props
  const ungrouped = structure.type === "sections" ? ungroupedOf(structure.structure) : []
  return (
    <>
      {props.admin ? (
        <div className="toolbar">
          <button type="button" onClick={() => setAdding("section")} disabled={adding !== undefined}>New section</button>
          {structure.type === "siteSpaces" ? <button type="button" onClick={() => setAdding("space")} disabled={adding !== undefined}>Add a space</button> : null}
          {structure.type === "sections" && ungrouped.length > 0 ? <button type="button" onClick={() => setAdding("group")} disabled={adding !== undefined}>New group</button> : null}
        </div>
      ) : null}
      {adding === "section" ? <AddSectionForm context={context} onDone={() => setAdding(undefined)} /> : null}
      {adding === "group" ? <NewGroupForm context={context} sections={ungrouped} onDone={() => setAdding(undefined)} /> : null}
      {adding === "space" && structure.type === "siteSpaces"
        ? <AddSpaceForm context={context} taken={structure.structure.map((s) => s.space.id)} label="Space to add to the site" onDone={() => setAdding(undefined)} />
        : null}
      <p className="status" role="status">{message}</p>
      {structure.type === "siteSpaces"
        ? structure.structure.length === 0
          ? <p className="muted">This site shows no space yet.{props.admin ? " Add a space, or a section holding one." : ""}</p>
          : <Variants context={context} siteSpaces={structure.structure} label="Spaces of the site" />
        : <TopLevel context={context} entries={structure.structure} />}
      {props.admin ? <p className="muted hint-line">Drag a row by its handle, or press Alt+↑ / Alt+↓ in it, to reorder.</p> : null}
    </>
  )
}
