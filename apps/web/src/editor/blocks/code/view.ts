import type { NodeViewRenderer, NodeViewRendererProps } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { field, h, setAttrs, sourceButton } from "../shared/view.ts"

type Wrapper = ReadonlyArray<LiquidParam> | null

/** The wrapper with `title` set, or without it (null once nothing is left, which writes a plain fence). */
export const withTitle = (wrapper: Wrapper, title: string): Wrapper => {
  if (title !== "") return setParam(wrapper ?? [], "title", title)
  const rest = (wrapper ?? []).filter((p) => p.key !== "title")
  return rest.length === 0 ? null : rest
}

/**
 * A code block: its language and title as fields above the code (the code stays ProseMirror's). The title is
 * GitBook's `{% code title="…" %}` wrapper; a title field left empty by the menu's "Code block with title" is
 * focused when the block is inserted (`data-focus-on-insert`).
 */
export const codeBlockView: NodeViewRenderer = (props) => {
  let node = props.node
  const current = (): NodeViewRendererProps => ({ ...props, node })
  // A backtick or a line break would end the fence's info string; a language is one line of text.
  // Both commit as one types: this view updates in place (\`update\` below), keeping the field's focus and text.
  const language = field("Language", "", (value) => setAttrs(current(), { language: value.replace(/[`\r\n]/g, "").trim() }), { live: true })
  const title = field("Title", "", (value) => {
    const wrapper = withTitle(node.attrs.wrapper as Wrapper, value.trim())
    setAttrs(current(), wrapper === null ? { wrapper, wrapperTag: null, wrapperEnd: null } : { wrapper })
  }, { live: true })
  // Enter in a field goes back to the code (leaving the field commits it).
  for (const { input } of [language, title])
    input.addEventListener("keydown", (e) => {
      if ((e as KeyboardEvent).key !== "Enter") return
      e.preventDefault()
      props.editor.view.focus()
    })
  const contentDOM = h("code")
  const pre = h("pre", {}, contentDOM)
  const dom = h("div", { class: "quire-block quire-codeBlock" }, h("div", { class: "quire-code-fields", contenteditable: "false" }, sourceButton(props), language.root, title.root), pre)
  const sync = () => {
    const lang = node.attrs.language as string
    const name = getParam((node.attrs.wrapper as Wrapper) ?? [], "title")
    if (document.activeElement !== language.input) language.input.value = lang
    if (document.activeElement !== title.input) title.input.value = name ?? ""
    pre.dataset.language = lang
    if (name === "") title.input.dataset.focusOnInsert = ""
    else delete title.input.dataset.focusOnInsert
  }
  sync()
  return {
    dom,
    contentDOM,
    stopEvent: (e) => e.target === language.input || e.target === title.input || e.target instanceof HTMLButtonElement,
    ignoreMutation: (m) => !contentDOM.contains(m.target),
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
