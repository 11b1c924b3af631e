/**
 * The space's toolbar, GitBook's shape: "Share" in view and everything else in "More" (⋯): a new
 * change request, the space's change requests, merge rules and Git sync, export and import. What
 * an entry opens (the new change request's form, an export's progress) shows below the toolbar.
 */
import { useState } from "react"
import { ShareButton } from "../admin/ShareButton.tsx"
import { NewChangeRequestForm } from "../editing/NewChangeRequest.tsx"
import { ChangeRequestIcon, CheckIcon, GitIcon, MergeRulesIcon, MoreIcon, PlusIcon, UploadIcon } from "../../ui/icons.tsx"
import { Menu, MenuItem, MenuLink, MenuSeparator } from "../../ui/Menu.tsx"
import { type ExportedPage, ExportItems, ExportStatus, useExport } from "./Export.tsx"
import { ImportDialog } from "./ImportDialog.tsx"

interface SpaceToolbarProps {
  readonly space: {
    readonly id: string
    readonly title: string
    readonly organization: string
    readonly permissions: { readonly admin: boolean; readonly edit: boolean }
  }
  /** The page shown, which "New change request" opens on and the page exports are of. */
  readonly page: (ExportedPage & { readonly path: string }) | undefined
  /** Whether the space has pages (an empty space offers its import among its other starts). */
  readonly hasPages: boolean
}

export const SpaceToolbar = (props: SpaceToolbarProps) => {
  const { space } = props
  const exporter = useExport(space.id, props.page)
  const [opened, setOpened] = useState<"new-change-request" | "import" | undefined>(undefined)
  return (
    <>
      <div className="toolbar space-toolbar">
        <ShareButton target={{ kind: "space", id: space.id, title: space.title, organizationId: space.organization, admin: space.permissions.admin }} />
        <Menu label="More" icon={<MoreIcon />} iconOnly>
          <MenuItem icon={<PlusIcon />} onSelect={() => setOpened("new-change-request")} disabled={!space.permissions.edit}>
            New change request{space.permissions.edit ? null : <span className="menu-item-note">Your role in this space does not let you edit it.</span>}
          </MenuItem>
          <MenuLink icon={<ChangeRequestIcon />} href={`/s/${space.id}/~/change-requests`}>Change requests</MenuLink>
          <MenuLink icon={<MergeRulesIcon />} href={`/s/${space.id}/~/merge-rules`}>Merge rules</MenuLink>
          <MenuLink icon={<CheckIcon />} href={`/s/${space.id}/~/freshness`}>Freshness</MenuLink>
          {space.permissions.admin ? <MenuLink icon={<GitIcon />} href={`/s/${space.id}/~/git`}>Git sync</MenuLink> : null}
          <MenuSeparator />
          <ExportItems exporter={exporter} />
          {space.permissions.edit && props.hasPages ? (
            <>
              <MenuSeparator />
              <MenuItem icon={<UploadIcon />} onSelect={() => setOpened("import")}>Import…</MenuItem>
            </>
          ) : null}
        </Menu>
        <ExportStatus exporter={exporter} />
      </div>
      {opened === "new-change-request"
        ? <NewChangeRequestForm spaces={undefined} spaceId={space.id} pagePath={props.page?.path ?? ""} onCancel={() => setOpened(undefined)} />
        : null}
      {opened === "import" ? <ImportDialog spaceId={space.id} onClose={() => setOpened(undefined)} /> : null}
    </>
  )
}
