/**
 * "Edit" on a page of a space (or another label): a new change request opened on that page, as
 * GitBook's does. When the person has change requests of their own in the space still being worked
 * on, Edit is a split button, GitBook's: its other half, "Continue a change request", is a menu of
 * them, to pick one instead.
 */
import { AsyncResult } from "effect/reactivity"
import { useState } from "react"
import { callApi } from "../../api/call.ts"
import { useAtomValue, useRegistry } from "../../api/react.ts"
import { navigate } from "../../router.ts"
import { stateWords } from "../../ui/ChangeRequestState.tsx"
import { ChangeRequestIcon, ChevronDownIcon, EditIcon } from "../../ui/icons.tsx"
import { Menu, MenuLink } from "../../ui/Menu.tsx"
import { refusalOf } from "../../ui/refusal.ts"
import { useMe } from "../review/ReviewComments.tsx"
import { draftChangeRequestsAtom, openChangeRequestsAtom } from "../space/queries.ts"
import { newChangeRequest } from "./content.ts"

/**
 * The person's drafts and open change requests in the space, most recently updated first: the
 * reads the space screen's side panel already makes ("Your drafts", "Change requests"), so no
 * request more.
 */
const Continue = (props: { readonly spaceId: string; readonly pagePath: string; readonly me: string }) => {
  const drafts = useAtomValue(draftChangeRequestsAtom(`${props.spaceId}\n${props.me}`))
  const open = useAtomValue(openChangeRequestsAtom(props.spaceId))
  const mine = [
    ...(AsyncResult.isSuccess(drafts) ? drafts.value.items : []),
    ...(AsyncResult.isSuccess(open) ? open.value.items.filter((cr) => cr.createdBy.id === props.me) : [])
  ].toSorted((a, b) => b.updatedAt.localeCompare(a.updatedAt))
  if (mine.length === 0) return null
  return (
    <Menu label="Continue a change request" icon={<ChevronDownIcon />} iconOnly align="end" buttonClassName="primary split-button-toggle">
      {mine.map((cr) => (
        <MenuLink key={cr.id} icon={<ChangeRequestIcon />} href={`/s/${props.spaceId}/~/changes/${cr.number}/${props.pagePath}`}>
          <span className="menu-item-title">#{cr.number} {cr.subject === "" ? "Untitled" : cr.subject}</span>
          <span className="menu-item-note">{stateWords[cr.status] ?? cr.status}</span>
        </MenuLink>
      ))}
    </Menu>
  )
}

export const EditButton = (props: { readonly spaceId: string; readonly pagePath: string; readonly label?: string; readonly subject?: string }) => {
  const registry = useRegistry()
  const me = useMe()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const onClick = () => {
    setBusy(true)
    setError(undefined)
    callApi(registry, newChangeRequest(props.spaceId, props.subject ?? "Edits")).then(
      (number) => navigate(`/s/${props.spaceId}/~/changes/${number}/${props.pagePath}`),
      (failure: unknown) => {
        setBusy(false)
        setError(`Could not open a change request: ${refusalOf(failure)?.message ?? (failure instanceof Error ? failure.message : String(failure))}`)
      }
    )
  }
  return (
    <span className="edit-button">
      <span className="split-button">
        <button type="button" className="button primary" onClick={onClick} disabled={busy} aria-busy={busy}><EditIcon />{busy ? "Opening…" : props.label ?? "Edit"}</button>
        {me === undefined ? null : <Continue spaceId={props.spaceId} pagePath={props.pagePath} me={me} />}
      </span>
      {error === undefined ? null : <span role="alert" className="form-error">{error}</span>}
    </span>
  )
}
