/**
 * "Make reusable": the selected blocks become a new reusable content of the change request, named
 * here, and an include of it takes their place. The name's field opens below the toolbar; Escape
 * or Cancel closes it, and a refusal is said next to it.
 */
import type { Editor } from "@tiptap/core"
import { useEffect, useRef, useState } from "react"
import type { CommandHooks } from "./hooks.ts"
import { replaceWithInclude, selectedBlocks } from "./reusable.ts"

export interface MakeReusableProps {
  readonly editor: Editor
  readonly hooks: CommandHooks
  readonly onClose: () => void
}

export const MakeReusable = ({ editor, hooks, onClose }: MakeReusableProps) => {
  const [title, setTitle] = useState("")
  const [state, setState] = useState<{ readonly kind: "idle" } | { readonly kind: "saving" } | { readonly kind: "error"; readonly message: string }>({ kind: "idle" })
  const field = useRef<HTMLInputElement>(null)
  // The blocks chosen when the form opened: typing the name moves the focus, not the selection.
  const [blocks] = useState(() => selectedBlocks(editor))
  useEffect(() => field.current?.focus(), [])
  const close = () => {
    onClose()
    editor.commands.focus()
  }
  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const catalog = hooks.reusable
    if (blocks === undefined || catalog === undefined) return
    if (title.trim() === "") return setState({ kind: "error", message: "Give the reusable content a name." })
    setState({ kind: "saving" })
    try {
      const created = await catalog.create(title.trim(), hooks.markdownOf(blocks.doc).replace(/\n+$/, "\n"))
      replaceWithInclude(editor, blocks, created.id)
      onClose()
    } catch (caught) {
      setState({ kind: "error", message: caught instanceof Error ? caught.message : String(caught) })
    }
  }
  return (
    <form className="quire-make-reusable" aria-label="Make reusable" onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault()
          close()
        }
      }}>
      {blocks === undefined
        ? <p role="alert" className="form-error">Select the blocks to make reusable first.</p>
        : (
          <>
            <label>
              Name of the reusable content{" "}
              <input ref={field} type="text" value={title} maxLength={500} aria-invalid={state.kind === "error"}
                aria-describedby={state.kind === "error" ? "quire-make-reusable-error" : undefined}
                onChange={(e) => {
                  setTitle(e.target.value)
                  if (state.kind === "error") setState({ kind: "idle" })
                }} />
            </label>{" "}
            <button type="submit" disabled={state.kind === "saving"}>{state.kind === "saving" ? "Creating…" : "Create"}</button>{" "}
          </>
        )}
      <button type="button" onClick={close}>Cancel</button>
      {state.kind === "error" ? <p id="quire-make-reusable-error" role="alert" className="form-error">{state.message}</p> : null}
    </form>
  )
}
