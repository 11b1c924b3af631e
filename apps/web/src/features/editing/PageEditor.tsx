/**
 * One page of a change request in the editor: its markdown (`getPageInChangeRequestById`
 * `format=markdown`) in the TipTap editor loaded with `import()`, its title and description, and
 * autosave through a `SaveQueue` (debounced `updateChangeRequestContent` with the `baseRevision`
 * the page was loaded from) with its state shown: Saved, Saving…, Offline — will retry, Failed.
 */
import { type ComponentType, type RefObject, useEffect, useMemo, useRef, useState } from "react"
import type { EditorProps, LinkTarget } from "../../editor/Editor.tsx"
import { headingsOfHtml, linkTargets, type Heading, type PageEntry } from "../../editor/commands/link-targets.ts"
import { ApiFailure, getChangeRequest, getPageHtml, getPageMarkdown, getRevisionParents, listFiles, listPages, type PageDocument, updateContent, uploadFile } from "./api.ts"
import { draftKey, SaveQueue, type SaveState, type SendOutcome } from "./save-queue.ts"
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../api/react.ts"
import { sessionAtom } from "../../api/session.ts"
import type { CollabUser } from "../../editor/collab/index.ts"
import { caretColourOf } from "./live.ts"
import { LivePageEditor } from "./LivePageEditor.tsx"

/**
 * The editor's module, loaded with `import()` on first use. Not `React.lazy`: a Suspense retry
 * renders in a time-sliced lane, and TipTap's `useEditor` destroys an editor not mounted within
 * 1 ms of its render, which Editor.tsx's load effect then meets with a null schema.
 */
let editorModule: Promise<typeof import("../../editor/Editor.tsx")> | undefined

/** Starts loading the editor's module (once; again after a failure): the change request screen asks for it before its page is known. */
export const loadEditorModule = () =>
  (editorModule ??= import("../../editor/Editor.tsx").catch((failure: unknown) => {
    editorModule = undefined
    throw failure
  }))

const useEditorModule = (): ComponentType<EditorProps> | { readonly error: string } | undefined => {
  const [loaded, setLoaded] = useState<ComponentType<EditorProps> | { readonly error: string } | undefined>(undefined)
  useEffect(() => {
    let live = true
    loadEditorModule().then(
      (module) => live && setLoaded(() => module.Editor),
      (failure: unknown) => live && setLoaded({ error: failure instanceof Error ? failure.message : String(failure) })
    )
    return () => {
      live = false
    }
  }, [])
  return loaded
}

const outcomeOf = (failure: unknown): SendOutcome => {
  if (failure instanceof ApiFailure) {
    if (failure.offline) return { kind: "offline" }
    if (failure.status === 409) {
      return { kind: "conflict", reason: `This page changed elsewhere since you opened it; your edits were not saved (this browser keeps them). ${failure.message}` }
    }
    return { kind: "failed", reason: failure.message }
  }
  return { kind: "failed", reason: failure instanceof Error ? failure.message : String(failure) }
}

const localStore = () => {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

export const SaveStatus = (props: { readonly state: SaveState; readonly onRetry: () => void; readonly onReload: () => void }) => {
  const { state } = props
  return (
    <div className={`save-status save-${state.kind}`} role="status" aria-live="polite">
      {state.kind === "saved" ? "Saved" : state.kind === "saving" ? "Saving…" : state.kind === "offline" ? "Offline — will retry"
        : state.kind === "failed" ? <>Failed: {state.reason} <button type="button" onClick={props.onRetry}>Retry</button></>
        : <>{state.reason} <button type="button" onClick={props.onReload}>Reload the page</button></>}
    </div>
  )
}

/** Runs `work` over `items` at most `width` at a time. */
const inBatches = async <A, B>(items: ReadonlyArray<A>, width: number, work: (item: A) => Promise<B>): Promise<Array<B>> => {
  const out: Array<B> = []
  for (let i = 0; i < items.length; i += width) out.push(...await Promise.all(items.slice(i, i + width).map(work)))
  return out
}

/** The headings of at most this many pages are offered by the link picker (each is one request). */
const MAX_HEADING_PAGES = 60

const documentPages = (pages: ReadonlyArray<PageEntry>): Array<PageEntry> => pages.flatMap((p) => [...(p.type === "document" ? [p] : []), ...documentPages(p.pages ?? [])])

/**
 * What the editor needs from the change request besides the page: the link picker's pages and headings (read
 * when it opens), the stored files' URLs (to show images), and image uploads (`insert_files`, which moves `base`).
 */
const useEditorResources = (props: { readonly spaceId: string; readonly number: number; readonly pageId: string }, base: RefObject<string>) => {
  const fileUrls = useRef(new Map<string, string>())
  return useMemo(() => {
    const remember = (file: { readonly id: string; readonly name: string; readonly downloadURL: string }) => {
      fileUrls.current.set(`id:${file.id}`, file.downloadURL)
      fileUrls.current.set(`name:${file.name}`, file.downloadURL)
    }
    const loadFiles = () => listFiles(props.spaceId, props.number).then((files) => files.forEach(remember), () => undefined)
    const fileUrl = (src: string): string | undefined => {
      const byId = /^\/files\/([^/?#]+)/.exec(src)
      if (byId) return fileUrls.current.get(`id:${decodeURIComponent(byId[1]!)}`)
      if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)) return undefined
      const name = src.split(/[?#]/)[0]!.split("/").pop() ?? ""
      try {
        return fileUrls.current.get(`name:${decodeURIComponent(name)}`)
      } catch {
        return fileUrls.current.get(`name:${name}`)
      }
    }
    const targets = async (): Promise<ReadonlyArray<LinkTarget>> => {
      const pages = await listPages(props.spaceId, props.number) as ReadonlyArray<PageEntry>
      const withHeadings = documentPages(pages).slice(0, MAX_HEADING_PAGES)
      const headings = await inBatches(withHeadings, 6, (p) =>
        getPageHtml(props.spaceId, props.number, p.id).then((d) => [p.id, headingsOfHtml(d.html ?? "")] as const, () => [p.id, [] as Array<Heading>] as const))
      return linkTargets(pages, props.pageId, new Map(headings))
    }
    const upload = async (file: File) => {
      const stored = await uploadFile(props.spaceId, props.number, file, base.current)
      base.current = stored.changeRequest.revision
      remember(stored.file)
      return { src: `/files/${stored.file.id}` }
    }
    return { loadFiles, fileUrl, targets, upload }
  }, [props.spaceId, props.number, props.pageId, base])
}

interface Loaded {
  readonly page: PageDocument
  readonly markdown: string
  readonly revision: string
}

interface PageEditorProps {
  readonly spaceId: string
  readonly changeRequestId: string
  readonly number: number
  readonly pageId: string
  /** The change request's revision when the screen read it: the base of the page's edits. */
  readonly revision: string
  /** Called after a save of the title or description (the tree shows titles). */
  readonly onMetadataSaved: () => void
}

/** The signed-in person as the others see them, when the server edits pages live (`QUIRE_LIVE_EDITING`). */
export const useLivePerson = (): CollabUser | undefined => {
  const session = useAtomValue(sessionAtom)
  if (!AsyncResult.isSuccess(session) || !session.value.signedIn || session.value.info.liveEditing !== true) return undefined
  const { user } = session.value.info
  return { id: user.id, name: user.displayName, colour: caretColourOf(user.id) }
}

/** The page's title and description, each saved when its field is left. */
const MetadataFields = (props: {
  readonly page: PageDocument
  readonly generation: number
  readonly error: string | undefined
  readonly onSave: (field: "title" | "description", value: string) => void
}) => (
  <>
    <label className="page-title-field">
      <span className="visually-hidden">Page title</span>
      <input key={`t${props.generation}`} defaultValue={props.page.title} aria-label="Page title" onBlur={(e) => props.onSave("title", e.target.value)}
        onKeyDown={(e) => { if (e.key === "Enter") e.currentTarget.blur() }} />
    </label>
    <label className="page-description-field">
      <span className="visually-hidden">Page description</span>
      <input key={`d${props.generation}`} defaultValue={props.page.description ?? ""} aria-label="Page description" placeholder="Description (optional)"
        onBlur={(e) => props.onSave("description", e.target.value)} onKeyDown={(e) => { if (e.key === "Enter") e.currentTarget.blur() }} />
    </label>
    {props.error === undefined ? null : <p role="alert" className="form-error">{props.error}</p>}
  </>
)

/**
 * A page edited live: the shared document in the editor, the title and description saved on the
 * change request's revision as read just before (the page's text is the server's to write).
 */
const LivePage = (props: PageEditorProps & { readonly person: CollabUser }) => {
  const Editor = useEditorModule()
  const base = useRef(props.revision)
  const resources = useEditorResources(props, base)
  const [page, setPage] = useState<PageDocument | { readonly error: string } | undefined>(undefined)
  const [metaError, setMetaError] = useState<string | undefined>(undefined)
  useEffect(() => {
    let live = true
    void resources.loadFiles()
    getPageMarkdown(props.spaceId, props.number, props.pageId).then((p) => live && setPage(p),
      (failure: unknown) => live && setPage({ error: failure instanceof Error ? failure.message : String(failure) }))
    return () => {
      live = false
    }
  }, [props.spaceId, props.number, props.pageId, resources])
  if (page !== undefined && "error" in page) return <p role="alert" className="form-error">Could not load this page: {page.error}</p>
  if (Editor === undefined || page === undefined) return <p className="muted" role="status">Loading the editor…</p>
  if ("error" in Editor) return <p role="alert" className="form-error">Could not load the editor: {Editor.error}</p>
  const save = (field: "title" | "description", value: string) => {
    if (value === (field === "title" ? page.title : page.description ?? "")) return
    if (field === "title" && value.trim() === "") return setMetaError("A page needs a title.")
    setMetaError(undefined)
    getChangeRequest(props.spaceId, props.number)
      .then((cr) => updateContent(props.spaceId, props.number, [{ operation: "update_page", page: props.pageId, [field]: value }], cr.revision))
      .then((cr) => {
        base.current = cr.revision
        setPage({ ...page, [field]: value })
        props.onMetadataSaved()
      }, (failure: unknown) => setMetaError(`Could not save the ${field}: ${failure instanceof Error ? failure.message : String(failure)}`))
  }
  return (
    <LivePageEditor changeRequestId={props.changeRequestId} pageId={props.pageId} user={props.person} Editor={Editor} resources={resources}
      header={<MetadataFields page={page} generation={0} error={metaError} onSave={save} />} />
  )
}

/** The page's editor: live when the server says so, else the whole-page autosave. */
export const PageEditor = (props: PageEditorProps) => {
  const person = useLivePerson()
  return person === undefined ? <WholePageEditor {...props} /> : <LivePage {...props} person={person} />
}

/** A page saved whole, debounced, on the revision it was loaded from, with a draft kept in this browser. */
const WholePageEditor = (props: PageEditorProps) => {
  const [loaded, setLoaded] = useState<Loaded | { readonly error: string } | undefined>(undefined)
  const [state, setState] = useState<SaveState>({ kind: "saved" })
  const [draft, setDraft] = useState<string | undefined>(undefined)
  const [shown, setShown] = useState<string | undefined>(undefined)
  const [reloads, setReloads] = useState(0)
  const queue = useRef<SaveQueue | undefined>(undefined)
  const base = useRef(props.revision)
  const [metaError, setMetaError] = useState<string | undefined>(undefined)
  const Editor = useEditorModule()
  const resources = useEditorResources(props, base)

  useEffect(() => {
    let live = true
    setLoaded(undefined)
    // The change request's revision first, then the page: the page is at least as new as its base.
    // Read each time a page opens: the screen's revision is older than any save made since it was
    // read (this page's, another page's, a teammate's), and a base older than the page's text made
    // the next save a conflict with our own earlier edits.
    const revision = getChangeRequest(props.spaceId, props.number).then((cr) => cr.revision)
    // The files' URLs before the page, so its images show from the first render.
    revision.then((rev) => Promise.all([getPageMarkdown(props.spaceId, props.number, props.pageId), resources.loadFiles()]).then(([page]) => ({ page, rev }))).then(({ page, rev }) => {
      if (!live) return
      const markdown = page.markdown ?? ""
      base.current = rev
      const q = new SaveQueue({
        key: draftKey(props.changeRequestId, props.pageId),
        acknowledged: markdown,
        storage: localStore(),
        onState: (s) => live && setState(s),
        send: (text) => {
          const sentBase = base.current
          return updateContent(props.spaceId, props.number, [{ operation: "update_page", page: props.pageId, document: { markdown: text } }], sentBase)
            .then(async (cr): Promise<SendOutcome> => {
              base.current = cr.revision
              // The page as stored: the text sent, in the usual case (one small read per save).
              const now = await getPageMarkdown(props.spaceId, props.number, props.pageId).catch(() => undefined)
              if (now === undefined || (now.markdown ?? "") === text) return { kind: "ok" }
              // Otherwise either the server tidied the text (a leading heading read as the title), or
              // it merged a change made elsewhere since our base: only the revision's parent tells.
              const parents = await getRevisionParents(props.spaceId, cr.revision).catch(() => undefined)
              if (parents?.[0] !== sentBase) {
                // The editor no longer shows the whole page: it stops until reloaded rather than send
                // a page without the other change. What this browser kept is on the server now.
                localStore()?.removeItem(draftKey(props.changeRequestId, props.pageId))
                return { kind: "conflict", reason: "This page was also changed elsewhere; the server merged those changes with yours. Reload it to see both before editing on." }
              }
              return { kind: "ok" }
            }, outcomeOf)
        }
      })
      queue.current?.dispose()
      queue.current = q
      setState({ kind: "saved" })
      setDraft(q.draft())
      setShown(markdown)
      setLoaded({ page, markdown, revision: rev })
    }, (failure: unknown) => live && setLoaded({ error: failure instanceof Error ? failure.message : String(failure) }))
    return () => {
      live = false
    }
    // The revision is read once per load: a later one (after our own saves) must not reload the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.spaceId, props.number, props.pageId, props.changeRequestId, reloads])

  useEffect(() => {
    const online = () => void queue.current?.flush()
    window.addEventListener("online", online)
    return () => {
      window.removeEventListener("online", online)
      void queue.current?.flush()
    }
  }, [props.pageId])

  if (loaded !== undefined && "error" in loaded) return <p role="alert" className="form-error">Could not load this page: {loaded.error}</p>
  const editorView = Editor === undefined ? <p className="muted" role="status">Loading the editor…</p>
    : "error" in Editor ? <p role="alert" className="form-error">Could not load the editor: {Editor.error}</p>
    // Made again on "Reload the page": it then shows the page as stored, not the edits the server refused.
    : <Editor key={reloads} markdown={loaded === undefined ? undefined : shown ?? loaded.markdown} onChange={(markdown) => queue.current?.edit(markdown)} onEditing={() => queue.current?.typing()}
      editable={state.kind !== "conflict"} linkTargets={resources.targets} uploadFile={resources.upload} fileUrl={resources.fileUrl} />
  // The editor is made while the page is on its way (hidden until it comes, at the same place in the
  // tree so it is not made again), so both take their time at once.
  if (loaded === undefined) return <div className="page-editor"><p className="muted" role="status">Loading the page…</p>{editorView}</div>

  const saveMetadata = (field: "title" | "description", value: string) => {
    const before = field === "title" ? loaded.page.title : loaded.page.description ?? ""
    if (value === before) return
    if (field === "title" && value.trim() === "") return setMetaError("A page needs a title.")
    setMetaError(undefined)
    updateContent(props.spaceId, props.number, [{ operation: "update_page", page: props.pageId, [field]: value }], base.current).then((cr) => {
      base.current = cr.revision
      setLoaded({ ...loaded, page: { ...loaded.page, [field]: value } })
      props.onMetadataSaved()
    }, (failure: unknown) => setMetaError(`Could not save the ${field}: ${failure instanceof Error ? failure.message : String(failure)}`))
  }

  return (
    <div className="page-editor">
      <>
      <div className="page-editor-bar">
        <SaveStatus state={state} onRetry={() => void queue.current?.flush()} onReload={() => {
          queue.current?.discardDraft()
          setReloads((n) => n + 1)
        }} />
      </div>
      {draft === undefined ? null : (
        <div className="draft-offer" role="alert">
          This browser kept edits of this page that were not saved.
          <button type="button" onClick={() => {
            setShown(draft)
            queue.current?.edit(draft)
            setDraft(undefined)
          }}>Restore them</button>
          <button type="button" onClick={() => {
            queue.current?.discardDraft()
            setDraft(undefined)
          }}>Discard them</button>
        </div>
      )}
      <MetadataFields page={loaded.page} generation={reloads} error={metaError} onSave={saveMetadata} />
      </>
      {editorView}
    </div>
  )
}
