/** The organization switcher: a plain select of the person's organizations, at the top of the sidebar. */
import { AsyncResult } from "effect/reactivity"
import { organizationsAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { navigate } from "../router.ts"

export const OrgSwitcher = (props: { readonly organizationId: string | undefined }) => {
  const orgs = useAtomValue(organizationsAtom)
  if (!AsyncResult.isSuccess(orgs) || orgs.value.items.length === 0) return null
  const items = orgs.value.items
  return (
    <label className="org-switcher">
      <span className="visually-hidden">Organization</span>
      <select value={props.organizationId ?? ""} onChange={(event) => navigate(`/o/${event.target.value}`)}>
        {props.organizationId === undefined ? <option value="">Choose an organization</option> : null}
        {items.map((org) => <option key={org.id} value={org.id}>{org.title}</option>)}
      </select>
    </label>
  )
}
