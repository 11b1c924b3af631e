/**
 * The "Share" button of a space or a collection: opens the permissions dialog, whose module is
 * loaded on the first click (so the first load of a space does not grow).
 */
import { lazy, Suspense, useState } from "react"
import { MembersIcon, ShareIcon } from "../../ui/icons.tsx"
import type { ShareTarget } from "./PermissionsDialog.tsx"

const PermissionsDialog = lazy(() => import("./PermissionsDialog.tsx"))

export const ShareButton = (props: { readonly target: ShareTarget }) => {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} aria-haspopup="dialog">{props.target.admin ? <ShareIcon /> : <MembersIcon />}{props.target.admin ? "Share" : "Who has access"}</button>
      {open ? (
        <Suspense fallback={<span className="status" role="status">Opening…</span>}>
          <PermissionsDialog target={props.target} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  )
}
