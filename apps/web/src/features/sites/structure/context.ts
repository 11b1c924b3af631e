/** What the parts of a site's structure share: the site they edit, the reactivity key of its writes, pointers and the drawn order of a list. */
import type { SiteSection, SiteSectionGroup, Space } from "@quire/api"
import { useEffect, useRef, useState } from "react"
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
 * The order of a list as drawn: the API's, or, from a move until the API agrees, the order the
 * move gives (./order.ts `applyMove`), so a move shows at once and the next key press moves from
 * there. While a move is unanswered, a list the API sends that differs is a read from before it
 * (the refresh after an earlier move) and does not undraw it; once every move is answered, the
 * API's list is drawn again, whatever it says.
 */
export const useOrder = <A extends { readonly id: string }>(items: ReadonlyArray<A>) => {
  const served = items.map((item) => item.id)
  const servedKey = served.join(",")
  const [pending, setPending] = useState<ReadonlyArray<string> | undefined>(undefined)
  const unanswered = useRef(0)
  useEffect(() => setPending((drawn) => drawn !== undefined && unanswered.current > 0 && drawn.join(",") !== servedKey ? drawn : undefined), [servedKey])
  const ids = pending !== undefined && pending.length === served.length && pending.every((id) => served.includes(id)) ? pending : served
  const byId = new Map(items.map((item) => [item.id, item]))
  return {
    ids,
    ordered: ids.map((id) => byId.get(id)!),
    /** Draws `id` moved to `position` now, sends the move with `send`, and undraws it when the API refuses it. */
    move: async (id: string, position: Position, send: () => Promise<boolean>) => {
      unanswered.current += 1
      setPending(applyMove(ids, id, position))
      const accepted = await send().finally(() => { unanswered.current -= 1 })
      if (!accepted) setPending(undefined)
    }
  }
}

export type TopEntry = SiteSection | SiteSectionGroup

/** The sections at the top level, out of any group. */
export const ungroupedOf = (entries: ReadonlyArray<TopEntry>) => entries.filter((entry): entry is SiteSection => entry.object === "site-section")
