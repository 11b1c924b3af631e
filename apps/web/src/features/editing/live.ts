/**
 * Live editing's words for the writer, without React or the provider: the status shown next to
 * the editor from the collaboration provider's state (docs/web.md, "Live editing"), the sentence
 * for each reason the server closes a document with, and each person's caret colour.
 */

/** What the page editor knows of its document's connection. */
export interface LiveState {
  /** The socket is open (the provider's status `connected`). */
  readonly connected: boolean
  /** The provider has had the server's state at least once since it connected (`synced`). */
  readonly synced: boolean
  /** The provider's updates the server has not yet acknowledged as stored (`unsyncedChanges`). */
  readonly unsynced: number
  /** The reason the server last closed the document with, until the next sync. */
  readonly refusal: string | undefined
  /**
   * The document opened with edits this browser kept (kept-edits.ts: typed offline, or in a tab
   * closed before the server had them), not yet acknowledged: the provider does not count them.
   */
  readonly restored: boolean
  /** The server lets this person only read the document (its authentication's scope, or opened so). */
  readonly readOnly: boolean
  /**
   * The server holds the page read-only to everyone, as too large to edit live: its words
   * (`document-too-large: …`, a stateless message on the page's document), which the editor shows
   * (`tooLargeSentence`). Its shared document is then empty: the page is shown from its markdown.
   */
  readonly tooLarge?: string | undefined
}

export type LiveStatus =
  | { readonly kind: "connecting" }
  | { readonly kind: "saved" }
  | { readonly kind: "saving" }
  | { readonly kind: "sending-kept" }
  | { readonly kind: "field" }
  | { readonly kind: "read-only" }
  | { readonly kind: "offline"; readonly unsynced: number; readonly restored: boolean }
  | { readonly kind: "refused"; readonly reason: string; readonly unsynced: number }

/**
 * The status: "saved" only when the server has acknowledged everything this tab holds.
 * `fieldOpen` when a block's field that commits when left (a caption) was typed into and not
 * left, whose words are not in the shared document yet (Editor.tsx's `onFieldOpen`): never
 * "Saved" then.
 */
export const liveStatus = (state: LiveState, fieldOpen = false): LiveStatus =>
  // A page held too large from the start stays "Read only" when a change reaches it anyway (its note says why).
  state.refusal !== undefined && !(state.tooLarge !== undefined && state.refusal.startsWith("document-too-large"))
    ? { kind: "refused", reason: refusalSentence(state.refusal), unsynced: state.unsynced }
    : !state.connected
    ? (state.synced || state.unsynced > 0 || state.restored ? { kind: "offline", unsynced: state.unsynced, restored: state.restored } : { kind: "connecting" })
    : state.tooLarge !== undefined ? { kind: "read-only" }
    : state.restored ? { kind: "sending-kept" }
    : !state.synced ? { kind: "connecting" }
    : state.readOnly ? { kind: "read-only" }
    : fieldOpen ? { kind: "field" }
    : state.unsynced === 0 ? { kind: "saved" }
    : { kind: "saving" }

/** The status in words. */
export const liveStatusText = (status: LiveStatus): string => {
  switch (status.kind) {
    case "connecting":
      return "Connecting…"
    case "saved":
      return "Saved"
    case "saving":
      return "Saving…"
    case "sending-kept":
      return "Sending the changes kept in this browser, not yet on the server…"
    case "field":
      return "Not saved until you leave the field"
    case "read-only":
      return "Read only"
    case "offline":
      return status.restored ? "Offline — changes kept in this browser, not yet on the server"
        : status.unsynced === 0 ? "Offline — everything you typed is on the server"
        : `Offline — ${changes(status.unsynced)} not yet on the server`
    case "refused":
      return status.unsynced === 0 ? status.reason : `${status.reason} ${changes(status.unsynced)} not yet on the server.`
  }
}

const changes = (n: number) => (n === 1 ? "1 change" : `${n} changes`)

/**
 * The sentence for a close reason of the collaboration server (`code` or `code: words`). The
 * server's words follow `forbidden: ` and are shown as they are; an unknown code shows what the
 * server said.
 */
export const refusalSentence = (reason: string): string => {
  const colon = reason.indexOf(":")
  const code = (colon < 0 ? reason : reason.slice(0, colon)).trim()
  const words = colon < 0 ? "" : reason.slice(colon + 1).trim()
  switch (code) {
    case "update-too-large":
      return "The server refused your last change: it was too large to send at once (a very large paste?). Reload the page to go on from what the server has, and paste in smaller parts."
    case "document-too-large":
      // Held read-only from the start (the server's words say so), or grown over the limit by the last change.
      return /\bread-only\b/.test(words) ? tooLargeSentence(reason)
        : "This page is too large to edit live: the server refused your last change, so it was not saved. Reload the page, then split it or remove some of its content."
    case "rate-limited":
      return "You are typing faster than the server accepts: your last changes wait and are sent again in a moment."
    case "invalid-update":
      // The server's check of a change against the page's blocks says why after "not saved, " (CollabUpdateCheck).
      return words.startsWith("not saved, ")
        ? `The server refused your last change, so it was not saved: ${words.slice("not saved, ".length).replace(/\.*$/, "")}. Reload the page to continue from what the server has.`
        : "The server could not read your last change, so it was not saved. Reload the page to continue from what the server has."
    case "forbidden":
      return `You can no longer edit this page${words === "" ? "" : ` (${words})`}. What you type now is not saved.`
    case "unauthenticated":
      return "You are signed out: sign in again to keep editing. What you type now is not saved."
    case "not-found":
      return "This page is no longer in this change request, or you can no longer see it."
    case "page-deleted":
      return "This page was deleted from the change request while you had it open. What you typed in it is not kept there."
    case "merged":
      return "This change request was merged. What you typed after that is not in it."
    case "archived":
      return "This change request was archived. What you typed after that is not saved."
    case "read-only":
      return "You may now only read this change request. What you typed after that is not saved."
    case "resync":
      return "The connection to the server was interrupted while you typed: your last changes are sent again in a moment."
    case "unavailable":
      return "The server could not store your changes just now; they are kept in this browser and sent again when it can."
    case "awareness-too-large":
      return "The server refused what this tab shares of you (your name, caret and page) as too large. Reload the page."
    default:
      return reason === "" ? "The server closed the connection." : `The server closed the connection: ${reason}`
  }
}

/** KiB as a person reads them: MB (1,024 KiB) from 1,024 up, to a tenth. */
const sizeOf = (kib: number): string => kib < 1024 ? `${kib} KB` : `${Math.round(kib / 102.4) / 10} MB`

/**
 * What the editor says of a page the server holds read-only as too large to edit live, from the
 * server's words (`document-too-large: this page would take [at least] N KiB live, over the M KiB
 * limit: …`), its figures kept; without them, the same sentence without figures.
 */
export const tooLargeSentence = (reason: string): string => {
  const figures = /would take (at least )?(\d+) KiB live, over the (\d+) KiB limit/.exec(reason)
  const size = figures === null ? "" : ` (it would take ${figures[1] ?? ""}${sizeOf(Number(figures[2]))} live; the limit is ${sizeOf(Number(figures[3]))})`
  return `This page is too large to edit live${size}. You can read it below. To edit it, split it into smaller pages, or change its markdown through Git sync or the API.`
}

/**
 * Whether a refusal passes by itself (too fast, the database down a moment, an edit sent on a
 * reopened page ahead of the sync that carries what it builds on): the document is then
 * opened again after a pause and typing goes on. Any other stops the editor: access is gone, or a
 * change was refused for good (too large, unreadable), and it stays in the tab's document (undoing
 * it keeps its content, for redo), so every later sync would send it again; reloading starts from
 * what the server has.
 */
export const refusalPasses = (reason: string): boolean => /^(rate-limited|unavailable|resync)\b/.test(reason)

/**
 * Whether a refusal makes the edits kept in this browser (kept-edits.ts) worthless: a change
 * refused for good (too large, unreadable) would be sent and refused again at every opening, and
 * a page one can no longer edit or see takes none. A reload then starts from the server's page.
 * Signed out, or refused a moment, they are kept: they are sent once one can again.
 */
export const refusalDropsKept = (reason: string): boolean => /^(update-too-large|document-too-large|invalid-update|forbidden|not-found)\b/.test(reason)

/**
 * Whether a refusal says that what one types in changed under them (the page deleted, the change
 * request merged or archived, their role lowered to reading): the server keeps nothing more of this
 * page from them, and the editor offers them the text it holds (to copy, or to start a new change
 * request with). The copy kept in this browser stays until they do.
 */
export const refusalStrands = (reason: string): boolean => /^(page-deleted|merged|archived|read-only)\b/.test(reason)

/** How many caret colours there are (`.collab-colour-<n>` in ui/collab-colours.css, each with a light and a dark shade). */
export const caretColours = 8

/** The caret colour of a person: always the same for one person id. */
export const caretColourOf = (id: string): number => {
  let hash = 0
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0
  return hash % caretColours
}

/** The address of the collaboration server on the app's own origin. */
export const collabUrl = (location: { readonly protocol: string; readonly host: string }): string =>
  `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/collab`
