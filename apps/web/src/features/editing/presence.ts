/**
 * Who else is in a change request, and on which page, without React or the provider: read from
 * the awareness of the change request's presence document (`<changeRequestId>/~presence` on the
 * collaboration server, docs/web.md "Live editing"), where each open editor publishes who it is
 * and the page it has open. What others publish is checked here, as anyone can send anything.
 */

/** The presence document's name: `~` is in no page id, so it is never a page's document. */
export const presenceName = (changeRequestId: string): string => `${changeRequestId}/~presence`

/** What each open change request publishes in the presence document's awareness. */
export interface PresenceState {
  readonly user: { readonly id: string; readonly name: string; readonly colour: number }
  /** The page open in the editor; null on the change request without a page. */
  readonly pageId: string | null
}

/** Another person in the change request, on one page (or none). */
export interface Present {
  readonly id: string
  readonly name: string
  readonly colour: number
  readonly pageId: string | null
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : undefined

/** A state as published, or none when it is not one. */
const presentOf = (state: Record<string, unknown>, colours: number): Present | undefined => {
  const user = state["user"]
  if (typeof user !== "object" || user === null) return undefined
  const { id, name, colour } = user as Record<string, unknown>
  const idText = text(id, 64)
  const nameText = text(name, 80)
  if (idText === undefined || nameText === undefined) return undefined
  const pageId = state["pageId"]
  return {
    id: idText,
    name: nameText,
    colour: typeof colour === "number" && Number.isInteger(colour) ? Math.abs(colour) % colours : 0,
    pageId: typeof pageId === "string" && pageId !== "" ? pageId : null
  }
}

/**
 * The others in the change request from the awareness' states: not oneself (`ownId`, in any tab),
 * each person once per page (two tabs on one page are one mark), in name order.
 */
export const othersOf = (states: ReadonlyMap<number, Record<string, unknown>>, ownId: string, colours: number): ReadonlyArray<Present> => {
  const seen = new Map<string, Present>()
  for (const state of states.values()) {
    const present = presentOf(state, colours)
    if (present === undefined || present.id === ownId) continue
    seen.set(`${present.id}\u0000${present.pageId ?? ""}`, present)
  }
  return [...seen.values()].toSorted((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
}

/** Each person once (on several pages in several tabs), in name order. */
export const peopleOf = (others: ReadonlyArray<Present>): ReadonlyArray<Present> => {
  const people = new Map<string, Present>()
  for (const present of others) if (!people.has(present.id)) people.set(present.id, present)
  return [...people.values()]
}

/** One or two letters standing for a name: the first letters of its first and last words. */
export const initialsOf = (name: string): string => {
  const words = name.trim().split(/\s+/).filter((word) => word !== "")
  const first = [...(words[0] ?? "?")][0] ?? "?"
  const last = words.length > 1 ? [...words[words.length - 1]!][0] ?? "" : ""
  return (first + last).toUpperCase()
}

/** "Ada", "Ada and Bea", "Ada, Bea and Cy". */
export const namesInWords = (names: ReadonlyArray<string>): string =>
  names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]!}`

/** The accessible words of a page's marks: "Ada is editing", "Ada and Bea are editing". */
export const editingLabel = (names: ReadonlyArray<string>): string => `${namesInWords(names)} ${names.length === 1 ? "is" : "are"} editing`
