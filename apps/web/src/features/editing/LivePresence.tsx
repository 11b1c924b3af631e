/**
 * A change request open with live editing (docs/web.md, "Live editing"): one socket to the
 * collaboration server, shared by the change request's presence document and the open page's
 * document (`HocuspocusProviderWebsocket` multiplexes documents), and who else is there, on which
 * page (presence.ts): this tab publishes its person and page in the presence document's awareness,
 * and the page tree and the header show the others with `PageMarks` and `PeopleHere`.
 */
import { HocuspocusProvider, type HocuspocusProviderWebsocket } from "@hocuspocus/provider"
import { createContext, type ReactNode, useContext, useEffect, useId, useRef, useState } from "react"
import * as Y from "yjs"
import type { CollabUser } from "../../editor/collab/index.ts"
import { caretColours, collabUrl } from "./live.ts"
import { CollabSocket } from "./live-socket.ts"
import { editingLabel, initialsOf, othersOf, peopleOf, type PresenceState, presenceName, type Present } from "./presence.ts"
import "../../ui/collab-colours.css"
import "./presence.css"

const LiveSocket = createContext<HocuspocusProviderWebsocket | undefined>(undefined)
const Others = createContext<ReadonlyArray<Present>>([])

/** The socket of the change request open around this page, if one is (else the page opens its own). */
export const useLiveSocket = (): HocuspocusProviderWebsocket | undefined => useContext(LiveSocket)

interface Live {
  readonly socket: HocuspocusProviderWebsocket
  readonly provider: HocuspocusProvider
}

/**
 * What the server sends the presence document's people (a stateless message) when the change
 * request's content was written other than by live editing's write back of a page's text
 * (CollabElsewhere.ts): pages added, moved, renamed or deleted, by someone else too.
 */
export const contentChanged = "content-changed"

/**
 * The change request's socket and presence around its screen, while `person` is set (live editing
 * on); `pageId` is the page open in it. Without a person, only `children`. `onChanged` is called
 * when the server says the change request's content changed, and when the socket is back after a
 * drop (what was said meanwhile is lost): the screen reads its pages again.
 */
export const LiveChangeRequest = (props: {
  readonly changeRequestId: string
  readonly pageId: string | undefined
  readonly person: CollabUser | undefined
  readonly onChanged?: (() => void) | undefined
  readonly children: ReactNode
}) => {
  const [live, setLive] = useState<Live | undefined>(undefined)
  const onChanged = useRef(props.onChanged)
  onChanged.current = props.onChanged
  const [others, setOthers] = useState<ReadonlyArray<Present>>([])
  const { person } = props
  const personId = person?.id
  useEffect(() => {
    if (personId === undefined) return
    // Updates made while it is down wait for the sync when it is back, not in a burst (live-socket.ts).
    const socket = new CollabSocket({ url: collabUrl(window.location) })
    const document = new Y.Doc()
    let syncs = 0
    const provider = new HocuspocusProvider({
      websocketProvider: socket,
      name: presenceName(props.changeRequestId),
      document,
      onStateless: ({ payload }) => {
        if (payload === contentChanged) onChanged.current?.()
      },
      // Synced again: the socket dropped, and a change said meanwhile was not heard.
      onSynced: () => {
        if (++syncs > 1) onChanged.current?.()
      }
    })
    const awareness = provider.awareness!
    // Others leave the states when they go, and all of them when this socket drops.
    const seen = () => setOthers(othersOf(awareness.getStates(), personId, caretColours))
    awareness.on("change", seen)
    provider.attach()
    setLive({ socket, provider })
    return () => {
      awareness.off("change", seen)
      provider.destroy()
      socket.destroy()
      document.destroy()
      setLive(undefined)
      setOthers([])
    }
  }, [props.changeRequestId, personId])
  const name = person?.name
  const colour = person?.colour
  useEffect(() => {
    if (live === undefined || personId === undefined || name === undefined || colour === undefined) return
    const state: PresenceState = { user: { id: personId, name, colour }, pageId: props.pageId ?? null }
    live.provider.awareness!.setLocalState(state as unknown as Record<string, unknown>)
  }, [live, personId, name, colour, props.pageId])
  // The page's editor waits for the socket (one render), rather than opening one of its own.
  if (personId !== undefined && live === undefined) return null
  return (
    <LiveSocket.Provider value={live?.socket}>
      <Others.Provider value={others}>{props.children}</Others.Provider>
    </LiveSocket.Provider>
  )
}

/** The marks beyond which a page's marks say "+n". */
const shownMarks = 3

/** One person's coloured initials ("AI" for the change request's agent, live editing's CollabAgent); their name is in the words around it. */
const Mark = (props: { readonly present: Present }) => (
  <span className={`presence-mark collab-colour-${props.present.colour}`} aria-hidden="true">{props.present.id.startsWith("agent:") ? "AI" : initialsOf(props.present.name)}</span>
)

/**
 * Beside a page of the tree: the others who have it open, as coloured initials, their names in
 * an accessible label ("Ada is editing"). An image, not a control: it takes no focus.
 */
export const PageMarks = (props: { readonly pageId: string }) => {
  const here = useContext(Others).filter((present) => present.pageId === props.pageId)
  if (here.length === 0) return null
  const label = editingLabel(here.map((present) => present.name))
  return (
    <span className="presence-marks" role="img" aria-label={label} title={label}>
      {here.slice(0, shownMarks).map((present) => <Mark key={present.id} present={present} />)}
      {here.length > shownMarks ? <span className="presence-mark presence-more" aria-hidden="true">+{here.length - shownMarks}</span> : null}
    </span>
  )
}

/** In the change request's header: everyone else who has it open, and the page each is on. */
export const PeopleHere = (props: { readonly titleOf: (pageId: string) => string | undefined }) => {
  const others = useContext(Others)
  const labelId = useId()
  const people = peopleOf(others)
  if (people.length === 0) return null
  const whereIs = (person: Present) => {
    const titles = others.flatMap((present) => present.id === person.id && present.pageId !== null ? [props.titleOf(present.pageId) ?? "a page"] : [])
    return titles.length === 0 ? person.name : `${person.name}, on ${titles.join(" and ")}`
  }
  return (
    <div className="presence-people">
      <span className="muted" id={labelId}>Also here:</span>
      <ul aria-labelledby={labelId}>
        {people.map((person) => (
          <li key={person.id} title={whereIs(person)}>
            <Mark present={person} />
            <span className="visually-hidden">{whereIs(person)}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
