/**
 * The organization switcher's "New organization…" entry: offered to whoever the server lets
 * create one; to anyone else it is shown disabled, its label saying why (an option has no tooltip
 * a keyboard reaches).
 */
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../api/react.ts"
import { sessionAtom } from "../../api/session.ts"

/** The entry's value in the switcher's `<select>`: no organization id looks like it. */
export const newOrganizationValue = "~new"

export const NewOrganizationOption = () => {
  const session = useAtomValue(sessionAtom)
  const creation = AsyncResult.isSuccess(session) && session.value.signedIn ? session.value.info.organizationCreation : undefined
  if (creation === undefined) return null
  return creation.allowed
    ? <option value={newOrganizationValue}>New organization…</option>
    : <option value={newOrganizationValue} disabled>New organization (not allowed: {creation.reason})</option>
}
