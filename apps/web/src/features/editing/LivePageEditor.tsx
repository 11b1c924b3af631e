/**
 * One page of a change request edited live (docs/web.md, "Live editing"): the editor bound to the
 * page's shared document on the collaboration server (`/collab` of this origin, document
 * `<changeRequestId>/<pageId>`) through `@hocuspocus/provider`, with the others' carets, on the
 * socket of the change request around it (LivePresence.tsx) when there is one. The server stores
 * each change before it acknowledges it and writes the markdown itself; edits it has not
 * acknowledged are kept in this browser's IndexedDB (kept-edits.ts) and sent when the page opens
 * again. The status says "Saved" only when the provider has nothing unacknowledged, and a refusal
 * of the server in words. When the page or the change request changes under the writer (the page
 * deleted, the change request merged or archived, their role lowered: live.ts's `refusalStrands`),
 * the editor stops taking keystrokes and offers the text it holds (StrandedText.tsx); a page
 * opened read-only offers the edits this browser kept of it instead of sending them. A page the
 * server holds read-only as too large to edit live (its stateless message `document-too-large`)
 * says why, and shows its markdown to read instead of its empty shared document (`TooLargePage`).
 */
import { HocuspocusProvider, WebSocketStatus } from "@hocuspocus/provider"
import { type ComponentType, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react"
import * as Y from "yjs"
import type { EditorProps } from "../../editor/Editor.tsx"
import type { CollabUser } from "../../editor/collab/index.ts"
import { keepEdits, type KeptEdits, keptName } from "./kept-edits.ts"
import { collabUrl, liveStatus, liveStatusText, refusalDropsKept, refusalPasses, refusalStrands, tooLargeSentence, type LiveState, type LiveStatus } from "./live.ts"
import { callApi } from "../../api/call.ts"
import { useRegistry } from "../../api/react.ts"
import { getPage } from "./content.ts"
import { useLiveSocket } from "./LivePresence.tsx"
import { type Stranded, StrandedText, type StrandedPage } from "./StrandedText.tsx"

export interface LiveEditorResources {
  readonly targets: NonNullable<EditorProps["linkTargets"]>
  readonly upload: NonNullable<EditorProps["uploadFile"]>
  readonly fileUrl: NonNullable<EditorProps["fileUrl"]>
  readonly openapi: NonNullable<EditorProps["openapi"]>
  readonly file: NonNullable<EditorProps["file"]>
  readonly importImage: NonNullable<EditorProps["importImage"]>
  readonly reusable: NonNullable<EditorProps["reusable"]>
  readonly writer: NonNullable<EditorProps["writer"]>
}

interface Connection {
  readonly provider: HocuspocusProvider
  readonly document: Y.Doc
}

const initialState: LiveState = { connected: false, synced: false, unsynced: 0, refusal: undefined, restored: false, readOnly: false, tooLarge: undefined }

/** Kept edits of a page opened read-only: none are made, and those there are go when discarded. */
const keepNothing: KeptEdits = { restored: Promise.resolve(false), acknowledged: () => undefined, discard: () => undefined, close: () => undefined }

/** The page's markdown made from `document` as it is now (the codec loads with `import()`, as the editor does). */
const markdownOf = (document: Y.Doc): Promise<string> => {
  const state = Y.encodeStateAsUpdate(document)
  return import("../../editor/collab/markdown.ts").then((module) => module.markdownOfState(state))
}

/**
 * The edits this browser kept of a page now opened read-only (typed before the change request was
 * merged or archived, never acknowledged): read into a document of their own, never sent; their
 * text, and how to forget them, once read. Nothing when there are none.
 */
const strandedKept = (name: string, onFound: (markdown: string, discard: () => void) => void): (() => void) => {
  const document = new Y.Doc()
  const kept = keepEdits(name, document, () => false)
  let closed = false
  void kept.restored.then(async (found) => {
    if (!found || closed) return
    const markdown = await markdownOf(document)
    if (!closed) onFound(markdown, kept.discard)
  })
  return () => {
    closed = true
    kept.close()
    document.destroy()
  }
}

/**
 * Whether React must draw the page again for a change of the state: not when only the count of
 * changes not yet acknowledged moved (at every keystroke, and at every acknowledgement), which
 * only the status line shows and which it writes without React. A React commit while the caret
 * is in the editor reads the caret's offset by walking every node of the editor (React's
 * selection restoring), the whole page in a long one, and that twice a keystroke. Under a
 * refusal, its alert shows the count: drawn then.
 */
const drawnChange = (before: LiveState, after: LiveState): boolean =>
  before.connected !== after.connected || before.synced !== after.synced || before.refusal !== after.refusal ||
  before.restored !== after.restored || before.readOnly !== after.readOnly || before.tooLarge !== after.tooLarge || (after.refusal !== undefined && before.unsynced !== after.unsynced)

/**
 * The provider of one page's document while the page is open, and its state: `state` as React
 * last drew it, `latest()` as it is now, `watch` called at each change of it; `stranded`, the text
 * the server will not keep (what changed under the writer, or edits kept of a read-only page).
 * `readOnly`: the change request is no longer open to edits when the page opens (read then only).
 */
const useLiveDocument = (changeRequestId: string, pageId: string, userId: string, readOnly: boolean) => {
  const socket = useLiveSocket()
  const [connection, setConnection] = useState<Connection | undefined>(undefined)
  const [state, setState] = useState<LiveState>(initialState)
  const [stranded, setStranded] = useState<Stranded | undefined>(undefined)
  const openedReadOnly = useRef(readOnly).current
  const latest = useRef<LiveState>(initialState)
  const watchers = useRef(new Set<() => void>()).current
  useEffect(() => {
    const document = new Y.Doc()
    const update = (change: Partial<LiveState>) => {
      const before = latest.current
      const after = { ...before, ...change }
      latest.current = after
      if (drawnChange(before, after)) setState(after)
      for (const watcher of watchers) watcher()
    }
    let provider: HocuspocusProvider | undefined
    let closed = false
    const name = keptName(changeRequestId, pageId, userId)
    // Edits kept in this browser are in the document before it connects (kept-edits.ts); a page
    // opened read-only offers them instead, and keeps nothing.
    const kept = openedReadOnly ? keepNothing : keepEdits(name, document, (origin) => origin !== undefined && origin === provider)
    const stopKept = openedReadOnly ? strandedKept(name, (markdown, discard) => setStranded({ reason: "kept", markdown, discard })) : () => undefined
    if (openedReadOnly) update({ readOnly: true })
    /** The server keeps nothing more of this page from this tab: its text is offered (once). */
    const strand = (reason: string) => {
      let offered = false
      void markdownOf(document).then((markdown) => {
        if (closed || offered) return
        offered = true
        setStranded({ reason, markdown, discard: kept.discard })
      })
    }
    // A refusal closes the document on the socket, which stays open: one that passes (live.ts) is
    // opened on it again after a pause, growing while it is refused again.
    let retry: ReturnType<typeof setTimeout> | undefined
    let pause = 1_000
    const reopen = () => {
      retry = undefined
      pause = Math.min(pause * 2, 30_000)
      void provider?.sendToken().then(() => provider?.startSync())
    }
    /** Everything this tab has (kept edits included) is acknowledged by the server. */
    const acknowledged = (all: boolean) => {
      kept.acknowledged(all)
      return all ? { unsynced: 0, refusal: undefined, restored: false } : {}
    }
    const connect = (restored: boolean) => {
      if (closed) return
      update({ restored })
      const live = new HocuspocusProvider({
        // The change request's socket when there is one (its presence is on it too), else one of its own.
        ...(socket === undefined ? { url: collabUrl(window.location) } : { websocketProvider: socket }),
        name: `${changeRequestId}/${pageId}`,
        document,
        onStatus: ({ status }) => update({ connected: status === WebSocketStatus.Connected }),
        // Synced with nothing unacknowledged: the server has the kept edits too (they went in the
        // sync's answer, which the server acknowledges like an update).
        onSynced: () => update({ synced: true, unsynced: live.unsyncedChanges, ...acknowledged(live.unsyncedChanges === 0) }),
        // A refusal stays until the server has everything: the provider reconnects by itself and
        // sends the refused change again, which the server refuses again until it is undone.
        onUnsyncedChanges: ({ number }) => {
          const all = number === 0 && live.synced
          if (all) pause = 1_000
          update({ unsynced: number, ...acknowledged(all) })
        },
        onAuthenticated: ({ scope }) => {
          // Edits made while the socket was down (or kept) that the server now only lets one read
          // (merged, archived meanwhile): offered back, never sent as if they could be stored.
          if (scope === "readonly" && !openedReadOnly && (live.unsyncedChanges > 0 || latest.current.restored)) strand("read-only")
          update({ readOnly: openedReadOnly || scope === "readonly", ...(scope === "readonly" ? { restored: false } : {}) })
        },
        onClose: ({ event }) => {
          kept.acknowledged(false)
          // A plain drop has no reason (the provider reconnects); the server's refusal has one.
          if (event.reason === "") return update({ connected: false })
          if (refusalDropsKept(event.reason)) kept.discard()
          if (refusalStrands(event.reason) && latest.current.refusal === undefined) strand(event.reason)
          update({ refusal: event.reason })
          if (refusalPasses(event.reason) && retry === undefined) retry = setTimeout(reopen, pause)
        },
        // A page too large to edit live is held read-only to everyone, as an empty document: the
        // server says why (its words, with its figures), and the page is shown from its markdown.
        // Edits kept of it would be refused at every opening.
        onStateless: ({ payload }) => {
          if (!payload.startsWith("document-too-large")) return
          kept.discard()
          update({ tooLarge: payload, restored: false })
        },
        onAuthenticationFailed: ({ reason }) => {
          if (refusalDropsKept(reason)) kept.discard()
          update({ refusal: reason === "" ? "unauthenticated" : reason })
        }
      })
      provider = live
      if (socket !== undefined) {
        live.attach()
        // The shared socket may be open already: its status event has gone by.
        update({ connected: socket.status === WebSocketStatus.Connected })
      }
      setConnection({ provider: live, document })
    }
    void kept.restored.then(connect)
    // The browser knows it is offline before the socket does (the provider notices a silent
    // socket only after its timeout): say so at once.
    const offline = () => {
      kept.acknowledged(false)
      update({ connected: false })
    }
    const online = () => update({ connected: provider?.configuration.websocketProvider.status === WebSocketStatus.Connected })
    window.addEventListener("offline", offline)
    window.addEventListener("online", online)
    return () => {
      closed = true
      window.removeEventListener("offline", offline)
      window.removeEventListener("online", online)
      clearTimeout(retry)
      provider?.destroy()
      kept.close()
      stopKept()
      document.destroy()
      setConnection(undefined)
      setStranded(undefined)
    }
  }, [changeRequestId, pageId, userId, socket, watchers, openedReadOnly])
  const watch = (watcher: () => void) => {
    watchers.add(watcher)
    return () => void watchers.delete(watcher)
  }
  return { connection, state, latest: () => latest.current, watch, stranded }
}

/** Lines of a too large page's markdown laid out together: those off screen are not laid out (`content-visibility`). */
const linesPerPart = 500

/** `markdown` in parts of `linesPerPart` lines, which put together are `markdown` again. */
const partsOf = (markdown: string): Array<{ readonly text: string; readonly lines: number }> => {
  const lines = markdown.split("\n")
  const parts: Array<{ readonly text: string; readonly lines: number }> = []
  for (let i = 0; i < lines.length; i += linesPerPart) {
    const last = i + linesPerPart >= lines.length
    parts.push({ text: lines.slice(i, i + linesPerPart).join("\n") + (last ? "" : "\n"), lines: Math.min(linesPerPart, lines.length - i) })
  }
  return parts
}

/** A too large page's markdown in a scrolling box, in parts laid out only when on screen: one text of a megabyte takes seconds to lay out (docs/web.md). */
const PageText = (props: { readonly markdown: string }) => {
  const parts = useMemo(() => partsOf(props.markdown), [props.markdown])
  return (
    <div className="live-too-large-text" role="region" tabIndex={0} aria-label="The page's markdown, read only">
      {parts.map((part, i) => <pre key={i} style={{ containIntrinsicBlockSize: `auto ${part.lines * 1.5}em` }}>{part.text}</pre>)}
    </div>
  )
}

/**
 * A page too large to edit live, to read: its markdown as stored (read through the API), as
 * preformatted text. Not the editor, which takes many seconds to lay out a page of hundreds of
 * thousands of blocks (the server holds such a page read-only because its live state is that
 * large), nor the read view's HTML; the text shows at once and can be searched and copied.
 */
const TooLargePage = (props: { readonly page: StrandedPage }) => {
  const registry = useRegistry()
  const { spaceId, number, pageId } = props.page
  const [read, setRead] = useState<{ readonly markdown: string } | { readonly error: string } | undefined>(undefined)
  useEffect(() => {
    let live = true
    setRead(undefined)
    callApi(registry, getPage(spaceId, number, pageId, "markdown")).then(
      (page) => live && setRead({ markdown: page.markdown ?? "" }),
      (failure: unknown) => live && setRead({ error: failure instanceof Error ? failure.message : String(failure) })
    )
    return () => {
      live = false
    }
  }, [registry, spaceId, number, pageId])
  if (read === undefined) return <p className="muted" role="status">Loading the page…</p>
  if ("error" in read) return <p role="alert" className="form-error">Could not read the page: {read.error}</p>
  return <PageText markdown={read.markdown} />
}

/** How long everything must stay acknowledged before "Saving…" turns to "Saved", ms. */
const savedAfterMs = 400

/** The page's status: `live` with the header's state over it (not "Saved" before the header's save is). */
const pageStatus = (state: LiveState, fieldOpen: boolean, headerState: "open" | "saving" | undefined): LiveStatus => {
  const live = liveStatus(state, fieldOpen || headerState === "open")
  // The header's save is not the shared document's, but it is the page's: not "Saved" before it is.
  return live.kind === "saved" && headerState === "saving" ? { kind: "saving" } : live
}

export const LivePageEditor = (props: {
  readonly changeRequestId: string
  readonly pageId: string
  readonly user: CollabUser
  /** The editor's component; undefined while its module loads (the document connects meanwhile). */
  readonly Editor: ComponentType<EditorProps> | undefined
  readonly resources: LiveEditorResources
  /** The title and description fields, above the editor. */
  readonly header: ReactNode
  /** Where the header's fields are: typed into and not left (`open`), or being saved through the API. */
  readonly headerState?: "open" | "saving" | undefined
  /** The change request is no longer open to edits (merged, archived) as the page opens: it opens read-only. */
  readonly readOnly?: boolean | undefined
  /** The page and its change request, for the text the server will not keep (StrandedText.tsx). */
  readonly page: StrandedPage
  /** The page or the change request changed under the writer (deleted, merged, archived): the screen reads it again. */
  readonly onChangedUnder?: (() => void) | undefined
}) => {
  const { connection, state, latest, watch, stranded } = useLiveDocument(props.changeRequestId, props.pageId, props.user.id, props.readOnly === true)
  const strandedBy = state.refusal !== undefined && refusalStrands(state.refusal) ? state.refusal : stranded?.reason
  const onChangedUnder = useRef(props.onChangedUnder)
  onChangedUnder.current = props.onChangedUnder
  const changedUnder = strandedBy !== undefined && strandedBy !== "kept"
  useEffect(() => {
    if (changedUnder) onChangedUnder.current?.()
  }, [changedUnder])
  const [fieldOpen, setFieldOpen] = useState(false)
  const status = pageStatus(state, fieldOpen, props.headerState)
  // The status line is written here, not drawn by React: it changes at every keystroke (drawnChange).
  const line = useRef<HTMLDivElement>(null)
  const shown = useRef({ fieldOpen, headerState: props.headerState })
  shown.current = { fieldOpen, headerState: props.headerState }
  useLayoutEffect(() => {
    const current = () => pageStatus(latest(), shown.current.fieldOpen, shown.current.headerState)
    const paint = (el: HTMLDivElement, now: LiveStatus) => {
      const className = `save-status save-${now.kind === "refused" ? "failed" : now.kind}`
      const text = now.kind === "refused" ? "" : liveStatusText(now)
      if (el.className !== className) el.className = className
      if (el.textContent !== text) el.textContent = text
    }
    let later: ReturnType<typeof setTimeout> | undefined
    const write = () => {
      const el = line.current
      if (el === null) return
      const now = current()
      // From "Saving…", "Saved" is written once everything has stayed acknowledged a moment: each
      // keystroke's acknowledgement would redraw the line between keystrokes, and each redraw is a
      // layout of the whole page.
      if (now.kind === "saved" && el.classList.contains("save-saving")) {
        later ??= setTimeout(() => {
          later = undefined
          if (line.current !== null) paint(line.current, current())
        }, savedAfterMs)
        return
      }
      clearTimeout(later)
      later = undefined
      paint(el, now)
    }
    write()
    const unwatch = watch(write)
    return () => {
      unwatch()
      clearTimeout(later)
    }
  })
  const { Editor } = props
  return (
    <div className="page-editor">
      <div className="page-editor-bar">
        <div ref={line} role="status" aria-live="polite" />
      </div>
      {strandedBy !== undefined ? <StrandedText reason={strandedBy} stranded={stranded} page={props.page} />
        : state.tooLarge !== undefined ? <p role="note" className="live-too-large">{tooLargeSentence(state.tooLarge)}</p>
        : status.kind === "refused" ? <p role="alert" className="form-error live-refusal">{liveStatusText(status)}</p> : null}
      {/* Read-only, or changed under the writer: the header's fields are shown, and take nothing. */}
      <fieldset className="page-header-fields" disabled={props.readOnly === true || strandedBy !== undefined}>{props.header}</fieldset>
      {/* Too large to edit live: its shared document is empty, its markdown is shown instead. */}
      {state.tooLarge !== undefined ? <TooLargePage page={props.page} />
        : Editor === undefined ? <p className="muted" role="status">Loading the editor…</p>
        : connection === undefined ? <p className="muted" role="status">Connecting…</p> : (
        // Made again with each connection (its extensions are bound to one shared document).
        <Editor key={connection.document.guid} markdown={undefined} editable={state.refusal === undefined ? !state.readOnly : refusalPasses(state.refusal)}
          onFieldOpen={setFieldOpen} linkTargets={props.resources.targets} uploadFile={props.resources.upload} fileUrl={props.resources.fileUrl}
          file={props.resources.file} importImage={props.resources.importImage} openapi={props.resources.openapi}
          reusable={props.resources.reusable} writer={props.resources.writer}
          collaboration={{ document: connection.document, awareness: connection.provider.awareness!, user: props.user, ready: state.synced }} />
      )}
    </div>
  )
}
