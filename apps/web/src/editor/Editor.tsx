/**
 * The page editor: TipTap over the GitBook-markdown schema. It is given markdown and reports markdown; every
 * block not edited is written back byte for byte (see @quire/document's codec). The app loads it with `import()`,
 * so TipTap and ProseMirror stay out of the first load.
 */
import type { Editor as TiptapEditor } from "@tiptap/core"
import { EditorContent, useEditor } from "@tiptap/react"
import type { Node as ProseMirrorNode } from "@tiptap/pm/model"
import { useEffect, useLayoutEffect, useMemo, useRef } from "react"
import { createMarkdownCodec, type MarkdownCodec } from "@quire/document"
import { type AgentWriter, commandExtensions, createHooks, type LinkTarget, type ReusableCatalog } from "./commands/index.ts"
import { createFigureView, type FileUrlResolver } from "./blocks/figure/view.ts"
import type { OpenapiCatalog } from "./blocks/openapi/catalog.ts"
import { createOpenapiView } from "./blocks/openapi/view.ts"
import { createIncludeView } from "./blocks/include/view.ts"
import { createFileView } from "./blocks/file/view.ts"
import { createContentRefView } from "./blocks/content-ref/view.ts"
import { createCardsView } from "./blocks/cards/view.ts"
import type { FileLookup } from "../features/files/file-urls.ts"
import { commitsAsTyped } from "./blocks/shared/view.ts"
import { Toolbar } from "./commands/Toolbar.tsx"
import type { UploadedFile, UploadOptions } from "./uploads.ts"
import { collaborationExtensions, type CollabBinding } from "./collab/index.ts"
import { EditingBasics, EditingCursors, editorExtensions } from "./schema.ts"
import { sourceExtensions } from "./source/index.ts"
import "../ui/collab-colours.css"
import "./editor.css"

export interface EditorProps {
  /**
   * The page's markdown as stored. Changing it replaces the document (not an undoable step).
   * Undefined while it is on its way: the editor is made (TipTap's setup is a tenth of a second)
   * but shows nothing and takes no input.
   */
  readonly markdown: string | undefined
  /**
   * Called with the page's markdown once typing pauses (`changeDelay` ms after the last change), and at
   * once when the editor loses focus, the tab is hidden or the editor goes away: serializing a long page
   * at every keystroke would make typing lag.
   */
  readonly onChange?: (markdown: string) => void
  /**
   * Called with true when a block's field that commits when left (a caption, a tab's title, a
   * block's source) is typed into, and with false once it is left: until then its words are not in
   * the page, nor in a shared document, so a status must not say "Saved".
   */
  readonly onFieldOpen?: (open: boolean) => void
  /** False (a merged or archived change request, a reader, a page stopped): no input, and no toolbar offering what would be refused. */
  readonly editable?: boolean
  readonly "aria-label"?: string
  /** The pages (and their headings) the link picker offers, loaded when it opens; without it only URLs. */
  readonly linkTargets?: () => Promise<ReadonlyArray<LinkTarget>>
  /**
   * Stores a file (a pasted, dropped or chosen image, a File block's file) in the change request,
   * reporting its progress, and says how the page refers to it; without it nothing can be uploaded.
   */
  readonly uploadFile?: (file: File, options: UploadOptions) => Promise<UploadedFile>
  /** Copies the file at a URL of another site (an image in pasted HTML) into the change request; without it pasted images keep their URL. */
  readonly importImage?: (url: string) => Promise<UploadedFile>
  /** The URL the browser loads a stored file from, for a page's reference to it (`/files/<id>`). */
  readonly fileUrl?: FileUrlResolver
  /** The organization's OpenAPI specs and their operations, which an OpenAPI block picks from; without it the block shows only its own spec. */
  readonly openapi?: OpenapiCatalog
  /** The stored file a page's reference names (its name and size, for the File block). */
  readonly file?: FileLookup
  /**
   * Live editing: the page is the shared document's, edited with the others (editor/collab). The
   * editor then neither reads `markdown` nor reports any (the server writes the markdown), and
   * undo takes back only one's own changes. Read when the editor is made; hidden until `ready`.
   */
  readonly collaboration?: CollabBinding & { readonly ready: boolean }
  /** The change request's reusable contents: the slash menu inserts them, and "Make reusable" turns the selected blocks into one. */
  readonly reusable?: ReusableCatalog
  /** The change request's agent: "Write with AI" in the slash menu and "Improve" on a selection; neither without it. */
  readonly writer?: AgentWriter | undefined
}

export type { CollabBinding, LinkTarget, OpenapiCatalog, ReusableCatalog, UploadedFile, UploadOptions }

/** How long typing must pause before the page's markdown is reported, ms. */
const changeDelay = 300

/** From this many top-level blocks on, the browser draws only those near the screen (editor.css). */
const longPage = 300

/** Replaces the editor's document with `doc` (parsed with the editor's own schema), outside the undo history. */
const load = (editor: TiptapEditor, doc: ProseMirrorNode): void => {
  const tr = editor.state.tr.replaceWith(0, editor.state.doc.content.size, doc.content).setMeta("addToHistory", false)
  editor.view.dispatch(tr)
}

/** The markdown of a document of blocks, with the editor's codec (made on first use). */
const markdownWith = (codec: { current: MarkdownCodec | null }, editor: { readonly current: TiptapEditor | null }) => (doc: ProseMirrorNode): string => {
  if (editor.current === null) return ""
  codec.current ??= createMarkdownCodec(editor.current.schema)
  return codec.current.serialize(doc)
}

/** A document of blocks read from markdown, with the editor's codec (made on first use). */
const parseWith = (codec: { current: MarkdownCodec | null }, editor: { readonly current: TiptapEditor | null }) => (markdown: string): ProseMirrorNode | undefined => {
  if (editor.current === null) return undefined
  codec.current ??= createMarkdownCodec(editor.current.schema)
  return codec.current.parse(markdown)
}

/** The node views that reach the editor's props: read when they draw, since the views are made once. */
const resourceViews = (resources: { readonly current: { readonly [K in "fileUrl" | "file" | "uploadFile" | "openapi" | "linkTargets" | "reusable"]: EditorProps[K] | undefined } }) => ({
  figure: createFigureView((src) => resources.current.fileUrl?.(src)),
  file: createFileView({ find: (src) => resources.current.file?.(src), upload: () => resources.current.uploadFile }),
  openapiOperation: createOpenapiView(() => resources.current.openapi),
  include: createIncludeView(() => resources.current.reusable),
  contentRef: createContentRefView(() => resources.current.linkTargets),
  cards: createCardsView(() => resources.current.linkTargets)
})

export const Editor = ({ markdown, onChange, onFieldOpen, editable = true, "aria-label": label = "Page content", linkTargets, uploadFile, importImage, fileUrl, file, openapi, collaboration, reusable, writer }: EditorProps) => {
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange
  const onFieldOpenRef = useRef(onFieldOpen)
  onFieldOpenRef.current = onFieldOpen
  // The block's field typed into and not yet left (see `onFieldOpen`).
  const typedIn = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null)
  // Read by the node views, which are made once.
  const resources = useRef({ fileUrl, file, uploadFile, openapi, linkTargets, reusable })
  resources.current = { fileUrl, file, uploadFile, openapi, linkTargets, reusable }
  const hooks = useRef(createHooks()).current
  const codecRef = useRef<MarkdownCodec | null>(null)
  const editorRef = useRef<TiptapEditor | null>(null)
  Object.assign(hooks, { reusable, writer, markdownOf: markdownWith(codecRef, editorRef), parseMarkdown: parseWith(codecRef, editorRef) })
  const loaded = useRef<string | null>(null)
  const frame = useRef<HTMLDivElement>(null)
  // The document not yet reported (documents are immutable: keeping it costs nothing) and its timer.
  const unreported = useRef<ProseMirrorNode | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const report = useRef(() => {
    clearTimeout(timer.current)
    timer.current = undefined
    const doc = unreported.current
    unreported.current = null
    if (doc !== null && codecRef.current) onChangeRef.current?.(codecRef.current.serialize(doc))
  }).current
  // Made once: TipTap compares the options at every render and, when any differ, sets them again,
  // which writes the editor's selection back over a click it has not read yet (the caret jumped
  // back to the block inserted last when a save's status redrew the screen at that moment).
  const extensions = useRef<ReturnType<typeof editorExtensions> | null>(null)
  extensions.current ??= [
    ...editorExtensions(resourceViews(resources)),
    collaboration === undefined ? EditingBasics : EditingCursors,
    ...commandExtensions(hooks),
    ...sourceExtensions(),
    ...(collaboration === undefined ? [] : collaborationExtensions(collaboration))
  ]
  const live = collaboration !== undefined
  const shown = live ? collaboration.ready : markdown !== undefined
  const editorProps = useMemo(() => ({ attributes: { class: "quire-editor", "aria-label": label, role: "textbox", "aria-multiline": "true" } }), [label])
  const editor = useEditor({
    extensions: extensions.current,
    editable,
    immediatelyRender: true,
    // TipTap's own <style> tag would be refused by the app's CSP (no inline styles); editor.css carries its rules.
    injectCSS: false,
    shouldRerenderOnTransaction: false,
    editorProps,
    onUpdate: ({ editor: e, transaction }) => {
      // A field typed into whose block went away (another person's change redrew it) is not left, it is gone.
      if (typedIn.current !== null && !typedIn.current.isConnected) {
        typedIn.current = null
        onFieldOpenRef.current?.(false)
      }
      // Live: the shared document is the page; nothing is reported.
      if (live || transaction.getMeta("addToHistory") === false) return
      unreported.current = e.state.doc
      clearTimeout(timer.current)
      timer.current = setTimeout(report, changeDelay)
    },
    onBlur: () => report()
  })
  useEffect(() => {
    // A block's field that commits when left (a caption, a tab's title, a block's source) typed
    // into: the page has an edit not yet in it, so it is no longer "saved" (`onFieldOpen`). Leaving
    // it commits it (its `change` or its blur, which come first) and reports the page now, changed
    // or not (typed back to what it was), so the status never waits on a field.
    const el = frame.current
    if (!editor || el === null) return
    const typed = (event: Event) => {
      const target = event.target
      const isField = (target instanceof HTMLInputElement && target.type === "text") || target instanceof HTMLTextAreaElement
      if (!isField || !editor.view.dom.contains(target) || commitsAsTyped in target.dataset) return
      if (typedIn.current !== target) onFieldOpenRef.current?.(true)
      typedIn.current = target
    }
    const left = (event: FocusEvent) => {
      if (event.target !== typedIn.current || editor.isDestroyed) return
      typedIn.current = null
      // After the commits a blur schedules (a block's source reads itself back on the next turn).
      setTimeout(() => onFieldOpenRef.current?.(false), 0)
      unreported.current ??= editor.state.doc
      report()
    }
    el.addEventListener("input", typed)
    el.addEventListener("focusout", left)
    return () => (el.removeEventListener("input", typed), el.removeEventListener("focusout", left))
  }, [editor, report])
  useEffect(() => {
    const hidden = () => document.visibilityState === "hidden" && report()
    // Leaving the page: a field typed into is left too, so its words are committed (and, live, sent).
    const leave = () => {
      if (typedIn.current !== null && document.activeElement === typedIn.current) typedIn.current.blur()
      report()
    }
    window.addEventListener("pagehide", leave)
    document.addEventListener("visibilitychange", hidden)
    return () => {
      window.removeEventListener("pagehide", leave)
      document.removeEventListener("visibilitychange", hidden)
      report()
    }
  }, [report])
  useEffect(() => {
    if (live || !editor || editor.isDestroyed || markdown === undefined || markdown === loaded.current) return
    codecRef.current ??= createMarkdownCodec(editor.schema)
    loaded.current = markdown
    // Edits of the document being replaced are not reported after it.
    clearTimeout(timer.current)
    unreported.current = null
    const doc = codecRef.current.parse(markdown)
    // Before the blocks are drawn, so their first layout is already the long page's (editor.css).
    frame.current?.classList.toggle("is-long", doc.childCount >= longPage)
    load(editor, doc)
    // Check every block's kept slice in idle moments (a few milliseconds at a time, never a long task),
    // so the first report after typing on a long page writes from what is remembered.
    const codec = codecRef.current
    const shown = editor.state.doc
    let next = 0
    let handle: number | ReturnType<typeof setTimeout> = 0
    const idle = typeof requestIdleCallback === "function"
    const slice = (deadline?: IdleDeadline) => {
      const until = performance.now() + Math.min(8, deadline?.timeRemaining() ?? 8)
      next = codec.prepare(shown, next, () => performance.now() < until)
      if (next < shown.childCount) handle = idle ? requestIdleCallback(slice) : setTimeout(slice, 0)
    }
    handle = idle ? requestIdleCallback(slice) : setTimeout(slice, 0)
    return () => (idle ? cancelIdleCallback(handle as number) : clearTimeout(handle))
  }, [editor, markdown, live])
  useLayoutEffect(() => {
    // The shared document has come: a long page is drawn as one (editor.css), set before the
    // browser first lays the page out (an effect ran after: one layout of every block first).
    if (live && shown && editor && !editor.isDestroyed) frame.current?.classList.toggle("is-long", editor.state.doc.childCount >= longPage)
  }, [editor, live, shown])
  editorRef.current = editor
  useLayoutEffect(() => {
    // Before the frame is first painted: a page shown but not yet editable would drop the keys typed
    // into it in between. Without TipTap's "update" event: it is no edit, and the page would be
    // reported as changed.
    const want = editable && shown
    if (editor && !editor.isDestroyed && editor.isEditable !== want) editor.setEditable(want, false)
  }, [editor, editable, shown])
  return (
    <div ref={frame} className="quire-editor-frame" hidden={!shown}>
      {editor && editable ? <Toolbar editor={editor} hooks={hooks} linkTargets={linkTargets} uploadFile={uploadFile} importImage={importImage} /> : null}
      <EditorContent editor={editor} />
    </div>
  )
}

export default Editor
