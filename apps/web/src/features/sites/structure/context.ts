/** What the parts of a site's structure share: the site they edit, the reactivity key of its writes, pointers and the drawn order of a list. */
import type { SiteExternalLink, SiteSection, SiteSectionGroup, Space } from "@quire/api"
import { useMemo } from "react"
import { useShownMove } from "../../../ui/useShownMove.ts"
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
 * The order of a list as drawn: the API's, or the order a move gives (./order.ts `applyMove`) from
 * the move until the API agrees (../../../ui/useShownMove.ts), so a move shows at once and the next
 * key press moves from there.
 */
export const useOrder = <A extends { readonly id: string }>(items: ReadonlyArray<A>) => {
  // The same ids keep the same array: a refresh that moved nothing is no new order.
  const servedKey = items.map((item) => item.id).join(",")
  const served = useMemo(() => (servedKey === "" ? [] : servedKey.split(",")), [servedKey])
  const drawn = useShownMove<ReadonlyArray<string>>(served, sameOrder)
  // A list whose members changed since the move is drawn as the API has it.
  const ids = drawn.shown.length === served.length && drawn.shown.every((id) => served.includes(id)) ? drawn.shown : served
  const byId = new Map(items.map((item) => [item.id, item]))
  return {
    ids,
    ordered: ids.map((id) => byId.get(id)!),
    /** Draws `id` moved to `position` now, sends the move with `send`, and undraws it when the API refuses it. */
    move: (id: string, position: Position, send: () => Promise<boolean>) => drawn.move(applyMove(ids, id, position), send)
  }
}

const sameOrder = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((id, i) => b[i] === id)

export type TopEntry = SiteSection | SiteSectionGroup | SiteExternalLink

/** GitBook's `SiteStructureItemPointer` of an entry of the structure. */
export const itemPointer = (entry: { readonly object: TopEntry["object"] | "site-space"; readonly id: string }) => ({ type: entry.object, id: entry.id })

/** The sections at the top level, out of any group. */
export const ungroupedOf = (entries: ReadonlyArray<TopEntry>) => entries.filter((entry): entry is SiteSection => entry.object === "site-section")
