/**
 * `/s/<space>/~/merge-rules`: what a change request of the space must meet to be merged: the
 * organization's rules (inherited), none, or the space's own (`updateSpaceById`'s `mergeRules`).
 * Admins of the space change them; everyone else reads them.
 */
import { AsyncResult } from "effect/reactivity"
import { QuireApi } from "../api/client.ts"
import { organizationAtom, spaceAtom } from "../api/queries.ts"
import { useAtomValue, useMutation } from "../api/react.ts"
import { MergeRulesForm } from "../features/merge-rules/MergeRulesForm.tsx"
import { ChangeRequestIcon } from "../ui/icons.tsx"
import { Link } from "../ui/Link.tsx"
import { Failure, Loading } from "../ui/States.tsx"

const updateSpace = QuireApi.mutation("spaces", "updateSpaceById")

export const MergeRules = (props: { readonly spaceId: string }) => {
  const space = useAtomValue(spaceAtom(props.spaceId))
  const update = useMutation(updateSpace)
  if (AsyncResult.isFailure(space)) return <Failure result={space} />
  if (!AsyncResult.isSuccess(space)) return <Loading what="the space" />
  return (
    <div className="admin">
      <h1>Merge rules<span className="muted"> of {space.value.title}</span></h1>
      <p className="muted">What a change request must meet before it merges. The change request's review shows which rules block it; the server refuses a merge that does not meet them.</p>
      <div className="toolbar">
        <Link className="button" href={`/s/${space.value.id}/~/change-requests`}><ChangeRequestIcon />Change requests</Link>
      </div>
      <SpaceRules spaceId={space.value.id} organizationId={space.value.organization} rules={space.value.mergeRules} canEdit={space.value.permissions.admin}
        onSave={async (mergeRules) => {
          await update({ params: { spaceId: props.spaceId }, payload: { mergeRules }, reactivityKeys: [`space:${props.spaceId}`] })
        }} />
    </div>
  )
}

/** The form once the organization's rules (what `inherit` gives) are known. */
const SpaceRules = (props: {
  readonly spaceId: string
  readonly organizationId: string
  readonly rules: Parameters<typeof MergeRulesForm>[0]["rules"]
  readonly canEdit: boolean
  readonly onSave: Parameters<typeof MergeRulesForm>[0]["onSave"]
}) => {
  const org = useAtomValue(organizationAtom(props.organizationId))
  if (AsyncResult.isFailure(org)) return <Failure result={org} />
  if (!AsyncResult.isSuccess(org)) return <Loading what="the organization's merge rules" />
  return <MergeRulesForm key={props.spaceId} scope="space" organizationId={props.organizationId} rules={props.rules} inherited={org.value.mergeRules} canEdit={props.canEdit} onSave={props.onSave} />
}

export default MergeRules
