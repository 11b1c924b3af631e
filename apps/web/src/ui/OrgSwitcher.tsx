/** The organization switcher: a plain select of the person's organizations and "New organization…", at the top of the sidebar. */
import { AsyncResult } from "effect/reactivity"
import { organizationsAtom } from "../api/queries.ts"
import { useAtomValue } from "../api/react.ts"
import { NewOrganizationOption, newOrganizationValue } from "../features/onboarding/NewOrganizationOption.tsx"
import { navigate } from "../router.ts"

export const OrgSwitcher = (props: { readonly organizationId: string | undefined }) => {
  const orgs = useAtomValue(organizationsAtom)
  if (!AsyncResult.isSuccess(orgs) || orgs.value.items.length === 0) return null
  const items = orgs.value.items
  return (
    <label className="org-switcher">
      <span className="visually-hidden">Organization</span>
      <select value={props.organizationId ?? ""} onChange={(event) => navigate(event.target.value === newOrganizationValue ? "/new-organization" : `/o/${event.target.value}`)}>
        {props.organizationId === undefined ? <option value="">Choose an organization</option> : null}
        {items.map((org) => <option key={org.id} value={org.id}>{org.title}</option>)}
        <NewOrganizationOption />
      </select>
    </label>
  )
}
