/** "Import" on a space, for its editors: markdown files or a folder, as pages of a new change request. */
import { useRef } from "react"
import { MenuDisclosure } from "../../ui/MenuDisclosure.tsx"
import { ImportFiles } from "../onboarding/ImportFiles.tsx"
import "../onboarding/onboarding.css"

export const ImportMenu = (props: { readonly spaceId: string }) => {
  const menu = useRef<HTMLDetailsElement>(null)
  return (
    <MenuDisclosure label="Import" menu={menu} panelClassName="menu-disclosure-padded">
      <ImportFiles spaceId={props.spaceId} />
    </MenuDisclosure>
  )
}
