/**
 * A live page's edits kept in this browser until the server has them (docs/web.md, "Live
 * editing"): typed offline, or in a tab closed before the server acknowledged them, they are in
 * the page's document the next time it opens here, before it connects, and reach the server as
 * any Yjs state does (merged). One IndexedDB database per (change request, page, person), through
 * `y-indexeddb`, which keeps the whole document: it is made at the first edit of one's own and
 * deleted once the server has acknowledged everything for a moment, so a browser whose edits are
 * all on the server holds no copy of the page.
 */
import { IndexeddbPersistence } from "y-indexeddb"
import type * as Y from "yjs"

/** The database of one person's kept edits of one page of a change request. */
export const keptName = (changeRequestId: string, pageId: string, userId: string): string => `quire-live:${changeRequestId}/${pageId}/${userId}`

/** How long everything must stay acknowledged before the kept copy is deleted (ms): typing on does not make and delete it at each key. */
const forgetAfterMs = 1_000

export interface KeptEdits {
  /** Resolves once edits kept by an earlier tab are in the document: whether there were any. */
  readonly restored: Promise<boolean>
  /** Whether the server has acknowledged everything now: after a moment of it, the copy is deleted. */
  readonly acknowledged: (all: boolean) => void
  /** The server refused this tab's edits for good (live.ts, `refusalDropsKept`): the copy goes, and no other is made. */
  readonly discard: () => void
  /** The page closes: the copy stays if the server lacks something, else it goes. */
  readonly close: () => void
}

/**
 * Keeps `document`'s edits under `name`. `remote` tells an update's origin that came from the
 * server (the provider): those alone make no copy.
 */
export const keepEdits = (name: string, document: Y.Doc, remote: (origin: unknown) => boolean): KeptEdits => {
  let persistence: IndexeddbPersistence | undefined
  let all = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let discarded = false
  const start = () => {
    try {
      const made = new IndexeddbPersistence(name, document)
      persistence = made
      // Another tab of this person on this page deletes the database once it has everything: its
      // connection here closes (y-indexeddb closes on "versionchange"), so this tab stops writing
      // to it and, if the server lacks something of this tab, keeps it in a new one.
      // oxlint-disable-next-line no-underscore-dangle -- y-indexeddb's one handle on its database (public in its types)
      made._db.then((db) => {
        db.addEventListener("versionchange", () => {
          if (persistence !== made) return
          persistence = undefined
          void made.destroy()
          if (!all && !discarded) start()
        })
      }, () => undefined)
    } catch {
      // No IndexedDB (a private window of some browsers): edits live in the tab only.
      persistence = undefined
    }
    return persistence
  }
  const forget = () => {
    clearTimeout(timer)
    timer = undefined
    const gone = persistence
    persistence = undefined
    void gone?.clearData().catch(() => undefined)
  }
  const onUpdate = (_update: Uint8Array, origin: unknown) => {
    if (discarded || origin === persistence || remote(origin)) return
    all = false
    clearTimeout(timer)
    timer = undefined
    if (persistence === undefined) start()
  }
  /** Reads the database into the document: whether it held anything. */
  const load = (): Promise<boolean> => {
    const opened = start()
    if (opened === undefined) return Promise.resolve(false)
    return Promise.race([
      opened.whenSynced.then(() => document.store.clients.size > 0),
      // A database that cannot open (refused, full) never syncs: the page opens without kept edits.
      // oxlint-disable-next-line no-underscore-dangle -- y-indexeddb's one handle on the opening (public in its types)
      opened._db.then(() => new Promise<boolean>(() => undefined), () => false)
    ]).then((kept) => {
      // Nothing kept: no copy until the first edit.
      if (!kept && persistence === opened) forget()
      return kept
    })
  }
  // Opened only when it is there (where the browser lists its databases), so that opening a page
  // without kept edits makes and deletes none.
  const restored = typeof indexedDB === "undefined" ? Promise.resolve(false)
    : typeof indexedDB.databases !== "function" ? load()
    : indexedDB.databases().then((listed) => listed.some((db) => db.name === name), () => true).then((found) => found ? load() : false)
  document.on("update", onUpdate)
  return {
    restored,
    acknowledged: (now) => {
      all = now
      clearTimeout(timer)
      timer = now && persistence !== undefined ? setTimeout(forget, forgetAfterMs) : undefined
    },
    discard: () => {
      discarded = true
      forget()
    },
    close: () => {
      document.off("update", onUpdate)
      if (all) forget()
      else {
        clearTimeout(timer)
        void persistence?.destroy()
      }
    }
  }
}
