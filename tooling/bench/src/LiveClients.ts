/**
 * The people of `pnpm bench --live` who are not a browser: Hocuspocus providers in Node over `ws`,
 * connected as a script connects (an API token in the provider's authentication message, no
 * Origin), each person one socket for all the pages they have open, as the editor has. They type
 * as the editor does: characters at the end of a paragraph of the `default` fragment (the shape
 * y-prosemirror gives a page), their caret in the awareness after each. A keystroke has reached
 * another client when that client's state vector holds the typist's clock after it, so the relay
 * time is read without looking at the text.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider"
import { setTimeout as sleep } from "node:timers/promises"
import { WebSocket } from "ws"
import * as Y from "yjs"

/** The fragment TipTap's Collaboration extension binds, and the server reads (CollabCodec.ts). */
const field = "default"

export interface OpenPage {
  readonly name: string
  readonly doc: Y.Doc
  readonly provider: HocuspocusProvider
}

export interface Person {
  readonly name: string
  /** Opens the document `<changeRequestId>/<pageId>` on this person's socket; resolves once it is synced. */
  readonly open: (document: string, timeoutMs?: number) => Promise<OpenPage>
  /** What went wrong: refusals, closes with a reason, drops of the socket. */
  readonly problems: ReadonlyArray<string>
  /** Whether every update of every open page is acknowledged by the server. */
  readonly acknowledged: () => boolean
  readonly close: () => void
}

/** A person connected to `url` (`ws://…/collab`) with `token`. */
export const person = (url: string, token: string, name: string): Person => {
  const problems: Array<string> = []
  let closing = false
  const socket = new HocuspocusProviderWebsocket({
    url,
    WebSocketPolyfill: WebSocket,
    onDisconnect: ({ event }) => {
      if (!closing) problems.push(`${name}: socket dropped (${event.code} ${event.reason})`)
    }
  })
  const pages: Array<OpenPage> = []
  const open = (document: string, timeoutMs = 120_000) =>
    new Promise<OpenPage>((resolve, reject) => {
      const doc = new Y.Doc()
      const timer = setTimeout(() => reject(new Error(`${name}: ${document} not synced after ${timeoutMs / 1000} s (${problems.join("; ") || "no refusal"})`)), timeoutMs)
      const provider: HocuspocusProvider = new HocuspocusProvider({
        websocketProvider: socket,
        name: document,
        document: doc,
        token,
        onAuthenticationFailed: ({ reason }) => void problems.push(`${name}: ${document} refused (${reason})`),
        onClose: ({ event }) => {
          if (!closing && event.reason !== "") problems.push(`${name}: ${document} closed (${event.reason})`)
        },
        onSynced: ({ state }) => {
          if (!state) return
          clearTimeout(timer)
          resolve(page)
        }
      })
      const page: OpenPage = { name: document, doc, provider }
      provider.setAwarenessField("user", { name, colour: pages.length })
      provider.attach()
      pages.push(page)
    })
  return {
    name,
    open,
    problems,
    acknowledged: () => pages.every((page) => page.provider.synced && !page.provider.hasUnsyncedChanges),
    close: () => {
      closing = true
      for (const page of pages) {
        page.provider.destroy()
        page.doc.destroy()
      }
      socket.destroy()
    }
  }
}

/** The text of a paragraph's Y.XmlText, marks left out. */
const plain = (text: Y.XmlText) =>
  text.toDelta().map((op: { readonly insert?: unknown }) => (typeof op.insert === "string" ? op.insert : "")).join("")

/** The `index`-th block of a page's document (a paragraph, a heading…) and its text, when it holds text. */
export const blockText = (doc: Y.Doc, index: number): string | undefined => {
  const block = doc.getXmlFragment(field).get(index)
  if (!(block instanceof Y.XmlElement)) return undefined
  const text = block.toArray().find((child) => child instanceof Y.XmlText)
  return text === undefined ? undefined : plain(text)
}

export interface Typist {
  /** Types one character at the end of the paragraph; answers the typist's clock after it. */
  readonly type: (char: string) => number
  readonly clientId: number
  /** What this typist has typed so far. */
  readonly typed: () => string
}

/** Someone typing at the end of the first paragraph from block `from` on of `page`, caret shown to the others. */
export const typist = (page: OpenPage, from = 0): Typist => {
  const blocks = page.doc.getXmlFragment(field).toArray()
  const paragraph = blocks.slice(from).find((block): block is Y.XmlElement =>
    block instanceof Y.XmlElement && block.nodeName === "paragraph" && block.toArray().some((child) => child instanceof Y.XmlText))
  if (paragraph === undefined) throw new Error(`${page.name}: no paragraph with text from block ${from} on`)
  const text = paragraph.toArray().find((child) => child instanceof Y.XmlText)!
  let typed = ""
  return {
    clientId: page.doc.clientID,
    typed: () => typed,
    type: (char) => {
      text.insert(text.length, char)
      typed += char
      // Where y-prosemirror's caret plugin reads a person's caret: relative positions in the fragment.
      const at = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(text, text.length))
      page.provider.setAwarenessField("cursor", { anchor: at, head: at })
      return Y.getState(page.doc.store, page.doc.clientID)
    }
  }
}

export interface Relay {
  /** A keystroke that left the typist at `at` (performance.now()) and `clock`. */
  readonly sent: (clock: number, at: number) => void
  /** Each keystroke's time to reach the receiver so far, ms. */
  readonly times: ReadonlyArray<number>
  /** Keystrokes sent that have not reached it yet. */
  readonly pending: () => number
  readonly stop: () => void
}

/** Times the keystrokes of the client `from` reaching the document `to`, from its state vector. */
export const relay = (from: number, to: Y.Doc): Relay => {
  const waiting: Array<{ readonly clock: number; readonly at: number }> = []
  const times: Array<number> = []
  const check = () => {
    const state = Y.getState(to.store, from)
    const now = performance.now()
    while (waiting.length > 0 && waiting[0]!.clock <= state) times.push(now - waiting.shift()!.at)
  }
  to.on("update", check)
  return {
    sent: (clock, at) => {
      waiting.push({ clock, at })
      check()
    },
    times,
    pending: () => waiting.length,
    stop: () => to.off("update", check)
  }
}

/** What the Node people type: lowercase words and single spaces, which markdown keeps as typed. */
export const phrase = "pack my box with five dozen liquor jugs "

/**
 * Types `count` characters of `phrase` with `typist` at `rate` a second, on a fixed schedule from
 * `start` (a late key does not shift the ones after it), telling each to `relays`.
 */
export const typeAtPace = async (typist: Typist, count: number, rate: number, relays: ReadonlyArray<Relay>, start = performance.now()) => {
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 0) await sleep(wait)
    const at = performance.now()
    const clock = typist.type(phrase[i % phrase.length]!)
    for (const relay of relays) relay.sent(clock, at)
  }
}

/** Waits until `condition` holds, polling every 50 ms; false after `timeoutMs`. */
export const until = async (condition: () => boolean, timeoutMs: number): Promise<boolean> => {
  const deadline = performance.now() + timeoutMs
  while (!condition()) {
    if (performance.now() > deadline) return false
    await sleep(50)
  }
  return true
}
