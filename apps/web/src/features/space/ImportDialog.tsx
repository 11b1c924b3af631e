/** "Import…" on a space, for its editors: markdown files or a folder, as pages of a new change request, in a dialog. */
import { useEffect, useId, useRef } from "react"
import { ImportFiles } from "../onboarding/ImportFiles.tsx"
import "../onboarding/onboarding.css"

export const ImportDialog = (props: { readonly spaceId: string; readonly onClose: () => void }) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => dialog.current?.showModal(), [])
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onClose={props.onClose} className="import-dialog">
      <div className="dialog-body">
        <h2 id={titleId}>Import</h2>
        <ImportFiles spaceId={props.spaceId} />
        <div className="toolbar"><button type="button" onClick={() => dialog.current?.close()}>Cancel</button></div>
      </div>
    </dialog>
  )
}
