import type { NodeViewRenderer, NodeViewRendererProps } from "@tiptap/core"
import { getParam, type LiquidParam, setParam } from "@quire/document"
import { field, h, setAttrs, sourceButton } from "../shared/view.ts"
import { languageChoices } from "./languages.ts"

type Wrapper = ReadonlyArray<LiquidParam> | null

/** The wrapper with `title` set, or without it (null once nothing is left, which writes a plain fence). */
export const withTitle = (wrapper: Wrapper, title: string): Wrapper => {
  if (title !== "") return setParam(wrapper ?? [], "title", title)
  const rest = (wrapper ?? []).filter((p) => p.key !== "title")
  return rest.length === 0 ? null : rest
}

/** The language picker: common languages and the block's own, the current one selected. */
const languagePicker = (onPick: (value: string) => void, onEscape: () => void) => {
  const select = h("select", { class: "quire-code-language" })
  let shown: string | undefined
  const show = (current: string) => {
    if (current === shown) return
    shown = current
    select.replaceChildren(...languageChoices(current).map((choice) => h("option", { value: choice.value }, choice.label)))
    select.value = current
  }
  select.addEventListener("change", () => onPick(select.value))
  // Escape goes back to the code.
  select.addEventListener("keydown", (e) => {
    if (e.key === "Escape") onEscape()
  })
  // Keys on the picker are the picker's, not the editor's.
  select.addEventListener("keydown", (e) => e.stopPropagation())
  return { root: h("label", { class: "quire-field" }, h("span", { class: "visually-hidden" }, "Language"), select), select, show }
}

/**
 * A code block: its language (a picker of common languages) and title above the code (the code stays
 * ProseMirror's). The title is GitBook's `{% code title="…" %}` wrapper; a title field left empty by the menu's
 * "Code block with title" is focused when the block is inserted (`data-focus-on-insert`).
 */
export const codeBlockView: NodeViewRenderer = (props) => {
  let node = props.node
  const current = (): NodeViewRendererProps => ({ ...props, node })
  const language = languagePicker((value) => setAttrs(current(), { language: value }), () => props.editor.view.focus())
  // The title commits as one types: this view updates in place (`update` below), keeping the field's focus and text.
  const title = field("Title", "", (value) => {
    const wrapper = withTitle(node.attrs.wrapper as Wrapper, value.trim())
    setAttrs(current(), wrapper === null ? { wrapper, wrapperTag: null, wrapperEnd: null } : { wrapper })
  }, { live: true })
  // The header reads as the code's title line: its placeholder names it, its label is for screen readers.
  title.root.querySelector("span")?.classList.add("visually-hidden")
  title.input.placeholder = "Title (optional)"
  // Enter in the title goes back to the code.
  title.input.addEventListener("keydown", (e) => {
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
    language.show(lang)
    if (document.activeElement !== title.input) title.input.value = name ?? ""
    pre.dataset.language = lang
    if (name === "") title.input.dataset.focusOnInsert = ""
    else delete title.input.dataset.focusOnInsert
  }
  sync()
  return {
    dom,
    contentDOM,
    stopEvent: (e) => e.target === language.select || e.target === title.input || e.target instanceof HTMLButtonElement,
    ignoreMutation: (m) => !contentDOM.contains(m.target),
    update: (next) => {
      if (next.type !== node.type) return false
      node = next
      sync()
      return true
    }
  }
}
