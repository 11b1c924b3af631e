/**
 * The bar above the editor: undo, redo, bold, italic, code, link, Insert (the slash menu), Image (upload),
 * Make reusable and Improve (the agent rewrites the selection; "Write with AI" opens the same form from the menu);
 * the link picker below it; an image upload's progress (with Cancel) and errors in words (with Retry
 * where it may work), and what became of images of other sites pasted in.
 */
import type { Editor } from "@tiptap/core"
import { redo, redoDepth, undo, undoDepth } from "@tiptap/pm/history"
import { yUndoPluginKey } from "@tiptap/y-tiptap"
import { useEditorState } from "@tiptap/react"
import { useEffect, useRef, useState } from "react"
import { applyLink, type CommandHooks, insertFigure, linkRange, removeLink, replaceFigureSrc } from "./hooks.ts"
import { startInsert } from "./insert.ts"
import { LinkPicker } from "./LinkPicker.tsx"
import { MakeReusable } from "./MakeReusable.tsx"
import { AgentWrite, type AgentWriteMode } from "./AgentWrite.tsx"
import type { LinkTarget } from "./link-targets.ts"
import { UploadProgress } from "./UploadProgress.tsx"
import { uploadProblem } from "./upload.ts"
import { failureOf, type UploadedFile, type UploadOptions } from "../uploads.ts"

export type { UploadedFile, UploadOptions }

export interface ToolbarProps {
  readonly editor: Editor
  readonly hooks: CommandHooks
  readonly linkTargets: (() => Promise<ReadonlyArray<LinkTarget>>) | undefined
  readonly uploadFile: ((file: File, options: UploadOptions) => Promise<UploadedFile>) | undefined
  /** Copies the file at a URL of another site into the change request; without it pasted images keep their URL. */
  readonly importImage: ((url: string) => Promise<UploadedFile>) | undefined
}

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform)
const mod = isMac ? "⌘" : "Ctrl+"

type Upload =
  | { readonly kind: "uploading"; readonly name: string; readonly loaded: number; readonly total: number; readonly cancel: () => void }
  | { readonly kind: "importing"; readonly count: number }
  | { readonly kind: "error"; readonly message: string; readonly retry?: (() => void) | undefined }
  | undefined

const hostOf = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** Left and right arrows move between the toolbar's buttons. */
const arrowKeys = (e: React.KeyboardEvent<HTMLDivElement>) => {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return
  const buttons = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>("button:not(:disabled)"))
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
  if (at < 0) return
  e.preventDefault()
  buttons[(at + (e.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length]!.focus()
}

/** The undo stack in use: live editing's (only one's own changes, editor/collab) or the editor's history. */
const undoable = (e: Editor) => {
  const live = yUndoPluginKey.getState(e.state)?.undoManager
  return live === undefined
    ? { undo: undoDepth(e.state), redo: redoDepth(e.state) }
    : { undo: live.undoStack.length, redo: live.redoStack.length }
}

const undoOrRedo = (editor: Editor, which: "undo" | "redo") => {
  if (yUndoPluginKey.getState(editor.state) !== undefined) return editor.commands[which]()
  return (which === "undo" ? undo : redo)(editor.state, editor.view.dispatch)
}

export const Toolbar = ({ editor, hooks, linkTargets, uploadFile, importImage }: ToolbarProps) => {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      canUndo: undoable(e).undo > 0,
      canRedo: undoable(e).redo > 0,
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      code: e.isActive("code"),
      link: e.isActive("link"),
      editable: e.isEditable,
      selected: !e.state.selection.empty
    })
  })
  const [picker, setPicker] = useState<{ from: number; to: number; href: string | undefined } | undefined>(undefined)
  const [upload, setUpload] = useState<Upload>(undefined)
  const [reusing, setReusing] = useState(false)
  const [writing, setWriting] = useState<AgentWriteMode | undefined>(undefined)
  const fileInput = useRef<HTMLInputElement>(null)

  const uploadOne = async (file: File, pos: number | undefined) => {
    const problem = uploadFile === undefined ? "Images cannot be uploaded here." : uploadProblem(file)
    if (problem !== undefined || uploadFile === undefined) return setUpload({ kind: "error", message: problem ?? "" })
    const controller = new AbortController()
    const progress = (loaded: number, total: number) => setUpload({ kind: "uploading", name: file.name, loaded, total, cancel: () => controller.abort() })
    progress(0, file.size)
    try {
      const stored = await uploadFile(file, { onProgress: progress, signal: controller.signal })
      insertFigure(editor, stored.src, pos)
      setUpload(undefined)
    } catch (caught) {
      const failure = failureOf(caught)
      setUpload(failure.kind === "cancelled" ? undefined : {
        kind: "error",
        message: failure.message,
        retry: failure.retryable ? () => void uploadOne(file, pos) : undefined
      })
    }
  }
  // Pasted images of other sites go in as figures at once, then are copied; one that cannot be stays linked.
  const importAll = async (srcs: ReadonlyArray<string>) => {
    // Each goes in before the one inserted last (which the selection holds): the last first keeps their order.
    for (const src of srcs.toReversed()) insertFigure(editor, src, undefined)
    if (importImage === undefined) return
    setUpload({ kind: "importing", count: srcs.length })
    const failed: Array<string> = []
    await Promise.all(srcs.map((src) =>
      importImage(src).then((stored) => replaceFigureSrc(editor, src, stored.src), () => void failed.push(src))))
    setUpload(failed.length === 0 ? undefined : {
      kind: "error",
      message: failed.length === 1
        ? `Could not copy the pasted image from ${hostOf(failed[0]!)}: it stays linked to that site.`
        : `Could not copy ${failed.length} pasted images (from ${[...new Set(failed.map(hostOf))].join(", ")}): they stay linked to those sites.`
    })
  }
  const openPicker = () => {
    if (editor.isEditable) setPicker(linkRange(editor))
  }
  useEffect(() => {
    hooks.pickImage = () => fileInput.current?.click()
    hooks.openLinkPicker = openPicker
    hooks.upload = (file, pos) => void uploadOne(file, pos)
    hooks.importImages = (srcs) => void importAll(srcs)
    hooks.writeWithAI = () => setWriting("write")
  })
  const closePicker = () => {
    setPicker(undefined)
    editor.commands.focus()
  }
  const run = (command: () => unknown) => () => {
    command()
    editor.view.focus()
  }
  const disabled = !state?.editable
  return (
    <div className="quire-editor-chrome">
      <div className="quire-toolbar" role="toolbar" aria-label="Formatting" onKeyDown={arrowKeys}>
        <button type="button" aria-label="Undo" title={`Undo (${mod}Z)`} disabled={disabled || !state?.canUndo} onClick={run(() => undoOrRedo(editor, "undo"))}>↶</button>
        <button type="button" aria-label="Redo" title={`Redo (${mod}Shift+Z)`} disabled={disabled || !state?.canRedo} onClick={run(() => undoOrRedo(editor, "redo"))}>↷</button>
        <span className="quire-toolbar-gap" aria-hidden="true" />
        <button type="button" aria-label="Bold" title={`Bold (${mod}B)`} aria-pressed={state?.bold ?? false} disabled={disabled} onClick={run(() => editor.commands.toggleMark("bold"))}><strong>B</strong></button>
        <button type="button" aria-label="Italic" title={`Italic (${mod}I)`} aria-pressed={state?.italic ?? false} disabled={disabled} onClick={run(() => editor.commands.toggleMark("italic"))}><em>I</em></button>
        <button type="button" aria-label="Code" title={`Code (${mod}E)`} aria-pressed={state?.code ?? false} disabled={disabled} onClick={run(() => editor.commands.toggleMark("code"))}><code>{"</>"}</code></button>
        <button type="button" aria-label="Link" title={`Link (${mod}K)`} aria-pressed={state?.link ?? false} disabled={disabled} onClick={openPicker}>Link</button>
        <span className="quire-toolbar-gap" aria-hidden="true" />
        <button type="button" aria-label="Insert a block" title="Insert a block (type / in an empty line)" disabled={disabled} onClick={() => startInsert(editor)}>+ Insert</button>
        <button type="button" aria-label="Upload an image" title="Upload an image (or paste or drop one)" disabled={disabled || uploadFile === undefined} onClick={() => fileInput.current?.click()}>Image</button>
        <input ref={fileInput} type="file" accept="image/*" hidden aria-label="Image file" data-testid="image-file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ""
            if (file) void uploadOne(file, undefined)
          }} />
        {hooks.reusable === undefined ? null : (
          <button type="button" aria-label="Make reusable" title="Turn the selected blocks into reusable content" aria-expanded={reusing}
            disabled={disabled || !(state?.selected ?? false)} onClick={() => setReusing(true)}>Make reusable</button>
        )}
        {hooks.writer === undefined ? null : (
          <button type="button" aria-label="Improve" title="Have the agent improve the selected text" aria-expanded={writing === "improve"}
            disabled={disabled || !(state?.selected ?? false)} onClick={() => setWriting("improve")}>Improve</button>
        )}
      </div>
      {reusing ? <MakeReusable editor={editor} hooks={hooks} onClose={() => setReusing(false)} /> : null}
      {writing === undefined ? null : <AgentWrite key={writing} editor={editor} hooks={hooks} mode={writing} onClose={() => setWriting(undefined)} />}
      {picker === undefined ? null : (
        <LinkPicker load={linkTargets} current={picker.href}
          onPick={(href, text) => {
            setPicker(undefined)
            applyLink(editor, picker, href, text)
          }}
          onRemove={picker.href === undefined ? undefined : () => {
            setPicker(undefined)
            removeLink(editor, picker)
          }}
          onClose={closePicker} />
      )}
      {upload === undefined ? null : upload.kind === "uploading"
        ? <UploadProgress name={upload.name} loaded={upload.loaded} total={upload.total} onCancel={upload.cancel} />
        : upload.kind === "importing"
        ? <p className="quire-upload-status" role="status">Copying {upload.count === 1 ? "the pasted image" : `${upload.count} pasted images`} into the change request…</p>
        : (
          <p className="quire-upload-status form-error" role="alert">
            {upload.message}{" "}
            {upload.retry === undefined ? null : <button type="button" onClick={upload.retry}>Retry</button>}{" "}
            <button type="button" onClick={() => setUpload(undefined)}>Dismiss</button>
          </p>
        )}
    </div>
  )
}
