/** What the parts of a site's structure share: the site they edit, the reactivity key of its writes, pointers and the drawn order of a list. */
import type { SiteSection, SiteSectionGroup, Space } from "@quire/api"
import { useEffect, useState } from "react"
import { applyMove, type Position } from "../order.ts"
import { siteKey } from "../queries.ts"

export interface StructureContext {
  readonly organizationId: string
  readonly siteId: string
  readonly admin: boolean
  readonly spaces: ReadonlyArray<Space>
  readonly say: (message: string) => void
}

export const keys = (context: StructureContext) => [siteKey(context.siteId)]
export const siteSpacePointer = (siteSpace: string) => ({ type: "site-space" as const, siteSpace })
export const sectionPointer = (siteSection: string) => ({ type: "site-section" as const, siteSection })
export const spaceTitle = (space: Space) => space.title === "" ? "Untitled space" : space.title

/**
 * The order of a list as drawn: the API's, or, from a move until the API's next answer, the order
 * the move gives (./order.ts `applyMove`), so a move shows at once and the next key press moves
 * from there.
 */
export const useOrder = <A extends { readonly id: string }>(items: ReadonlyArray<A>) => {
  const served = items.map((item) => item.id)
  const servedKey = served.join(",")
  const [pending, setPending] = useState<ReadonlyArray<string> | undefined>(undefined)
  useEffect(() => setPending(undefined), [servedKey])
  const ids = pending !== undefined && pending.length === served.length && pending.every((id) => served.includes(id)) ? pending : served
  const byId = new Map(items.map((item) => [item.id, item]))
  return {
    ids,
    ordered: ids.map((id) => byId.get(id)!),
    /** Draws the move now; `undo` when the API refused it. */
    show: (id: string, position: Position) => setPending(applyMove(ids, id, position)),
    undo: () => setPending(undefined)
  }
}

export type TopEntry = SiteSection | SiteSectionGroup

/** The sections at the top level, out of any group. */
export const ungroupedOf = (entries: ReadonlyArray<TopEntry>) => entries.filter((entry): entry is SiteSection => entry.object === "site-section")
