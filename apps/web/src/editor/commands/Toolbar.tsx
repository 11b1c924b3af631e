/**
 * The bar above the editor: undo, redo, bold, italic, code, link, Insert (the slash menu) and Image (upload);
 * the link picker below it; upload progress and errors in words next to the editor.
 */
import type { Editor } from "@tiptap/core"
import { redo, redoDepth, undo, undoDepth } from "@tiptap/pm/history"
import { yUndoPluginKey } from "@tiptap/y-tiptap"
import { useEditorState } from "@tiptap/react"
import { useEffect, useRef, useState } from "react"
import { applyLink, type CommandHooks, insertFigure, linkRange, removeLink } from "./hooks.ts"
import { startInsert } from "./insert.ts"
import { LinkPicker } from "./LinkPicker.tsx"
import type { LinkTarget } from "./link-targets.ts"
import { uploadProblem } from "./upload.ts"

export interface UploadedFile {
  /** How the page refers to the file: `/files/<id>`. */
  readonly src: string
}

export interface ToolbarProps {
  readonly editor: Editor
  readonly hooks: CommandHooks
  readonly linkTargets: (() => Promise<ReadonlyArray<LinkTarget>>) | undefined
  readonly uploadFile: ((file: File) => Promise<UploadedFile>) | undefined
}

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform)
const mod = isMac ? "⌘" : "Ctrl+"

type Upload = { readonly kind: "uploading"; readonly name: string } | { readonly kind: "error"; readonly message: string } | undefined

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

export const Toolbar = ({ editor, hooks, linkTargets, uploadFile }: ToolbarProps) => {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      canUndo: undoable(e).undo > 0,
      canRedo: undoable(e).redo > 0,
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      code: e.isActive("code"),
      link: e.isActive("link"),
      editable: e.isEditable
    })
  })
  const [picker, setPicker] = useState<{ from: number; to: number; href: string | undefined } | undefined>(undefined)
  const [upload, setUpload] = useState<Upload>(undefined)
  const fileInput = useRef<HTMLInputElement>(null)

  const uploadOne = async (file: File, pos: number | undefined) => {
    const problem = uploadFile === undefined ? "Images cannot be uploaded here." : uploadProblem(file)
    if (problem !== undefined || uploadFile === undefined) return setUpload({ kind: "error", message: problem ?? "" })
    setUpload({ kind: "uploading", name: file.name })
    try {
      const stored = await uploadFile(file)
      insertFigure(editor, stored.src, pos)
      setUpload(undefined)
    } catch (failure) {
      setUpload({ kind: "error", message: `Could not upload “${file.name}”: ${failure instanceof Error ? failure.message : String(failure)}` })
    }
  }
  const openPicker = () => {
    if (editor.isEditable) setPicker(linkRange(editor))
  }
  useEffect(() => {
    hooks.pickImage = () => fileInput.current?.click()
    hooks.openLinkPicker = openPicker
    hooks.upload = (file, pos) => void uploadOne(file, pos)
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
      </div>
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
        ? <p className="quire-upload-status" role="status">Uploading “{upload.name}”…</p>
        : <p className="quire-upload-status form-error" role="alert">{upload.message} <button type="button" onClick={() => setUpload(undefined)}>Dismiss</button></p>}
    </div>
  )
}
