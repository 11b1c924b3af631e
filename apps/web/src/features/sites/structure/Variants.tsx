/** A list of site spaces (the site's root, or a section's variants) in their order, each moved beside a sibling. */
import type { SiteSection, SiteSpace } from "@quire/api"
import { useMutation } from "../../../api/react.ts"
import type { Position } from "../order.ts"
import { moveSiteSpace, useAction } from "../queries.ts"
import { keys, siteSpacePointer, useOrder, type StructureContext } from "./context.ts"
import { Variant } from "./Variant.tsx"

export interface VariantsProps {
  readonly context: StructureContext
  readonly siteSpaces: ReadonlyArray<SiteSpace>
  readonly section?: SiteSection
  readonly label: string
}

export const Variants = (props: VariantsProps) => {
  const { context } = props
  const order = useOrder(props.siteSpaces)
  const ids = order.ids
  const group = `variants:${props.section?.id ?? "root"}`
  const move = useMutation(moveSiteSpace)
  const action = useAction()
  const onMove = (id: string, position: Position) => void order.move(id, position, () => action.run(async () => {
    await move({
      params: { organizationId: context.organizationId, siteId: context.siteId, siteSpaceId: id },
      payload: { position: "before" in position ? { before: siteSpacePointer(position.before) } : { after: siteSpacePointer(position.after) } },
      reactivityKeys: keys(context)
    })
    const moved = props.siteSpaces.find((s) => s.id === id)
    context.say(`Moved ${moved === undefined ? "the space" : moved.title}`)
  }))
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
