/**
 * The top level of a site with sections: sections and groups in the site's order. A section moves
 * beside another top-level section (`moveSiteSection`), a group beside any top-level entry
 * (`moveSiteSectionGroup`, with the entry's kind).
 */
import { useMutation } from "../../../api/react.ts"
import type { Position } from "../order.ts"
import { moveGroup, moveSection, useAction } from "../queries.ts"
import { keys, sectionPointer, useOrder, ungroupedOf, type StructureContext, type TopEntry } from "./context.ts"
import { SectionCard } from "./SectionCard.tsx"
import { GroupCard } from "./GroupCard.tsx"

export interface TopLevelProps {
  readonly context: StructureContext
  readonly entries: ReadonlyArray<TopEntry>
}

export const TopLevel = (props: TopLevelProps) => {
  const { context } = props
  const order = useOrder(props.entries)
  const sectionIds = order.ordered.filter((entry) => entry.object === "site-section").map((entry) => entry.id)
  const ungrouped = ungroupedOf(props.entries)
  const moveS = useMutation(moveSection)
  const moveG = useMutation(moveGroup)
  const action = useAction()
  const kindOf = (id: string) => props.entries.find((entry) => entry.id === id)?.object ?? "site-section"
  const titleOf = (id: string) => props.entries.find((entry) => entry.id === id)?.title ?? ""
  const onMoveSection = (id: string, position: Position) => void order.move(id, position, () => action.run(async () => {
    await moveS({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionId: id },
      payload: { position: "before" in position ? { before: sectionPointer(position.before) } : { after: sectionPointer(position.after) } },
      reactivityKeys: keys(context)
    })
    context.say(`Moved the section ${titleOf(id)}`)
  }))
  const onMoveGroup = (id: string, position: Position) => void order.move(id, position, () => action.run(async () => {
    const pointer = (target: string) => ({ type: kindOf(target), id: target })
    await moveG({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSectionGroupId: id },
      payload: { position: "before" in position ? { before: pointer(position.before) } : { after: pointer(position.after) } },
      reactivityKeys: keys(context)
    })
    context.say(`Moved the group ${titleOf(id)}`)
  }))
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
