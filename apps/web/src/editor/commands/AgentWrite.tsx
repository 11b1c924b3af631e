/**
 * "Write with AI" and "Improve" below the toolbar: the person says what the agent should write (or
 * how to improve the selection), the agent's text is shown, and the person inserts or accepts it,
 * or discards it. The place it goes is kept while the agent writes (writer.ts), whatever others
 * type meanwhile. A refusal (no model: what to set, QUIRE_AI_URL) is said next to the field.
 */
import type { Editor } from "@tiptap/core"
import { useEffect, useRef, useState } from "react"
import type { CommandHooks } from "./hooks.ts"
import { type Place, placeOf, putAt } from "./writer.ts"

export type AgentWriteMode = "write" | "improve"

export interface AgentWriteProps {
  readonly editor: Editor
  readonly hooks: CommandHooks
  readonly mode: AgentWriteMode
  readonly onClose: () => void
}

type State =
  | { readonly kind: "asking" }
  | { readonly kind: "writing" }
  | { readonly kind: "proposed"; readonly markdown: string }
  | { readonly kind: "error"; readonly message: string }

const words = {
  write: { form: "Write with AI", field: "What should the agent write here?", submit: "Write", accept: "Insert", prompt: "" },
  improve: { form: "Improve with AI", field: "How should the agent improve the selection?", submit: "Improve", accept: "Accept", prompt: "Improve the writing: clearer and shorter, the same meaning" }
} as const

export const AgentWrite = ({ editor, hooks, mode, onClose }: AgentWriteProps) => {
  const said = words[mode]
  const [prompt, setPrompt] = useState<string>(said.prompt)
  const [state, setState] = useState<State>({ kind: "asking" })
  const field = useRef<HTMLTextAreaElement>(null)
  // Where the text goes, and the selection it replaces, as they were when the form opened.
  const [target] = useState<{ readonly place: Place; readonly selection: string | undefined }>(() => {
    const { from, to, empty } = editor.state.selection
    return { place: placeOf(editor, from, to), selection: mode === "improve" && !empty ? editor.state.doc.textBetween(from, to, "\n\n") : undefined }
  })
  useEffect(() => field.current?.focus(), [])
  const close = () => {
    onClose()
    editor.commands.focus()
  }
  const ask = async (e: React.FormEvent) => {
    e.preventDefault()
    const writer = hooks.writer
    if (writer === undefined || state.kind === "writing") return
    if (prompt.trim() === "") return setState({ kind: "error", message: "Say what the agent should write." })
    setState({ kind: "writing" })
    try {
      const markdown = await writer.compose({ prompt: prompt.trim(), selection: target.selection, page: hooks.markdownOf(editor.state.doc) })
      setState({ kind: "proposed", markdown })
    } catch (caught) {
      setState({ kind: "error", message: caught instanceof Error ? caught.message : String(caught) })
    }
  }
  const accept = () => {
    if (state.kind !== "proposed") return
    const parsed = hooks.parseMarkdown(state.markdown)
    if (parsed === undefined || !putAt(editor, target.place, parsed)) return setState({ kind: "error", message: "The place for the text is gone: ask again." })
    onClose()
  }
  const errorId = "quire-agent-write-error"
  return (
    <form className="quire-agent-write" aria-label={said.form} onSubmit={(e) => void ask(e)}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault()
          close()
        }
      }}>
      {mode === "improve" && target.selection === undefined ? <p role="alert" className="form-error">Select the text to improve first.</p> : (
        <>
          <label htmlFor="quire-agent-write-prompt">{said.field}</label>
          <textarea id="quire-agent-write-prompt" ref={field} rows={2} value={prompt} maxLength={2000} aria-invalid={state.kind === "error"}
            aria-describedby={state.kind === "error" ? errorId : undefined}
            onChange={(e) => {
              setPrompt(e.target.value)
              if (state.kind === "error") setState({ kind: "asking" })
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void ask(e)
            }} />
          {state.kind === "proposed" ? (
            <section className="quire-agent-proposal" aria-label="The agent's text">
              <p className="quire-agent-proposal-text">{state.markdown}</p>
            </section>
          ) : null}
          <div className="quire-agent-write-actions">
            {state.kind === "proposed" ? (
              <>
                <button type="button" className="primary" onClick={accept}>{said.accept}</button>
                <button type="submit">Write again</button>
                <button type="button" onClick={close}>Discard</button>
              </>
            ) : (
              <>
                <button type="submit" className="primary" disabled={state.kind === "writing"}>{state.kind === "writing" ? "The agent is writing…" : said.submit}</button>
                <button type="button" onClick={close}>Cancel</button>
              </>
            )}
          </div>
          {state.kind === "error" ? <p id={errorId} role="alert" className="form-error">{state.message}</p> : null}
        </>
      )}
    </form>
  )
}
