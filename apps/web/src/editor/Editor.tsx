/**
 * The page editor: TipTap over the GitBook-markdown schema. It is given markdown and reports markdown; every
 * block not edited is written back byte for byte (see markdown/codec.ts). The app loads it with `import()`,
 * so TipTap and ProseMirror stay out of the first load.
 */
import type { Editor as TiptapEditor } from "@tiptap/core"
import { EditorContent, useEditor } from "@tiptap/react"
import { useEffect, useRef } from "react"
import { createMarkdownCodec, type MarkdownCodec } from "./markdown/codec.ts"
import { EditingBasics, editorExtensions } from "./schema.ts"
import "./editor.css"

export interface EditorProps {
  /** The page's markdown as stored. Changing it replaces the document (not an undoable step). */
  readonly markdown: string
  /** Called after each change with the page's markdown. */
  readonly onChange?: (markdown: string) => void
  readonly editable?: boolean
  readonly "aria-label"?: string
}

/** Replaces the editor's document with `markdown`, outside the undo history. The codec must use the editor's own schema. */
const load = (editor: TiptapEditor, codec: MarkdownCodec, markdown: string): void => {
  const doc = codec.parse(markdown)
  const tr = editor.state.tr.replaceWith(0, editor.state.doc.content.size, doc.content).setMeta("addToHistory", false)
  editor.view.dispatch(tr)
}

export const Editor = ({ markdown, onChange, editable = true, "aria-label": label = "Page content" }: EditorProps) => {
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange
  const codecRef = useRef<MarkdownCodec | null>(null)
  const loaded = useRef<string | null>(null)
  const editor = useEditor({
    extensions: [...editorExtensions(), EditingBasics],
    editable,
    immediatelyRender: true,
    // TipTap's own <style> tag would be refused by the app's CSP (no inline styles); editor.css carries its rules.
    injectCSS: false,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: { class: "quire-editor", "aria-label": label, role: "textbox", "aria-multiline": "true" } },
    onUpdate: ({ editor: e, transaction }) => {
      if (transaction.getMeta("addToHistory") === false) return
      if (codecRef.current) onChangeRef.current?.(codecRef.current.serialize(e.state.doc))
    }
  })
  useEffect(() => {
    if (!editor || editor.isDestroyed || markdown === loaded.current) return
    codecRef.current ??= createMarkdownCodec(editor.schema)
    loaded.current = markdown
    load(editor, codecRef.current, markdown)
    // Check every block's kept slice once while idle, so the first keystroke on a long page serializes from cache.
    const codec = codecRef.current
    const warm = () => void codec.serialize(editor.state.doc)
    const handle = typeof requestIdleCallback === "function" ? requestIdleCallback(warm) : setTimeout(warm, 0)
    return () => (typeof cancelIdleCallback === "function" ? cancelIdleCallback(handle as number) : clearTimeout(handle))
  }, [editor, markdown])
  useEffect(() => {
    editor?.setEditable(editable)
  }, [editor, editable])
  return <EditorContent editor={editor} />
}

export default Editor
