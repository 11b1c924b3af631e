/**
 * A site's structure: its sections (tabs readers switch between), each holding site spaces (its
 * variants), or, before it has sections, the site spaces at its root. Admins add a space to the
 * site or to a section, add, rename and remove sections, choose the default section and variant,
 * gather sections in groups (a heading over several tabs: create, rename, remove, put a section in
 * or take it out), and reorder by drag or from the keyboard (Alt+Up/Down on a row, or its buttons):
 * each move is one `moveSiteSection` / `moveSiteSpace` / `moveSiteSectionGroup` with the sibling it
 * goes before or after (../order.ts); at the top level, sections, groups and external links (tabs
 * that open a URL) move with one `sortSiteStructure`.
 */
import type { SiteStructure, Space } from "@quire/api"
import { useState } from "react"
import { ungroupedOf, type StructureContext } from "./context.ts"
import { AddSpaceForm } from "./AddSpaceForm.tsx"
import { AddSectionForm } from "./AddSectionForm.tsx"
import { Variants } from "./Variants.tsx"
import { NewGroupForm } from "./NewGroupForm.tsx"
import { TopLevel } from "./TopLevel.tsx"
import { ExternalLinkForm } from "./ExternalLinkForm.tsx"

export interface StructureProps {
  readonly organizationId: string
  readonly siteId: string
  readonly admin: boolean
  readonly structure: SiteStructure
  readonly spaces: ReadonlyArray<Space>
}

export const Structure = (props: StructureProps) => {
  const [message, setMessage] = useState("")
  const [adding, setAdding] = useState<"section" | "space" | "group" | "link" | undefined>(undefined)
  const context: StructureContext = { organizationId: props.organizationId, siteId: props.siteId, admin: props.admin, spaces: props.spaces, say: setMessage }
  const { structure } = props
  const ungrouped = structure.type === "sections" ? ungroupedOf(structure.structure) : []
  return (
    <>
      {props.admin ? (
        <div className="toolbar">
          <button type="button" onClick={() => setAdding("section")} disabled={adding !== undefined}>New section</button>
          {structure.type === "siteSpaces" ? <button type="button" onClick={() => setAdding("space")} disabled={adding !== undefined}>Add a space</button> : null}
          {structure.type === "sections" && ungrouped.length > 0 ? <button type="button" onClick={() => setAdding("group")} disabled={adding !== undefined}>New group</button> : null}
          {structure.type === "sections" ? <button type="button" onClick={() => setAdding("link")} disabled={adding !== undefined}>New external link</button> : null}
        </div>
      ) : null}
      {adding === "section" ? <AddSectionForm context={context} onDone={() => setAdding(undefined)} /> : null}
      {adding === "link" && structure.type === "sections"
        ? <ExternalLinkForm context={context} groups={structure.structure.filter((entry) => entry.object === "site-section-group")} onDone={() => setAdding(undefined)} />
        : null}
      {adding === "group" ? <NewGroupForm context={context} sections={ungrouped} onDone={() => setAdding(undefined)} /> : null}
      {adding === "space" && structure.type === "siteSpaces"
        ? <AddSpaceForm context={context} taken={structure.structure.map((s) => s.space.id)} label="Space to add to the site" onDone={() => setAdding(undefined)} />
        : null}
      <p className="status" role="status">{message}</p>
      {structure.type === "siteSpaces"
        ? structure.structure.length === 0
          ? <p className="muted">This site shows no space yet.{props.admin ? " Add a space, or a section holding one." : ""}</p>
          : <Variants context={context} siteSpaces={structure.structure} label="Spaces of the site" />
        : <TopLevel context={context} entries={structure.structure} />}
      {props.admin ? <p className="muted hint-line">Drag a row by its handle, or press Alt+↑ / Alt+↓ in it, to reorder.</p> : null}
    </>
  )
}
