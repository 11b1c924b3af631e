/** A group's sections in their order, each moved beside a sibling. */
import type { SiteSection, SiteSectionGroup } from "@quire/api"
import { useMutation } from "../../../api/react.ts"
import type { Position } from "../order.ts"
import { moveSection, useAction } from "../queries.ts"
import { keys, sectionPointer, useOrder, type StructureContext } from "./context.ts"
import { SectionCard } from "./SectionCard.tsx"

export interface SectionsProps {
  readonly context: StructureContext
  readonly sections: ReadonlyArray<SiteSection>
  readonly group: string
  readonly label: string
  readonly inGroup: SiteSectionGroup
}

export const Sections = (props: SectionsProps) => {
  const { context } = props
  const order = useOrder(props.sections)
  const ids = order.ids
  const move = useMutation(moveSection)
  const action = useAction()
  const onMove = (id: string, position: Position) => void order.move(id, position, () => action.run(async () => {
    await move({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionId: id },
      payload: { position: "before" in position ? { before: sectionPointer(position.before) } : { after: sectionPointer(position.after) } },
      reactivityKeys: keys(context)
    })
    const moved = props.sections.find((s) => s.id === id)
    context.say(`Moved the section ${moved === undefined ? "" : moved.title}`.trim())
  }))
  return (
    <>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <ul className="site-sections" aria-label={props.label}>
        {order.ordered.map((section) => <SectionCard key={section.id} context={context} section={section} siblings={ids} group={props.group} onMove={onMove} inGroup={props.inGroup} />)}
      </ul>
    </>
  )
}
