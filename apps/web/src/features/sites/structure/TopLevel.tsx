/**
 * The top level of a site with sections: sections, groups and external links in the site's order.
 * Any entry moves beside any other with one `sortSiteStructure` naming both by kind.
 */
import type { SiteSectionGroup } from "@quire/api"
import { useMutation } from "../../../api/react.ts"
import type { Position } from "../order.ts"
import { sortStructure, useAction } from "../queries.ts"
import { itemPointer, keys, useOrder, ungroupedOf, type StructureContext, type TopEntry } from "./context.ts"
import { ExternalLinkCard } from "./ExternalLinkCard.tsx"
import { SectionCard } from "./SectionCard.tsx"
import { GroupCard } from "./GroupCard.tsx"

export interface TopLevelProps {
  readonly context: StructureContext
  readonly entries: ReadonlyArray<TopEntry>
}

const kindName = { "site-section": "section", "site-section-group": "group", "site-external-link": "external link" } as const

export const TopLevel = (props: TopLevelProps) => {
  const { context } = props
  const order = useOrder(props.entries)
  const ungrouped = ungroupedOf(props.entries)
  const groups = props.entries.filter((entry): entry is SiteSectionGroup => entry.object === "site-section-group")
  const sort = useMutation(sortStructure)
  const action = useAction()
  const entryOf = (id: string) => props.entries.find((entry) => entry.id === id)
  const onMove = (id: string, position: Position) => void order.move(id, position, () => action.run(async () => {
    const mover = entryOf(id)
    if (mover === undefined) return
    const pointer = (target: string) => itemPointer(entryOf(target) ?? { object: "site-section", id: target })
    await sort({
      params: { organizationId: context.organizationId, siteId: context.siteId },
      payload: { item: itemPointer(mover), position: "before" in position ? { before: pointer(position.before) } : { after: pointer(position.after) } },
      reactivityKeys: keys(context)
    })
    context.say(`Moved the ${kindName[mover.object]} ${mover.title}`)
  }))
  return (
    <>
      {action.problem === undefined ? null : <p className="form-error" role="alert">{action.problem.message}</p>}
      <ul className="site-sections" aria-label="Sections">
        {order.ordered.map((entry) => entry.object === "site-section"
          ? <SectionCard key={entry.id} context={context} section={entry} siblings={order.ids} group="sections:root" onMove={onMove} />
          : entry.object === "site-external-link"
          ? <ExternalLinkCard key={entry.id} context={context} link={entry} groups={groups} siblings={order.ids} group="sections:root" onMove={onMove} />
          : <GroupCard key={entry.id} context={context} group={entry} ungrouped={ungrouped} siblings={order.ids} onMove={onMove} />)}
      </ul>
    </>
  )
}
